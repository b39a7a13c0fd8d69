// The GPU ranks' transports and timing (docs/gpu.md, "Communication on GPU ranks").
// Built only with the CUDA backend (library shardlab_comm_cuda).
//
//   GpuClock            CUDA event -> the run's host clock
//   makeStagedTransport Open MPI through pinned host buffers ("cuda+mpi-staged"),
//                       also the point-to-point half of the NCCL transport
//   makeNcclTransport   NCCL collectives on a communication stream ("cuda")
//   CudaOpTimer         compute ops timed with CUDA events, marked with NVTX
#pragma once

#include "cuda/CudaDevice.h"
#include "cuda/NcclComm.h"
#include "core/Recorder.h"
#include "comm/Transport.h"
#include "job/EnvSettings.h"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace shardlab {

// An owned cudaEvent_t (created with timing unless told otherwise).
class CudaEvent {
public:
  explicit CudaEvent(bool timing = true);
  ~CudaEvent();
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  cudaEvent_t get() const { return event_; }

private:
  cudaEvent_t event_ = nullptr;
};

// Puts GPU timestamps on the run's clock. An anchor is a timing event recorded on a
// stream of its own (nothing queued before it) and waited for with
// cudaEventSynchronize; its host time is the midpoint of the host clock read just
// before cudaEventRecord and just after cudaEventSynchronize returned (error: half
// that window). Each anchor is the narrowest of kAnchorTries such windows: with
// ranks time-slicing one GPU a single window can be tens of microseconds, longer
// than the ops it times; the narrowest half-width is kept as
// the anchor's uncertainty. Then an event's run time is
//   anchor host time + cudaEventElapsedTime(anchor, event).
// A new anchor is taken when the last is over a second old (so float milliseconds
// and the drift between the GPU timer and the host clock stay small); an event is
// converted with the newest anchor taken before the event was issued, so the elapsed
// time is never negative.
class GpuClock {
public:
  GpuClock(Recorder& recorder, int cudaDevice);
  ~GpuClock();
  GpuClock(const GpuClock&) = delete;
  GpuClock& operator=(const GpuClock&) = delete;

  // Call when an event is about to be recorded: the host time to pass to toRun.
  std::int64_t issueTime();
  // The run-clock time of a completed timing event recorded after `issuedAt`.
  std::int64_t toRun(cudaEvent_t event, std::int64_t issuedAt);
  // The newest anchor's uncertainty (half its host window), in ns.
  std::int64_t uncertaintyNs();

  static constexpr int kAnchorTries = 5;

private:
  struct Anchor {
    std::shared_ptr<CudaEvent> event;
    std::int64_t host = 0;  // run clock, midpoint
    std::int64_t after = 0; // run clock when cudaEventSynchronize returned
    std::int64_t halfWidth = 0;
  };
  void anchorLocked();

  Recorder& recorder_;
  int device_;
  cudaStream_t stream_ = nullptr;
  std::mutex mutex_;
  std::vector<Anchor> anchors_;
};

struct GpuTransportOptions {
  // A GPU-side wait longer than this aborts: Tuning::gpuTimeout (SHARDLAB_GPU_TIMEOUT_S,
  // e.g. 30 s in scripts/gpu-check.sh, whose job limit must be longer; else 120 s).
  std::chrono::milliseconds timeout = Tuning::kDefaultGpuTimeout;
  // A test hook, TestHooks::commDelay (SHARDLAB_TEST_COMM_DELAY_US); 0: none. With it the
  // NCCL transport keeps its communication stream busy that long (a spin kernel) after
  // the stream's wait for "ready" and before each collective, so compute-stream work
  // that does not wait for the collective's end runs before the collective has written
  // its output, every time, and fails a test instead of passing by luck (docs/gpu.md,
  // "Races that fail every time").
  std::chrono::microseconds commDelay{0};
  std::vector<std::string> unitNames;                           // for the NVTX range names
};

// Open MPI through pinned host buffers, for device pointers: device -> host copy,
// the MPI call, host -> device copy, on the communication thread (the copies on a
// copy stream that first waits for the compute stream's "ready" event). Recorded
// with its full duration, copies included. Needs a CudaDevice.
std::unique_ptr<Transport> makeStagedTransport(MPI_Comm comm, Recorder& recorder, CudaDevice& device,
                                               GpuTransportOptions options = {});

// NCCL collectives on a dedicated communication stream, point-to-point staged as
// above. `ncclComm` is over the same ranks as `comm` (Comm::fromMpi(comm, gpu)).
std::unique_ptr<Transport> makeNcclTransport(MPI_Comm comm, Recorder& recorder, CudaDevice& device,
                                             nccl::Comm ncclComm, std::shared_ptr<GpuClock> clock,
                                             GpuTransportOptions options = {});

// Compute ops timed with CUDA events on the compute stream; recorded when complete.
class CudaOpTimer final : public OpTimer {
public:
  CudaOpTimer(Recorder& recorder, CudaDevice& device, std::shared_ptr<GpuClock> clock,
              std::vector<std::string> unitNames);
  ~CudaOpTimer() override;
  void begin(Kind kind, int unit, int step, int micro, bool recompute) override;
  void end(Kind kind, int unit, int step, int micro) override;
  void drain() override; // records the complete ones; call after a synchronize to record all

private:
  struct Span {
    Kind kind;
    int unit, step, micro;
    bool recompute;
    std::int64_t issuedAt;
    std::unique_ptr<CudaEvent> start, end;
  };
  void recordReady(bool all);

  Recorder& recorder_;
  CudaDevice& device_;
  std::shared_ptr<GpuClock> clock_;
  std::vector<std::string> units_;
  std::vector<Span> open_;  // begun, not ended (ops nest: a stack)
  std::deque<Span> closed_; // ended, waiting for their events
};

// "all_gather block2 step 3 micro 1": the NVTX name of a trace event.
std::string nvtxName(Kind kind, int unit, int step, int micro, const std::vector<std::string>& unitNames);

} // namespace shardlab
