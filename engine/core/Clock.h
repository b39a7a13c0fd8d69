// The run's common clock. Every rank stamps events with monotonic nanoseconds minus
// the job's epoch (broadcast by rank 0) plus this rank's estimated offset to rank 0,
// so events from all ranks share one time axis (docs/trace-format.md, "Time").
#pragma once

#include <chrono>
#include <cstdint>
#include <ctime>

namespace shardlab {

inline std::int64_t monotonicNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// CPU time this thread has run, user and system. Its difference over an op against
// the op's wall time is the time the thread was ready but off the core.
inline std::int64_t threadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

class RunClock {
public:
  void set(std::int64_t epochNs, std::int64_t offsetNs) {
    epoch_ = epochNs;
    offset_ = offsetNs;
  }
  std::int64_t now() const { return monotonicNs() + offset_ - epoch_; }
  std::int64_t offset() const { return offset_; }

private:
  std::int64_t epoch_ = monotonicNs();
  std::int64_t offset_ = 0;
};

} // namespace shardlab
