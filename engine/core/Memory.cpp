#include "core/Memory.h"

#include "core/Recorder.h"
#include "trace/Summary.h"

#include <new>

namespace shardlab {

OutOfMemory::OutOfMemory(int r, trace::Category c, std::string u, std::int64_t n, std::int64_t b, std::int64_t h)
    : std::runtime_error("out of memory on rank " + std::to_string(r) + ": needs " + trace::formatBytes(n) + " for " +
                         std::string(trace::toString(c)) + (u == "-" ? "" : " of " + u) + ", budget " +
                         trace::formatBytes(b) + ", holding " + trace::formatBytes(h)),
      rank(r), category(c), unit(std::move(u)), needed(n), budget(b), holding(h) {}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    reset();
    owner_ = o.owner_;
    data_ = o.data_;
    count_ = o.count_;
    category_ = o.category_;
    unit_ = o.unit_;
    o.owner_ = nullptr;
    o.data_ = nullptr;
    o.count_ = 0;
  }
  return *this;
}

void Buffer::reset() {
  if (owner_ && data_) owner_->release(*this);
  owner_ = nullptr;
  data_ = nullptr;
  count_ = 0;
}

MemoryTracker::MemoryTracker(Device& device, Recorder& recorder, std::int64_t budgetBytes,
                             std::vector<std::string> unitNames)
    : device_(device), recorder_(recorder), budget_(budgetBytes), units_(std::move(unitNames)) {}

Buffer MemoryTracker::allocate(trace::Category category, int unit, std::size_t count) {
  const auto bytes = static_cast<std::int64_t>(count * sizeof(float));
  if (budget_ > 0 && total_ + bytes > budget_) {
    recorder_.outOfMemory(category, unit, bytes, budget_, total_);
    const std::string name = unit >= 0 && unit < static_cast<int>(units_.size()) ? units_[static_cast<std::size_t>(unit)] : "-";
    throw OutOfMemory(recorder_.rank(), category, name, bytes, budget_, total_);
  }
  Buffer b;
  b.owner_ = this;
  try {
    b.data_ = static_cast<float*>(device_.allocate(static_cast<std::size_t>(bytes)));
  } catch (const std::bad_alloc&) {
    // The device itself ran out (a GPU's cudaMallocAsync, or the host): the same OOM
    // report and exit status as the budget's, instead of a generic failure.
    recorder_.outOfMemory(category, unit, bytes, budget_, total_);
    const std::string name = unit >= 0 && unit < static_cast<int>(units_.size()) ? units_[static_cast<std::size_t>(unit)] : "-";
    throw OutOfMemory(recorder_.rank(), category, name, bytes, budget_, total_);
  }
  device_.zero(b.data_, static_cast<std::size_t>(bytes));
  b.count_ = count;
  b.category_ = category;
  b.unit_ = unit;
  auto& cur = current_[static_cast<std::size_t>(category)];
  cur += bytes;
  total_ += bytes;
  peak_ = std::max(peak_, total_);
  recorder_.memory(category, unit, bytes, cur, total_);
  return b;
}

void MemoryTracker::release(Buffer& b) {
  const auto bytes = static_cast<std::int64_t>(b.bytes());
  device_.release(b.data_);
  auto& cur = current_[static_cast<std::size_t>(b.category_)];
  cur -= bytes;
  total_ -= bytes;
  recorder_.memory(b.category_, b.unit_, -bytes, cur, total_);
}

} // namespace shardlab
