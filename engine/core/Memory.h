// The engine's tracked allocator. Every buffer a rank holds is allocated here with
// a category and a unit, so each rank's memory is measured, not estimated, and
// --memory-budget is enforced when an allocation would pass it: the allocation
// fails, the rank records what it needed and held, and stops.
#pragma once

#include "core/Device.h"
#include "trace/Event.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace shardlab {

class Recorder;

class OutOfMemory : public std::runtime_error {
public:
  OutOfMemory(int rank, trace::Category category, std::string unit, std::int64_t needed, std::int64_t budget,
              std::int64_t holding);
  int rank;
  trace::Category category;
  std::string unit;
  std::int64_t needed, budget, holding;
};

class MemoryTracker;

// A float buffer owned by the tracker; freed (and recorded) when destroyed.
class Buffer {
public:
  Buffer() = default;
  Buffer(Buffer&& o) noexcept { *this = std::move(o); }
  Buffer& operator=(Buffer&& o) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { reset(); }

  float* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(float); }
  bool empty() const { return data_ == nullptr; }
  trace::Category category() const { return category_; }
  void reset(); // frees now

private:
  friend class MemoryTracker;
  MemoryTracker* owner_ = nullptr;
  float* data_ = nullptr;
  std::size_t count_ = 0;
  trace::Category category_ = trace::Category::Count;
  int unit_ = -1;
};

class MemoryTracker {
public:
  // budget 0: no budget.
  MemoryTracker(Device& device, Recorder& recorder, std::int64_t budgetBytes, std::vector<std::string> unitNames);

  // Allocates `count` floats, zeroed. Throws OutOfMemory past the budget.
  Buffer allocate(trace::Category category, int unit, std::size_t count);

  std::int64_t current(trace::Category c) const { return current_[static_cast<std::size_t>(c)]; }
  std::int64_t total() const { return total_; }
  std::int64_t peak() const { return peak_; }
  std::int64_t budget() const { return budget_; }
  Device& device() { return device_; }

private:
  friend class Buffer;
  void release(Buffer& b);

  Device& device_;
  Recorder& recorder_;
  std::int64_t budget_;
  std::vector<std::string> units_;
  std::array<std::int64_t, trace::kCategoryCount> current_{};
  std::int64_t total_ = 0, peak_ = 0;
};

} // namespace shardlab
