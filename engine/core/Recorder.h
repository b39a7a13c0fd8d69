// Records this rank's events into its trace file. Thread-safe: the compute thread
// and the communication thread both record. When tracing is off (the overhead
// benchmark) nothing is formatted or written.
#pragma once

#include "core/Clock.h"
#include "trace/Event.h"
#include "trace/TraceWriter.h"

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace shardlab {

using trace::Category;
using trace::Kind;

// Optional: how a rank's compute ops are timed and marked. Without one, ScopedOp
// times the op on the host clock (a CPU rank computes while the host waits). A GPU
// rank only enqueues work, so its timer (engine/comm/CudaTransports.h) records CUDA
// events around the op on the compute stream, pushes an NVTX range with the trace's
// name, and records the op later, when its events are complete, converted onto the
// run's clock. Kept abstract so engine/core needs no CUDA header.
class OpTimer {
public:
  virtual ~OpTimer() = default;
  // recompute: a forward run again inside the backward (activation checkpointing).
  virtual void begin(Kind kind, int unit, int step, int micro, bool recompute) = 0;
  virtual void end(Kind kind, int unit, int step, int micro) = 0;
  // Records every op whose events are complete (after a device synchronize: all).
  virtual void drain() = 0;
};

class Recorder {
public:
  // `out` may be null: tracing off.
  Recorder(std::FILE* out, int rank, std::vector<std::string> unitNames);

  int rank() const { return rank_; }
  bool enabled() const { return writer_ != nullptr; }
  RunClock& clock() { return clock_; }
  std::int64_t now() const { return clock_.now(); }
  // Not owned; null (the default): host timing. Set before the first op.
  void setOpTimer(OpTimer* timer) { opTimer_ = timer; }
  OpTimer* opTimer() const { return opTimer_; }
  // A straggler (JobConfig::straggler): from `fromStep` on, each host-timed op of this
  // rank computes `factor` times as long as it measured (ScopedOp keeps the core busy
  // for the rest). Set before the first op.
  void setSlowdown(double factor, int fromStep) {
    slowFactor_ = factor;
    slowFromStep_ = fromStep;
  }
  double slowdown(int step) const { return step >= slowFromStep_ ? slowFactor_ : 1.0; }

  void header(const nlohmann::json& rankMeta);
  // cpuNs: the thread CPU time inside the op (GPU ranks: its device time); recompute:
  // a forward run again inside the backward (activation checkpointing).
  void op(Kind kind, int unit, int step, int micro, std::int64_t t0, std::int64_t t1, std::int64_t cpuNs,
          bool recompute = false);
  void collective(Kind kind, int unit, int step, int micro, std::int64_t t0, std::int64_t t1, std::int64_t bytes,
                  trace::RankMask participants, int peer = -1, int rows = 0, int cols = 0,
                  std::int64_t wireBytes = -1, // measured by Open MPI's monitoring; -1: not measured
                  trace::CommGroup group = trace::CommGroup::World);
  void memory(Category c, int unit, std::int64_t delta, std::int64_t categoryNow, std::int64_t totalNow);
  void deviceMemory(std::int64_t freeBytes, std::int64_t totalBytes);
  void idle(Kind why, int step, int micro, std::int64_t t0, std::int64_t t1);
  void stepEnd(int step, double lossSum, std::int64_t tokens);
  void outOfMemory(Category c, int unit, std::int64_t needed, std::int64_t budget, std::int64_t holding);
  void failure(const std::string& message);
  // One entry of the flight recorder (engine/comm/FlightRecorder.h), dumped at `t`.
  void flight(std::int64_t t, const trace::Event& call);
  void end();
  void flush();
  // The errno of the first write of this rank's trace that failed; 0: none.
  int writeError() const { return writer_ ? writer_->error() : 0; }

private:
  trace::Event event(trace::Record record, std::int64_t t0, std::int64_t t1) const;
  void write(const trace::Event& e, std::string_view text = {});
  std::mutex mutex_;
  bool stopped_ = false; // after an out-of-memory: record nothing more
  std::unique_ptr<trace::TraceWriter> writer_;
  int rank_;
  RunClock clock_;
  OpTimer* opTimer_ = nullptr;
  double slowFactor_ = 1.0;
  int slowFromStep_ = 0;
};

// Times a compute op from construction to destruction (through the recorder's
// OpTimer when it has one). An op is time the rank computed: a blocking wait inside
// it goes through around(), which ends the op before the wait and starts it again
// after, so the wait is recorded on its own (idle wait_collective) and not as compute.
class ScopedOp {
public:
  ScopedOp(Recorder& r, Kind kind, int unit, int step, int micro = -1, bool recompute = false)
      : r_(r), kind_(kind), unit_(unit), step_(step), micro_(micro), recompute_(recompute) {
    start();
  }
  ~ScopedOp() {
    try {
      finish();
    } catch (...) { // a destructor must not throw; a CUDA error is sticky and the next checked call reports it
    }
  }
  ScopedOp(const ScopedOp&) = delete;
  ScopedOp& operator=(const ScopedOp&) = delete;

  // Runs `wait` (a call that blocks until communication is done) between two parts of the op.
  template <typename Wait>
  void around(Wait&& wait) {
    finish();
    wait();
    start();
  }

private:
  void start() {
    t0_ = r_.now();
    cpu0_ = threadCpuNs();
    if (OpTimer* t = r_.opTimer()) t->begin(kind_, unit_, step_, micro_, recompute_);
  }
  void finish() {
    if (OpTimer* t = r_.opTimer()) {
      t->end(kind_, unit_, step_, micro_);
      return;
    }
    std::int64_t t1 = r_.now();
    if (const double f = r_.slowdown(step_); f > 1.0) {
      // A straggler: the op goes on computing (spinning on the clock) until it has
      // taken f times its measured time, so its CPU time grows with it.
      const auto until = t0_ + static_cast<std::int64_t>(static_cast<double>(t1 - t0_) * f);
      while ((t1 = r_.now()) < until) {
      }
    }
    r_.op(kind_, unit_, step_, micro_, t0_, t1, threadCpuNs() - cpu0_, recompute_);
  }

  Recorder& r_;
  Kind kind_;
  int unit_, step_, micro_;
  bool recompute_;
  std::int64_t t0_ = 0, cpu0_ = 0;
};

} // namespace shardlab
