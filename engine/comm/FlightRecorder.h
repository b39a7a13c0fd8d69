// The hang watchdog and its flight recorder, in the manner of PyTorch's NCCL flight
// recorder (TORCH_NCCL_TRACE_BUFFER_SIZE): the rank keeps its last kEntries
// communication calls (kind, unit, step, bytes, communicator, sequence number, start,
// end) in a ring; a monitor thread looks, a few times per timeout, at the start time
// of the call in flight on each lane (the communication thread's collective or send,
// the compute thread's receive). When one has run longer than the job's
// collective_timeout, it writes the ring into the trace as `flight` records
// (docs/trace-format.md), then calls the hang handler, which stops the job.
//
// The hot path is a mutex without contention and two atomic stores per call: no
// system call, no allocation.
#pragma once

#include "core/Recorder.h"
#include "trace/Event.h"

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

namespace shardlab {

class FlightRecorder {
public:
  static constexpr std::size_t kEntries = 32;
  enum class Lane { Communication, Compute };

  // `onHang` runs on the monitor thread with the stuck call (its fields as `begin` got
  // them, `seq` and `value`, its start, set), after the dump; it is expected not to
  // return (the worker aborts the job).
  using HangHandler = std::function<void(const trace::Event& stuck)>;
  FlightRecorder(Recorder& recorder, double timeoutSeconds, HangHandler onHang);
  ~FlightRecorder();
  FlightRecorder(const FlightRecorder&) = delete;
  FlightRecorder& operator=(const FlightRecorder&) = delete;

  // A call starts on `lane`: `call` carries kind, unit, step, micro, bytes,
  // participants, peer and group (a coll record's fields). Returns its id for end().
  std::uint64_t begin(Lane lane, trace::Event call);
  void end(Lane lane, std::uint64_t id);

  // Writes the ring, oldest first, as flight records, and flushes the trace.
  void dump();

  double timeoutSeconds() const { return static_cast<double>(timeoutNs_) * 1e-9; }

private:
  struct Entry {
    std::uint64_t id = 0; // 0: empty
    trace::Event call;    // value: start; total: end, -1 while in flight
  };
  void monitor();

  Recorder& recorder_;
  std::int64_t timeoutNs_;
  HangHandler onHang_;
  std::mutex mutex_;
  std::array<Entry, kEntries> ring_{};
  std::uint64_t nextId_ = 1;
  std::array<std::int64_t, trace::kCommGroupCount> groupSeq_{}; // collectives per communicator
  std::map<std::pair<int, int>, std::int64_t> peerSeq_;   // (kind, peer): sends and receives
  static constexpr std::int64_t kIdle = INT64_MIN;
  std::array<std::atomic<std::int64_t>, 2> inFlightStart_{};
  std::array<std::atomic<std::uint64_t>, 2> inFlightId_{};
  std::mutex stopMutex_;
  std::condition_variable stopCv_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace shardlab
