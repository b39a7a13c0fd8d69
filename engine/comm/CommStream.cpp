#include "comm/CommStream.h"

#include "comm/MpiCheck.h"
#include "core/Cpus.h"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace shardlab {

namespace {

// Polls `ready` until it holds or `bound` has passed, yielding the core between tries;
// true when it held.
template <class Ready>
bool pollFor(std::chrono::nanoseconds bound, Ready ready) {
  if (bound.count() <= 0) return false;
  const auto end = std::chrono::steady_clock::now() + bound;
  for (;;) {
    if (ready()) return true;
    if (std::chrono::steady_clock::now() >= end) return false;
    sched_yield();
  }
}

} // namespace

HandOffSpin handOffSpinFor(int ranksOnNode, int cores) {
  // Polling is kept to nodes where every thread has a core of its own. Where they
  // share cores, a polling thread the answer reaches can wait behind the thread it
  // yielded to for a scheduler time slice (milliseconds), where a sleeping one is woken
  // at once: on 2 shared cores polling won at moderate load and made steps 15-20 times
  // longer under heavy load (docs/performance.md); sleeping at once never lost.
  if (2 * ranksOnNode > cores) return HandOffSpin{};
  return HandOffSpin{std::chrono::microseconds(50)};
}

HandOffSpin handOffSpinOnThisNode(MPI_Comm comm, std::optional<std::chrono::microseconds> given) {
  MPI_Comm local;
  MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local));
  int ranksOnNode = 1;
  MPI_CHECK(MPI_Comm_size(local, &ranksOnNode));
  MPI_Comm_free(&local);
  if (given) return HandOffSpin{*given};
  return handOffSpinFor(ranksOnNode, usableCpuCount());
}

CommStream::CommStream(MPI_Comm comm, Recorder& recorder, std::unique_ptr<Transport> transport, HandOffSpin spin)
    : comm_(comm), recorder_(recorder), transport_(std::move(transport)), spin_(spin) {
  if (!transport_) transport_ = makeMpiTransport(comm_, recorder_);
  rank_ = transport_->rank();
  size_ = transport_->size();
  participants_ = transport_->participants();
  thread_ = std::thread([this] { run(); });
}

CommStream::~CommStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  for (auto& c : subCommunicators_) {
    // A destructor does not throw: a failing free is reported, not raised.
    if (const int rc = MPI_Comm_free(&c.comm); rc != MPI_SUCCESS)
      std::fprintf(stderr, "MPI_Comm_free failed (%d) at %s:%d\n", rc, __FILE__, __LINE__);
  }
}

const Communicator& CommStream::split(int color, trace::CommGroup group) {
  Communicator c;
  MPI_CHECK(MPI_Comm_split(comm_, color, rank_, &c.comm));
  MPI_CHECK(MPI_Comm_rank(c.comm, &c.rank));
  MPI_CHECK(MPI_Comm_size(c.comm, &c.size));
  c.participants = worldMaskOf(c.comm);
  c.group = group;
  subCommunicators_.push_back(c);
  return subCommunicators_.back();
}

void CommStream::throwIfFailed() {
  std::exception_ptr failed;
  {
    std::lock_guard lock(mutex_);
    failed = failed_;
  }
  if (failed) std::rethrow_exception(failed);
}

CommStream::Ticket CommStream::enqueue(std::function<void()> work) {
  auto ticket = std::make_shared<Pending>();
  {
    std::lock_guard lock(mutex_);
    queue_.emplace_back(ticket, std::move(work));
    enqueued_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_one();
  return ticket;
}

namespace {

// What the flight recorder keeps of a call: the fields of its coll record.
trace::Event flightCall(const CommOp& op, const Communicator& on, int rank) {
  trace::Event e;
  e.record = trace::Record::Flight;
  e.kind = op.kind;
  e.unit = op.tag.unit;
  e.step = op.tag.step;
  e.micro = op.tag.micro;
  e.group = on.group;
  const auto floats = static_cast<std::int64_t>(op.count);
  switch (op.kind) {
  case trace::Kind::AllGather:
  case trace::Kind::ReduceScatter: e.bytes = floats * 4 * on.size; e.participants = on.participants; break;
  case trace::Kind::AllReduce: e.bytes = floats * 4; e.participants = on.participants; break;
  default: // send
    e.bytes = floats * 4;
    e.peer = op.peer;
    e.group = trace::CommGroup::World;
    e.participants = (trace::RankMask{1} << rank) | (trace::RankMask{1} << op.peer);
    break;
  }
  return e;
}

// Ends a flight-recorder entry however its call ends (an MPI error throws).
struct FlightScope {
  FlightRecorder* flight;
  FlightRecorder::Lane lane;
  std::uint64_t id;
  ~FlightScope() {
    if (flight) flight->end(lane, id);
  }
};

} // namespace

CommStream::Ticket CommStream::issue(const CommOp& op) {
  throwIfFailed(); // after a failed operation (an aborted NCCL communicator) nothing more is issued
  auto issued = transport_->issue(op);
  if (flight_) {
    issued.work = [this, call = flightCall(op, *op.on, rank_), work = std::move(issued.work)] {
      const FlightScope scope{flight_, FlightRecorder::Lane::Communication,
                              flight_->begin(FlightRecorder::Lane::Communication, call)};
      work();
    };
  }
  auto ticket = enqueue(std::move(issued.work));
  ticket->deviceWait = std::move(issued.deviceWait); // read only by the issuing thread
  return ticket;
}

void CommStream::run() {
  std::exception_ptr startError;
  try {
    transport_->startThread();
  } catch (...) {
    startError = std::current_exception();
  }
  std::uint64_t taken = 0; // operations taken off the queue
  for (;;) {
    std::pair<Ticket, std::function<void()>> item;
    // The queue is empty when `taken` caught up with enqueued_: poll before sleeping.
    pollFor(spin_.bound, [&] {
      return enqueued_.load(std::memory_order_acquire) != taken || stopping_.load(std::memory_order_acquire);
    });
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      item = std::move(queue_.front());
      queue_.pop_front();
      ++taken;
      running_ = true;
    }
    std::exception_ptr error = startError;
    if (!error) {
      try {
        item.second();
      } catch (...) {
        error = std::current_exception();
      }
    }
    if (error) {
      {
        std::lock_guard lock(mutex_);
        if (!failed_) failed_ = error;
      }
      idle_.notify_all(); // drain() rethrows at once, without waiting for the rest of the queue
    }
    {
      std::lock_guard lock(item.first->mutex);
      item.first->error = error;
      item.first->finished.store(true, std::memory_order_release);
    }
    item.first->cv.notify_all();
    bool idle = false;
    {
      std::lock_guard lock(mutex_);
      running_ = false;
      idle = queue_.empty();
    }
    if (idle) idle_.notify_all();
  }
}

void CommStream::drain() {
  {
    std::unique_lock lock(mutex_);
    // A failure ends the wait: later operations may never finish (a peer is gone).
    idle_.wait(lock, [this] { return (queue_.empty() && !running_) || failed_; });
  }
  throwIfFailed();
}

CommStream::Ticket CommStream::allGather(const float* shard, float* full, std::size_t shardCount, CollectiveTag tag,
                                         const Communicator* on) {
  CommOp op;
  op.on = on ? on : &world();
  op.kind = Kind::AllGather;
  op.send = shard;
  op.recv = full;
  op.count = shardCount;
  op.tag = tag;
  return issue(op);
}

CommStream::Ticket CommStream::reduceScatter(const float* full, float* shard, std::size_t shardCount,
                                             CollectiveTag tag, const Communicator* on, bool bf16) {
  CommOp op;
  op.bf16 = bf16;
  op.on = on ? on : &world();
  op.kind = Kind::ReduceScatter;
  op.send = full;
  op.recv = shard;
  op.count = shardCount;
  op.tag = tag;
  return issue(op);
}

CommStream::Ticket CommStream::allReduce(float* buffer, std::size_t count, CollectiveTag tag,
                                         const Communicator* on, bool bf16) {
  CommOp op;
  op.bf16 = bf16;
  op.on = on ? on : &world();
  op.kind = Kind::AllReduce;
  op.recv = buffer;
  op.count = count;
  op.tag = tag;
  return issue(op);
}

CommStream::Ticket CommStream::send(const float* data, int rows, int cols, int peer, int messageTag,
                                    CollectiveTag tag) {
  CommOp op;
  op.on = &world();
  op.kind = Kind::Send;
  op.send = data;
  op.count = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  op.peer = peer;
  op.messageTag = messageTag;
  op.rows = rows;
  op.cols = cols;
  op.tag = tag;
  return issue(op);
}

void CommStream::recv(float* data, int rows, int cols, int peer, int messageTag, CollectiveTag tag,
                      trace::Kind waitKind) {
  throwIfFailed();
  if (flight_) {
    trace::Event call;
    call.kind = trace::Kind::Recv;
    call.unit = tag.unit;
    call.step = tag.step;
    call.micro = tag.micro;
    call.peer = peer;
    call.bytes = static_cast<std::int64_t>(rows) * cols * 4;
    call.participants = (trace::RankMask{1} << rank_) | (trace::RankMask{1} << peer);
    const FlightScope scope{flight_, FlightRecorder::Lane::Compute,
                            flight_->begin(FlightRecorder::Lane::Compute, call)};
    transport_->recv(data, rows, cols, peer, messageTag, tag, waitKind);
    return;
  }
  transport_->recv(data, rows, cols, peer, messageTag, tag, waitKind);
}

bool CommStream::done(const Ticket& ticket) const {
  return ticket->finished.load(std::memory_order_acquire);
}

void CommStream::wait(const Ticket& ticket, int step, int micro) {
  if (ticket->deviceWait) {
    // A GPU transport: the compute stream waits, not the host. An operation that
    // already failed throws here, and so does any earlier failure.
    {
      std::lock_guard lock(ticket->mutex);
      if (ticket->finished.load() && ticket->error) std::rethrow_exception(ticket->error);
    }
    throwIfFailed();
    auto followUp = ticket->deviceWait(step, micro);
    ticket->deviceWait = nullptr; // waited once; a second wait is a no-op on the device
    if (followUp) enqueue(std::move(followUp));
    return;
  }
  if (!ticket->finished.load(std::memory_order_acquire)) {
    const auto t0 = recorder_.now();
    if (!pollFor(spin_.bound, [&] { return ticket->finished.load(std::memory_order_acquire); })) {
      std::unique_lock lock(ticket->mutex);
      ticket->cv.wait(lock, [&] { return ticket->finished.load(std::memory_order_acquire); });
    }
    recorder_.idle(Kind::WaitCollective, step, micro, t0, recorder_.now());
  }
  if (ticket->error) std::rethrow_exception(ticket->error);
}

} // namespace shardlab
