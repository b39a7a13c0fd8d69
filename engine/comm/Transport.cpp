// The Transport base (the MPI call of each operation, and how it is recorded) and
// the Open MPI transport on host buffers.
#include "comm/Transport.h"

#include "comm/CommStream.h"
#include "comm/MpiCheck.h"

#include <sys/prctl.h>

#include <chrono>
#include <thread>

namespace shardlab {

namespace {

// A blocking MPI call polls its progress engine on the core it runs on until the
// operation completes. On CPU ranks every rank has two threads (compute and this
// communication stream), so a thread waiting for a peer would take a core from a thread
// that computes: FSDP's prefetched all-gather slowed the very GEMM it was meant to hide
// behind, and a pipeline stage waiting for its activation slowed the stage that was
// producing it (docs/performance.md, "Waiting without holding a core"). So waits poll:
// back to back for the first kSpin (a message that is nearly there costs no more than
// with a blocking call), then with a short nap between polls, which hands the core to
// whoever can use it. A GPU's NCCL kernels wait on the device and are unaffected.
constexpr auto kSpin = std::chrono::microseconds(50);
constexpr auto kNap = std::chrono::microseconds(20);

void napBriefly() {
  // The kernel's default timer slack (50 µs) would make each nap 70 µs.
  thread_local const bool slackSet = ::prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0) == 0;
  (void)slackSet;
  std::this_thread::sleep_for(kNap);
}

// Polls until `ready()` is true (it makes MPI progress: MPI_Test, MPI_Iprobe).
template <typename Ready> void waitWithoutHoldingACore(Ready ready) {
  const auto spinUntil = std::chrono::steady_clock::now() + kSpin;
  while (!ready())
    if (std::chrono::steady_clock::now() >= spinUntil) napBriefly();
}

void complete(MPI_Request& request) {
  waitWithoutHoldingACore([&] {
    int done = 0;
    MPI_CHECK(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
    return done != 0;
  });
}

} // namespace

std::size_t CommOp::sendCount(int ranks) const {
  switch (kind) {
  case trace::Kind::ReduceScatter: return count * static_cast<std::size_t>(ranks);
  default: return count;
  }
}

std::size_t CommOp::recvCount(int ranks) const {
  switch (kind) {
  case trace::Kind::AllGather: return count * static_cast<std::size_t>(ranks);
  case trace::Kind::Send: return 0;
  default: return count;
  }
}

Transport::Transport(MPI_Comm comm, Recorder& recorder) : comm_(comm), recorder_(recorder) {
  MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
  MPI_CHECK(MPI_Comm_size(comm_, &size_));
  participants_ = worldMaskOf(comm_);
}

void Transport::runMpi(const CommOp& op, const float* send, float* recv) const {
  const int n = static_cast<int>(op.count);
  MPI_Request request = MPI_REQUEST_NULL;
  switch (op.kind) {
  case trace::Kind::AllGather:
    MPI_CHECK(MPI_Iallgather(send, n, MPI_FLOAT, recv, n, MPI_FLOAT, comm_, &request));
    break;
  case trace::Kind::ReduceScatter:
    MPI_CHECK(MPI_Ireduce_scatter_block(send, recv, n, MPI_FLOAT, MPI_SUM, comm_, &request));
    break;
  case trace::Kind::AllReduce:
    MPI_CHECK(MPI_Iallreduce(MPI_IN_PLACE, recv, n, MPI_FLOAT, MPI_SUM, comm_, &request));
    break;
  case trace::Kind::Send:
    MPI_CHECK(MPI_Isend(send, n, MPI_FLOAT, op.peer, op.messageTag, comm_, &request));
    break;
  default:
    throw std::logic_error("Transport: not a communication kind");
  }
  complete(request);
}

void Transport::record(const CommOp& op, std::int64_t t0, std::int64_t t1) const {
  const auto floatBytes = static_cast<std::int64_t>(sizeof(float));
  const auto& t = op.tag;
  switch (op.kind) {
  case trace::Kind::AllGather:
  case trace::Kind::ReduceScatter:
    recorder_.collective(op.kind, t.unit, t.step, t.micro, t0, t1,
                         static_cast<std::int64_t>(op.count) * floatBytes * size_, participants_);
    break;
  case trace::Kind::AllReduce:
    recorder_.collective(op.kind, t.unit, t.step, t.micro, t0, t1, static_cast<std::int64_t>(op.count) * floatBytes,
                         participants_);
    break;
  default: // Send
    recorder_.collective(trace::Kind::Send, t.unit, t.step, t.micro, t0, t1,
                         static_cast<std::int64_t>(op.rows) * op.cols * floatBytes,
                         (trace::RankMask{1} << recorder_.rank()) | (trace::RankMask{1} << op.peer), op.peer, op.rows,
                         op.cols);
    break;
  }
}

std::int64_t Transport::probe(int peer, int messageTag, CollectiveTag tag, trace::Kind waitKind) const {
  const auto tWait = recorder_.now();
  waitWithoutHoldingACore([&] {
    int arrived = 0;
    MPI_CHECK(MPI_Iprobe(peer, messageTag, comm_, &arrived, MPI_STATUS_IGNORE));
    return arrived != 0;
  });
  const auto t0 = recorder_.now();
  if (t0 > tWait) recorder_.idle(waitKind, tag.step, tag.micro, tWait, t0);
  return t0;
}

void Transport::recordRecv(int rows, int cols, int peer, CollectiveTag tag, std::int64_t t0, std::int64_t t1) const {
  recorder_.collective(trace::Kind::Recv, tag.unit, tag.step, tag.micro, t0, t1,
                       static_cast<std::int64_t>(rows) * cols * static_cast<std::int64_t>(sizeof(float)),
                       (trace::RankMask{1} << recorder_.rank()) | (trace::RankMask{1} << peer), peer, rows, cols);
}

namespace {

// Host buffers: the MPI call runs on the communication thread, on the strategy's own
// pointers, and is recorded with its real start and end.
class MpiTransport final : public Transport {
public:
  using Transport::Transport;
  std::string name() const override { return "Open MPI"; }

  Issued issue(const CommOp& op) override {
    return {[this, op] {
              const auto t0 = recorder_.now();
              runMpi(op, op.kind == trace::Kind::AllReduce ? op.recv : op.send, op.recv);
              record(op, t0, recorder_.now());
            },
            nullptr};
  }

  void recv(float* data, int rows, int cols, int peer, int messageTag, CollectiveTag tag,
            trace::Kind waitKind) override {
    const auto t0 = probe(peer, messageTag, tag, waitKind);
    MPI_CHECK(MPI_Recv(data, rows * cols, MPI_FLOAT, peer, messageTag, comm_, MPI_STATUS_IGNORE));
    recordRecv(rows, cols, peer, tag, t0, recorder_.now());
  }
};

} // namespace

std::unique_ptr<Transport> makeMpiTransport(MPI_Comm comm, Recorder& recorder) {
  return std::make_unique<MpiTransport>(comm, recorder);
}

} // namespace shardlab
