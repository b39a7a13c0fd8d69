// GPU ranks' communication: the staged transport (Open MPI through pinned host
// memory), the NCCL transport (a communication stream ordered by CUDA events), the
// clock that puts CUDA events on the run's clock, and the compute-op timer.
// docs/gpu.md, "Communication on GPU ranks", explains the event ordering.
#include "comm/CudaTransports.h"

#include "comm/CommStream.h"
#include "cuda/CudaCheck.h"
#include "cuda/Spin.h"
#include "comm/MpiCheck.h"
#include "cuda/NcclCheck.h"
#include "cuda/Nvtx.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <thread>
#include <utility>

namespace shardlab {

std::string nvtxName(Kind kind, int unit, int step, int micro, const std::vector<std::string>& unitNames) {
  std::string name(trace::toString(kind));
  if (unit >= 0) {
    name += ' ';
    name += unit < static_cast<int>(unitNames.size()) ? unitNames[static_cast<std::size_t>(unit)]
                                                      : "unit" + std::to_string(unit);
  }
  if (step >= 0) name += " step " + std::to_string(step);
  if (micro >= 0) name += " micro " + std::to_string(micro);
  return name;
}

// ---------------------------------------------------------------------------------
// events and the clock

CudaEvent::CudaEvent(bool timing) {
  CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
}

CudaEvent::~CudaEvent() {
  if (event_) cudaEventDestroy(event_); // released by CUDA once complete; no throwing here
}

GpuClock::GpuClock(Recorder& recorder, int cudaDevice) : recorder_(recorder), device_(cudaDevice) {
  CUDA_CHECK(cudaSetDevice(device_));
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  std::lock_guard lock(mutex_);
  anchorLocked();
}

GpuClock::~GpuClock() {
  anchors_.clear();
  if (stream_) cudaStreamDestroy(stream_);
}

void GpuClock::anchorLocked() {
  Anchor best;
  for (int i = 0; i < kAnchorTries; ++i) {
    Anchor a;
    a.event = std::make_shared<CudaEvent>(true);
    const std::int64_t before = recorder_.now();
    CUDA_CHECK(cudaEventRecord(a.event->get(), stream_)); // nothing else on this stream: it completes at once
    CUDA_CHECK(cudaEventSynchronize(a.event->get()));
    a.after = recorder_.now();
    a.halfWidth = (a.after - before) / 2;
    a.host = before + a.halfWidth;
    if (!best.event || a.halfWidth < best.halfWidth) best = std::move(a);
  }
  anchors_.push_back(std::move(best));
}

std::int64_t GpuClock::uncertaintyNs() {
  std::lock_guard lock(mutex_);
  return anchors_.back().halfWidth;
}

std::int64_t GpuClock::issueTime() {
  std::lock_guard lock(mutex_);
  constexpr std::int64_t kReanchorNs = 1'000'000'000;
  if (recorder_.now() - anchors_.back().after > kReanchorNs) anchorLocked();
  return recorder_.now();
}

std::int64_t GpuClock::toRun(cudaEvent_t event, std::int64_t issuedAt) {
  std::lock_guard lock(mutex_);
  const Anchor* anchor = &anchors_.front();
  for (auto it = anchors_.rbegin(); it != anchors_.rend(); ++it) {
    if (it->after <= issuedAt) {
      anchor = &*it;
      break;
    }
  }
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, anchor->event->get(), event));
  return anchor->host + std::llround(static_cast<double>(ms) * 1e6);
}

namespace {

// Waits for `event` by polling, so that no wait is unbounded: past `timeout` it
// calls `onTimeout` (which throws).
template <typename Poll, typename OnTimeout>
void pollEvent(cudaEvent_t event, std::chrono::milliseconds timeout, Poll poll, OnTimeout onTimeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const cudaError_t q = cudaEventQuery(event);
    if (q == cudaSuccess) return;
    if (q != cudaErrorNotReady) CUDA_CHECK(q);
    poll();
    if (std::chrono::steady_clock::now() >= deadline) onTimeout();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

// Page-locked host memory that grows and is never freed before the end: cudaFreeHost
// synchronises the device, which on a NCCL rank could wait for a collective whose
// peer is itself waiting for this rank's next MPI message.
class PinnedBuffer {
public:
  PinnedBuffer() = default;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() {
    for (void* p : all_) cudaFreeHost(p);
  }
  float* get(std::size_t floats) {
    if (floats > capacity_) {
      const std::size_t grown = std::max(floats, 2 * capacity_);
      void* p = nullptr;
      CUDA_CHECK(cudaHostAlloc(&p, grown * sizeof(float), cudaHostAllocDefault));
      all_.push_back(p);
      current_ = static_cast<float*>(p);
      capacity_ = grown;
    }
    return current_;
  }

private:
  std::vector<void*> all_;
  float* current_ = nullptr;
  std::size_t capacity_ = 0;
};

// ---------------------------------------------------------------------------------
// staged: device -> pinned host -> MPI -> pinned host -> device

class StagedTransport : public Transport {
public:
  StagedTransport(MPI_Comm comm, Recorder& recorder, CudaDevice& device, GpuTransportOptions options)
      : Transport(comm, recorder), device_(device), options_(std::move(options)) {
    CUDA_CHECK(cudaSetDevice(device_.deviceIndex()));
    CUDA_CHECK(cudaStreamCreateWithFlags(&copyStream_, cudaStreamNonBlocking));
  }
  ~StagedTransport() override {
    cudaStreamSynchronize(copyStream_); // only our copies are on it
    cudaStreamDestroy(copyStream_);
  }

  std::string name() const override { return "Open MPI, staged through pinned host memory"; }
  void startThread() override { CUDA_CHECK(cudaSetDevice(device_.deviceIndex())); }

  Issued issue(const CommOp& op) override {
    // The data is ready when the compute stream reaches this point.
    auto ready = std::make_shared<CudaEvent>(false);
    CUDA_CHECK(cudaEventRecord(ready->get(), compute()));
    return {[this, op, ready] { staged(op, *ready); }, nullptr};
  }

  void recv(float* data, int rows, int cols, int peer, int messageTag, CollectiveTag tag,
            trace::Kind waitKind) override {
    NvtxRange range(nvtxName(trace::Kind::Recv, tag.unit, tag.step, tag.micro, options_.unitNames));
    const auto t0 = probe(peer, messageTag, tag, waitKind);
    const std::size_t n = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    float* host = recvStage_.get(n);
    MPI_CHECK(MPI_Recv(host, rows * cols, MPI_FLOAT, peer, messageTag, comm_, MPI_STATUS_IGNORE));
    CUDA_CHECK(cudaMemcpyAsync(data, host, n * sizeof(float), cudaMemcpyHostToDevice, compute()));
    CUDA_CHECK(cudaStreamSynchronize(compute())); // the pinned buffer is reused by the next recv
    recordRecv(rows, cols, peer, tag, t0, recorder_.now());
  }

protected:
  cudaStream_t compute() const { return device_.computeStream(); }

  // On the communication thread.
  void staged(const CommOp& op, const CudaEvent& ready) {
    NvtxRange range(nvtxName(op.kind, op.tag.unit, op.tag.step, op.tag.micro, options_.unitNames));
    pollEvent(ready.get(), options_.timeout, [] {}, [&] {
      throw std::runtime_error("rank " + std::to_string(rank_) + ": the compute stream did not reach " +
                               nvtxName(op.kind, op.tag.unit, op.tag.step, op.tag.micro, options_.unitNames) +
                               " within " + std::to_string(options_.timeout.count()) + " ms (" + __FILE__ + ":" +
                               std::to_string(__LINE__) + ")");
    });
    const auto t0 = recorder_.now(); // from here on it is communication: copies and MPI
    const int ranks = op.on ? op.on->size : size_;
    const std::size_t nSend = op.sendCount(ranks), nRecv = op.recvCount(ranks);
    std::int64_t wireBytes = -1;
    if (op.kind == trace::Kind::AllReduce) { // in place
      float* host = stage_.get(nRecv);
      copy(host, op.recv, nRecv, cudaMemcpyDeviceToHost);
      wireBytes = runMpi(op, host, host);
      copy(op.recv, host, nRecv, cudaMemcpyHostToDevice);
    } else {
      float* host = stage_.get(nSend + nRecv);
      copy(host, op.send, nSend, cudaMemcpyDeviceToHost);
      wireBytes = runMpi(op, host, host + nSend);
      if (nRecv > 0) copy(op.recv, host + nSend, nRecv, cudaMemcpyHostToDevice);
    }
    record(op, t0, recorder_.now(), wireBytes);
  }

  void copy(void* dst, const void* src, std::size_t floats, cudaMemcpyKind kind) {
    if (floats == 0) return;
    CUDA_CHECK(cudaMemcpyAsync(dst, src, floats * sizeof(float), kind, copyStream_));
    CUDA_CHECK(cudaStreamSynchronize(copyStream_));
  }

  CudaDevice& device_;
  GpuTransportOptions options_;
  cudaStream_t copyStream_ = nullptr;
  PinnedBuffer stage_;     // the communication thread's
  PinnedBuffer recvStage_; // the calling thread's (recv)
};

// ---------------------------------------------------------------------------------
// NCCL on a communication stream

class NcclTransport final : public StagedTransport {
public:
  NcclTransport(MPI_Comm comm, Recorder& recorder, CudaDevice& device, nccl::Comm ncclComm,
                std::shared_ptr<GpuClock> clock, GpuTransportOptions options)
      : StagedTransport(comm, recorder, device, std::move(options)), nccl_(std::move(ncclComm)),
        clock_(std::move(clock)) {
    if (!nccl_.valid()) throw std::invalid_argument("NcclTransport: no NCCL communicator");
    if (nccl_.size() != size_ || nccl_.rank() != rank_)
      throw std::invalid_argument("NcclTransport: the NCCL communicator is not over the MPI communicator's ranks");
    CUDA_CHECK(cudaStreamCreateWithFlags(&commStream_, cudaStreamNonBlocking));
  }
  ~NcclTransport() override {
    // Wait (bounded) for what is still on the stream; past the timeout, abort.
    const auto deadline = std::chrono::steady_clock::now() + options_.timeout;
    while (cudaStreamQuery(commStream_) == cudaErrorNotReady && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    if (cudaStreamQuery(commStream_) == cudaErrorNotReady) {
      std::lock_guard lock(ncclMutex_);
      nccl_.abort();
      for (auto& [mpi, group] : groups_) group.abort();
    }
    cudaStreamDestroy(commStream_);
  }

  std::string name() const override {
    // A trace made under the test hook says so: its collectives started late on purpose.
    if (options_.commDelay.count() > 0)
      return "NCCL (test hook SHARDLAB_TEST_COMM_DELAY_US: each collective starts " +
             std::to_string(options_.commDelay.count()) + " us late)";
    return "NCCL";
  }

  Issued issue(const CommOp& op) override {
    if (op.kind == trace::Kind::Send) return StagedTransport::issue(op); // point-to-point: staged (docs/gpu.md)
    auto ev = std::make_shared<OpEvents>();
    NvtxRange range(nvtxName(op.kind, op.tag.unit, op.tag.step, op.tag.micro, options_.unitNames));
    {
      std::lock_guard lock(ncclMutex_);
      nccl::Comm& nccl = communicatorFor(op.on);
      ev->comm = &nccl;
      if (!nccl.valid()) throw std::runtime_error("rank " + std::to_string(rank_) + ": the NCCL communicator was aborted");
      ev->issuedAt = clock_->issueTime();
      // Order: the communication stream starts the collective only once the compute
      // stream has produced its input (the "ready" event).
      CUDA_CHECK(cudaEventRecord(ev->ready.get(), compute()));
      CUDA_CHECK(cudaStreamWaitEvent(commStream_, ev->ready.get(), 0));
      // The test hook: the collective starts this much later than it could. Before
      // "start", so the trace keeps the collective's own duration.
      if (options_.commDelay.count() > 0)
        cuda::spin(1000ull * static_cast<unsigned long long>(options_.commDelay.count()), commStream_);
      CUDA_CHECK(cudaEventRecord(ev->start.get(), commStream_));
      switch (op.kind) {
      case trace::Kind::AllGather:
        ev->call = "ncclAllGather";
        ev->line = __LINE__ + 1;
        nccl.allGather(op.send, op.recv, op.count, commStream_);
        break;
      case trace::Kind::ReduceScatter:
        ev->call = "ncclReduceScatter";
        ev->line = __LINE__ + 1;
        nccl.reduceScatter(op.send, op.recv, op.count, commStream_);
        break;
      case trace::Kind::AllReduce: // in place
        ev->call = "ncclAllReduce";
        ev->line = __LINE__ + 1;
        nccl.allReduce(op.recv, op.recv, op.count, commStream_);
        break;
      default:
        throw std::logic_error("NcclTransport: not a collective");
      }
      CUDA_CHECK(cudaEventRecord(ev->end.get(), commStream_));
    }

    Issued issued;
    // The communication thread: wait (bounded) for the end event, then record the
    // collective with its GPU start and end on the run's clock.
    issued.work = [this, op, ev] {
      waitForEnd(op, *ev);
      record(op, clock_->toRun(ev->start.get(), ev->issuedAt), clock_->toRun(ev->end.get(), ev->issuedAt));
    };
    // wait(ticket): the compute stream waits for the end event; the host goes on. The
    // stall, if any, is [the compute stream reaching the wait, the end event].
    issued.deviceWait = [this, ev](int step, int micro) -> std::function<void()> {
      auto reached = std::make_shared<CudaEvent>(true);
      const auto at = clock_->issueTime();
      CUDA_CHECK(cudaEventRecord(reached->get(), compute()));
      CUDA_CHECK(cudaStreamWaitEvent(compute(), ev->end.get(), 0));
      return [this, ev, reached, at, step, micro] {
        // Everything the compute stream waits for before `reached` was issued (and
        // is handled by this thread) earlier, so this completes; bounded anyway.
        pollEvent(reached->get(), options_.timeout, [] {}, [&] {
          throw std::runtime_error("rank " + std::to_string(rank_) + ": the compute stream did not reach a wait within " +
                                   std::to_string(options_.timeout.count()) + " ms (" + __FILE__ + ":" +
                                   std::to_string(__LINE__) + ")");
        });
        const auto t0 = clock_->toRun(reached->get(), at);
        const auto t1 = clock_->toRun(ev->end.get(), ev->issuedAt);
        if (t1 > t0) recorder_.idle(Kind::WaitCollective, step, micro, t0, t1);
      };
    };
    return issued;
  }

private:
  struct OpEvents {
    CudaEvent ready{false}, start{true}, end{true};
    std::int64_t issuedAt = 0;
    const char* call = "";
    int line = 0;
    nccl::Comm* comm = nullptr; // the communicator it runs on: the job's or a group's
  };

  // The NCCL communicator of `on`: the job's, or one per sub-communicator (a mesh
  // dimension, FSDP's hybrid groups), made from it at its first collective with
  // nccl::Comm::fromMpi, collective over its ranks: each of them issues its first
  // collective on it in the same order (CommStream keeps issue order). Called under
  // ncclMutex_.
  nccl::Comm& communicatorFor(const Communicator* on) {
    if (!on || on->group == trace::CommGroup::World) return nccl_;
    auto group = groups_.find(on->comm);
    if (group == groups_.end())
      group = groups_.emplace(on->comm, nccl::Comm::fromMpi(on->comm, device_.deviceIndex())).first;
    return group->second;
  }

  void waitForEnd(const CommOp& op, const OpEvents& ev) {
    const auto what = [&] {
      return std::string(ev.call) + " (" + nvtxName(op.kind, op.tag.unit, op.tag.step, op.tag.micro, options_.unitNames) +
             ") on rank " + std::to_string(rank_) + " of " + std::to_string(size_) + ", issued at " + __FILE__ + ":" +
             std::to_string(ev.line);
    };
    pollEvent(
        ev.end.get(), options_.timeout,
        [&] {
          std::lock_guard lock(ncclMutex_);
          if (!ev.comm->valid()) throw std::runtime_error(what() + ": the NCCL communicator was aborted");
          ncclResult_t async = ncclSuccess;
          NCCL_CHECK(ncclCommGetAsyncError(ev.comm->get(), &async));
          if (async != ncclSuccess && async != ncclInProgress) {
            const std::string reason = ncclGetErrorString(async);
            ev.comm->abort();
            throw std::runtime_error("NCCL asynchronous error in " + what() + ": " + reason +
                                     " (communicator aborted)");
          }
        },
        [&] {
          {
            std::lock_guard lock(ncclMutex_);
            ev.comm->abort(); // the NCCL kernels exit, so nothing waits on them forever
          }
          throw nccl::TimeoutError(what() + " did not finish within " + std::to_string(options_.timeout.count()) +
                                   " ms (a peer failed or never joined); communicator aborted");
        });
  }

  nccl::Comm nccl_;
  std::map<MPI_Comm, nccl::Comm> groups_; // sub-communicators' (communicatorFor): stable addresses
  std::shared_ptr<GpuClock> clock_;
  cudaStream_t commStream_ = nullptr;
  std::mutex ncclMutex_; // launches (compute thread) against abort and error polls (communication thread)
};

} // namespace

std::unique_ptr<Transport> makeStagedTransport(MPI_Comm comm, Recorder& recorder, CudaDevice& device,
                                               GpuTransportOptions options) {
  return std::make_unique<StagedTransport>(comm, recorder, device, std::move(options));
}

std::unique_ptr<Transport> makeNcclTransport(MPI_Comm comm, Recorder& recorder, CudaDevice& device,
                                             nccl::Comm ncclComm, std::shared_ptr<GpuClock> clock,
                                             GpuTransportOptions options) {
  return std::make_unique<NcclTransport>(comm, recorder, device, std::move(ncclComm), std::move(clock),
                                         std::move(options));
}

// ---------------------------------------------------------------------------------
// compute ops

CudaOpTimer::CudaOpTimer(Recorder& recorder, CudaDevice& device, std::shared_ptr<GpuClock> clock,
                         std::vector<std::string> unitNames)
    : recorder_(recorder), device_(device), clock_(std::move(clock)), units_(std::move(unitNames)) {}

CudaOpTimer::~CudaOpTimer() {
  try {
    device_.synchronize();
    drain();
  } catch (...) { // no throwing from a destructor: unrecorded spans are dropped
  }
}

void CudaOpTimer::begin(Kind kind, int unit, int step, int micro, bool recompute) {
  nvtxPush((recompute ? "recompute " : "") + nvtxName(kind, unit, step, micro, units_));
  Span s{kind, unit, step, micro, recompute, clock_->issueTime(), std::make_unique<CudaEvent>(true), nullptr};
  CUDA_CHECK(cudaEventRecord(s.start->get(), device_.computeStream()));
  open_.push_back(std::move(s));
}

void CudaOpTimer::end(Kind kind, int unit, int step, int micro) {
  nvtxPop();
  if (open_.empty()) throw std::logic_error("CudaOpTimer: end without begin");
  Span s = std::move(open_.back());
  open_.pop_back();
  if (s.kind != kind || s.unit != unit || s.step != step || s.micro != micro)
    throw std::logic_error("CudaOpTimer: ops must nest");
  s.end = std::make_unique<CudaEvent>(true);
  CUDA_CHECK(cudaEventRecord(s.end->get(), device_.computeStream()));
  closed_.push_back(std::move(s));
  recordReady(false);
}

void CudaOpTimer::drain() { recordReady(true); }

void CudaOpTimer::recordReady(bool all) {
  while (!closed_.empty()) {
    Span& s = closed_.front();
    if (all) {
      CUDA_CHECK(cudaEventSynchronize(s.end->get()));
    } else {
      const cudaError_t q = cudaEventQuery(s.end->get());
      if (q == cudaErrorNotReady) return;
      CUDA_CHECK(q);
    }
    // The op's interval is its device time: the CUDA events around it.
    const auto t0 = clock_->toRun(s.start->get(), s.issuedAt), t1 = clock_->toRun(s.end->get(), s.issuedAt);
    recorder_.op(s.kind, s.unit, s.step, s.micro, t0, t1, t1 - t0, s.recompute);
    closed_.pop_front();
  }
}

} // namespace shardlab
