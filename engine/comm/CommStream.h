// The communication stream: a thread that runs this rank's collectives one after
// another, in the order they were issued, while the compute thread goes on. It is
// what a CUDA communication stream is to NCCL, for Open MPI on CPU ranks: FSDP's
// prefetch and DDP's overlapped all-reduce are real because the MPI call runs here,
// concurrently with the compute thread's GEMMs. Each call is recorded with its own
// start and end, so the overlap is visible in the trace.
//
// How an operation moves bytes is the Transport's (Transport.h): Open MPI on host
// buffers by default; on GPU ranks MPI staged through pinned host memory, or NCCL on
// a CUDA communication stream (CudaTransports.h). The strategies see the same API.
#pragma once

#include "trace/Event.h"
#include "core/Recorder.h"
#include "comm/Transport.h"
#include "comm/FlightRecorder.h"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace shardlab {

// The hand-off: how long a thread that waits for the other side of the stream polls
// before it sleeps on its condition variable. The compute thread polls in wait() for
// its ticket; the communication thread polls for the next operation after its queue
// ran empty. Both sleep past the bound, so an idle stream costs no CPU beyond it. A
// polling thread yields its core at each try (sched_yield): a poll that holds the core
// kept the very thread it waits for off it (measured: docs/performance.md, "The
// communication stream's hand-off").
struct HandOffSpin {
  std::chrono::nanoseconds bound{0}; // zero: sleep at once (a wake-up costs each side a few µs)
  bool operator==(const HandOffSpin&) const = default;
};

// The bound for a node with `ranksOnNode` ranks (each a compute and a communication
// thread) on `cores` cores: 50 µs when every thread has a core of its own, else zero.
HandOffSpin handOffSpinFor(int ranksOnNode, int cores);
// handOffSpinFor this node: collective over `comm` (MPI_Comm_split_type shared: the
// ranks on this host), cores from this process's CPU affinity.
// `given` (Tuning::commSpin: SHARDLAB_COMM_SPIN_US, read by the launcher and passed as
// the worker's --comm-spin-us), where set, is the bound instead (for measuring).
HandOffSpin handOffSpinOnThisNode(MPI_Comm comm, std::optional<std::chrono::microseconds> given = std::nullopt);

class CommStream {
public:
  struct Pending;
  using Ticket = std::shared_ptr<Pending>;

  // `transport` null: Open MPI on host buffers (makeMpiTransport). `spin`: how long each
  // side of a hand-off polls before it sleeps (default: sleep at once).
  CommStream(MPI_Comm comm, Recorder& recorder, std::unique_ptr<Transport> transport = nullptr,
             HandOffSpin spin = {});
  ~CommStream();
  CommStream(const CommStream&) = delete;
  CommStream& operator=(const CommStream&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  MPI_Comm comm() const { return comm_; }
  trace::RankMask participants() const { return participants_; }
  const Transport& transport() const { return *transport_; }
  // The hang watchdog (FlightRecorder.h): every call from now on is entered in its ring
  // while it runs. Not owned; null (the default): no watchdog. Set before the first call.
  void setFlightRecorder(FlightRecorder* flight) { flight_ = flight; }

  // The job's communicator (all ranks): what a collective runs on when `on` is null.
  const Communicator& world() const { return transport_->world(); }
  // A sub-communicator of the job's (MPI_Comm_split: the ranks with the same `color`,
  // ordered by world rank), recorded in the trace as `group`. Collective over all
  // ranks; call it while no operation is in flight (setup). Freed with the stream.
  const Communicator& split(int color, trace::CommGroup group);

  // Collectives over `on` (null: world()); "size" below is on's size.
  // Each rank contributes `shardCount` floats; `full` receives size * shardCount.
  // In place when `shard` is `full + rank * shardCount`.
  Ticket allGather(const float* shard, float* full, std::size_t shardCount, CollectiveTag tag,
                   const Communicator* on = nullptr);
  // `full` holds size * shardCount floats; `shard` receives this rank's summed slice.
  // bf16: the buffers hold packed bf16 pairs, summed as bf16 (CommOp::bf16); counts are words.
  Ticket reduceScatter(const float* full, float* shard, std::size_t shardCount, CollectiveTag tag,
                       const Communicator* on = nullptr, bool bf16 = false);
  // In place: every rank ends with the sum.
  Ticket allReduce(float* buffer, std::size_t count, CollectiveTag tag, const Communicator* on = nullptr,
                   bool bf16 = false);

  // Point-to-point, for pipeline stages. The send runs on the communication thread
  // (`data` must stay alive until the ticket is done); the receive blocks the caller:
  // first waiting for the message to arrive (recorded as idle of kind `waitKind`:
  // the pipeline bubble), then copying it (recorded as the recv).
  Ticket send(const float* data, int rows, int cols, int peer, int messageTag, CollectiveTag tag);
  void recv(float* data, int rows, int cols, int peer, int messageTag, CollectiveTag tag, trace::Kind waitKind);

  // Blocks until the ticket's collective is done; time spent blocked is recorded as
  // idle (wait_collective) since it is communication the compute did not hide. On a
  // NCCL rank the host does not block: the compute stream waits for the operation's
  // end event, and the stall, if any, is recorded from CUDA events.
  void wait(const Ticket& ticket, int step, int micro = -1);
  // True once the operation is complete, on the device too: its buffers may be freed.
  bool done(const Ticket& ticket) const;
  // Blocks until every operation issued so far has run on the communication thread
  // (on a GPU transport: until its work, which waits for the device, returned), then
  // rethrows the first failure, if any; a failure ends the wait at once. The worker calls it after each step and
  // before the trace ends, so a failure in the last operation is not swallowed
  // (a device-side wait() never blocks the host and so never sees a late failure).
  void drain();

private:
  Ticket issue(const CommOp& op);
  Ticket enqueue(std::function<void()> work);
  void run();
  void throwIfFailed();

  MPI_Comm comm_;
  Recorder& recorder_;
  std::unique_ptr<Transport> transport_;
  int rank_ = 0, size_ = 1;
  trace::RankMask participants_ = 0;
  HandOffSpin spin_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<Ticket, std::function<void()>>> queue_;
  // Operations enqueued so far: what the communication thread polls, without the
  // mutex, before it sleeps (with stopping_; both are written under the mutex).
  std::atomic<std::uint64_t> enqueued_{0};
  bool running_ = false;             // the communication thread is running an item
  std::condition_variable idle_;     // notified when the queue is empty and nothing runs
  std::atomic<bool> stopping_{false};
  std::exception_ptr failed_; // the first operation that failed: every later call rethrows it
  std::thread thread_;
  std::deque<Communicator> subCommunicators_; // split(): stable addresses, freed in the destructor
  FlightRecorder* flight_ = nullptr;
};

struct CommStream::Pending {
  mutable std::mutex mutex;
  std::condition_variable cv;
  // Set under the mutex (for the condition variable) and read without it by a
  // polling wait(); `error` is written before it.
  std::atomic<bool> finished{false};
  std::exception_ptr error;
  std::function<std::function<void()>(int, int)> deviceWait; // Transport::Issued::deviceWait
};

} // namespace shardlab
