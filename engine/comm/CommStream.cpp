#include "CommStream.h"

#include "MpiCheck.h"

#include <vector>

namespace shardlab {

trace::RankMask worldMaskOf(MPI_Comm comm) {
  int size = 0;
  MPI_CHECK(MPI_Comm_size(comm, &size));
  MPI_Group group, world;
  MPI_CHECK(MPI_Comm_group(comm, &group));
  MPI_CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world));
  std::vector<int> local(static_cast<std::size_t>(size)), global(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) local[static_cast<std::size_t>(i)] = i;
  MPI_CHECK(MPI_Group_translate_ranks(group, size, local.data(), world, global.data()));
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  trace::RankMask mask = 0;
  for (int r : global) mask |= trace::RankMask{1} << r;
  return mask;
}

CommStream::CommStream(MPI_Comm comm, Recorder& recorder) : comm_(comm), recorder_(recorder) {
  MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
  MPI_CHECK(MPI_Comm_size(comm_, &size_));
  participants_ = worldMaskOf(comm_);
  thread_ = std::thread([this] { run(); });
}

CommStream::~CommStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

CommStream::Ticket CommStream::enqueue(std::function<void()> work) {
  auto ticket = std::make_shared<Pending>();
  {
    std::lock_guard lock(mutex_);
    queue_.emplace_back(ticket, std::move(work));
  }
  wake_.notify_one();
  return ticket;
}

void CommStream::run() {
  for (;;) {
    std::pair<Ticket, std::function<void()>> item;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      item = std::move(queue_.front());
      queue_.pop_front();
    }
    std::exception_ptr error;
    try {
      item.second();
    } catch (...) {
      error = std::current_exception();
    }
    {
      std::lock_guard lock(item.first->mutex);
      item.first->finished = true;
      item.first->error = error;
    }
    item.first->cv.notify_all();
  }
}

CommStream::Ticket CommStream::allGather(const float* shard, float* full, std::size_t shardCount, CollectiveTag tag) {
  return enqueue([=, this] {
    const auto t0 = recorder_.now();
    MPI_CHECK(MPI_Allgather(shard, static_cast<int>(shardCount), MPI_FLOAT, full, static_cast<int>(shardCount),
                            MPI_FLOAT, comm_));
    recorder_.collective(Kind::AllGather, tag.unit, tag.step, tag.micro, t0, recorder_.now(),
                         static_cast<std::int64_t>(shardCount * sizeof(float)) * size_, participants_);
  });
}

CommStream::Ticket CommStream::reduceScatter(const float* full, float* shard, std::size_t shardCount,
                                             CollectiveTag tag) {
  return enqueue([=, this] {
    const auto t0 = recorder_.now();
    MPI_CHECK(MPI_Reduce_scatter_block(full, shard, static_cast<int>(shardCount), MPI_FLOAT, MPI_SUM, comm_));
    recorder_.collective(Kind::ReduceScatter, tag.unit, tag.step, tag.micro, t0, recorder_.now(),
                         static_cast<std::int64_t>(shardCount * sizeof(float)) * size_, participants_);
  });
}

CommStream::Ticket CommStream::allReduce(float* buffer, std::size_t count, CollectiveTag tag) {
  return enqueue([=, this] {
    const auto t0 = recorder_.now();
    MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, buffer, static_cast<int>(count), MPI_FLOAT, MPI_SUM, comm_));
    recorder_.collective(Kind::AllReduce, tag.unit, tag.step, tag.micro, t0, recorder_.now(),
                         static_cast<std::int64_t>(count * sizeof(float)), participants_);
  });
}

CommStream::Ticket CommStream::send(const float* data, int rows, int cols, int peer, int messageTag,
                                    CollectiveTag tag) {
  return enqueue([=, this] {
    const auto t0 = recorder_.now();
    MPI_CHECK(MPI_Send(data, rows * cols, MPI_FLOAT, peer, messageTag, comm_));
    recorder_.collective(Kind::Send, tag.unit, tag.step, tag.micro, t0, recorder_.now(),
                         static_cast<std::int64_t>(rows) * cols * static_cast<std::int64_t>(sizeof(float)),
                         (trace::RankMask{1} << recorder_.rank()) | (trace::RankMask{1} << peer), peer, rows, cols);
  });
}

void CommStream::recv(float* data, int rows, int cols, int peer, int messageTag, CollectiveTag tag,
                      trace::Kind waitKind) {
  const auto tWait = recorder_.now();
  MPI_Status status;
  MPI_CHECK(MPI_Probe(peer, messageTag, comm_, &status));
  const auto t0 = recorder_.now();
  if (t0 > tWait) recorder_.idle(waitKind, tag.step, tag.micro, tWait, t0);
  MPI_CHECK(MPI_Recv(data, rows * cols, MPI_FLOAT, peer, messageTag, comm_, MPI_STATUS_IGNORE));
  recorder_.collective(Kind::Recv, tag.unit, tag.step, tag.micro, t0, recorder_.now(),
                       static_cast<std::int64_t>(rows) * cols * static_cast<std::int64_t>(sizeof(float)),
                       (trace::RankMask{1} << recorder_.rank()) | (trace::RankMask{1} << peer), peer, rows, cols);
}

bool CommStream::done(const Ticket& ticket) const {
  std::lock_guard lock(ticket->mutex);
  return ticket->finished;
}

void CommStream::wait(const Ticket& ticket, int step, int micro) {
  std::unique_lock lock(ticket->mutex);
  if (!ticket->finished) {
    const auto t0 = recorder_.now();
    ticket->cv.wait(lock, [&] { return ticket->finished; });
    recorder_.idle(Kind::WaitCollective, step, micro, t0, recorder_.now());
  }
  if (ticket->error) std::rethrow_exception(ticket->error);
}

} // namespace shardlab
