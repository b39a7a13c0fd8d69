// The Transport base (the MPI call of each operation, and how it is recorded) and
// the Open MPI transport on host buffers.
#include "comm/Transport.h"

#include "comm/MpiCheck.h"
#include "core/Bf16.h"

#include <vector>

namespace shardlab {

namespace {

// MPI has no bfloat16: a reduction in bf16 runs on 2-byte elements (MPI_UINT16_T)
// with this user-defined sum, which adds each pair in fp32 and rounds the result to
// bf16 (nearest, ties to even), as every partial sum of a bf16 reduction is rounded.
// What goes on the wire is bf16, 2 bytes a value.
void bf16Sum(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::uint16_t*>(in);
  auto* b = static_cast<std::uint16_t*>(inout);
  for (int i = 0; i < *len; ++i) b[i] = toBf16(fromBf16(a[i]) + fromBf16(b[i]));
}

MPI_Op bf16SumOp() {
  static const MPI_Op op = [] {
    MPI_Op o = MPI_OP_NULL;
    MPI_CHECK(MPI_Op_create(&bf16Sum, 1, &o));
    return o;
  }();
  return op;
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

Transport::Transport(MPI_Comm comm, Recorder& recorder) : comm_(comm), recorder_(recorder) {
  MPI_CHECK(MPI_Comm_rank(comm_, &rank_));
  MPI_CHECK(MPI_Comm_size(comm_, &size_));
  participants_ = worldMaskOf(comm_);
  world_ = {comm_, rank_, size_, participants_, trace::CommGroup::World};
}

std::int64_t Transport::runMpi(const CommOp& op, const float* send, float* recv) const {
  const int n = static_cast<int>(op.count);
  const Communicator& on = op.on ? *op.on : world_;
  // A collective's internal messages and the application's own sends are counted by
  // different variables (pml_monitoring_enable=2).
  const bool pointToPoint = op.kind == trace::Kind::Send;
  auto sentSoFar = [&] { return pointToPoint ? wire_.pointToPointBytes() : wire_.collectiveBytes(); };
  const auto before = sentSoFar();
  switch (op.kind) {
  case trace::Kind::AllGather:
    if (send == recv + static_cast<std::size_t>(on.rank) * op.count) // in place: this rank's slice is already there
      MPI_CHECK(MPI_Allgather(MPI_IN_PLACE, 0, MPI_FLOAT, recv, n, MPI_FLOAT, on.comm));
    else
      MPI_CHECK(MPI_Allgather(send, n, MPI_FLOAT, recv, n, MPI_FLOAT, on.comm));
    break;
  case trace::Kind::ReduceScatter: {
    // MPI_Reduce_scatter with equal counts, not MPI_Reduce_scatter_block: Open MPI 4.1's
    // reduce_scatter_block has no ring algorithm to choose (the launcher asks for the
    // ring: docs/trace-format.md, "Bytes on the wire"); the result is the same.
    const std::vector<int> counts(static_cast<std::size_t>(on.size), op.bf16 ? 2 * n : n);
    if (op.bf16) MPI_CHECK(MPI_Reduce_scatter(send, recv, counts.data(), MPI_UINT16_T, bf16SumOp(), on.comm));
    else MPI_CHECK(MPI_Reduce_scatter(send, recv, counts.data(), MPI_FLOAT, MPI_SUM, on.comm));
    break;
  }
  case trace::Kind::AllReduce:
    if (op.bf16) MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, recv, 2 * n, MPI_UINT16_T, bf16SumOp(), on.comm));
    else MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, recv, n, MPI_FLOAT, MPI_SUM, on.comm));
    break;
  case trace::Kind::Send:
    MPI_CHECK(MPI_Send(send, n, MPI_FLOAT, op.peer, op.messageTag, comm_));
    break;
  default:
    throw std::logic_error("Transport: not a communication kind");
  }
  const auto after = sentSoFar();
  return before && after ? *after - *before : -1;
}

void Transport::record(const CommOp& op, std::int64_t t0, std::int64_t t1, std::int64_t wireBytes) const {
  const auto floatBytes = static_cast<std::int64_t>(sizeof(float));
  const auto& t = op.tag;
  const Communicator& on = op.on ? *op.on : world_;
  switch (op.kind) {
  case trace::Kind::AllGather:
  case trace::Kind::ReduceScatter:
    recorder_.collective(op.kind, t.unit, t.step, t.micro, t0, t1,
                         static_cast<std::int64_t>(op.count) * floatBytes * on.size, on.participants, -1, 0, 0,
                         wireBytes, on.group);
    break;
  case trace::Kind::AllReduce:
    recorder_.collective(op.kind, t.unit, t.step, t.micro, t0, t1, static_cast<std::int64_t>(op.count) * floatBytes,
                         on.participants, -1, 0, 0, wireBytes, on.group);
    break;
  default: // Send
    recorder_.collective(trace::Kind::Send, t.unit, t.step, t.micro, t0, t1,
                         static_cast<std::int64_t>(op.rows) * op.cols * floatBytes,
                         (trace::RankMask{1} << recorder_.rank()) | (trace::RankMask{1} << op.peer), op.peer, op.rows,
                         op.cols, wireBytes);
    break;
  }
}

std::int64_t Transport::probe(int peer, int messageTag, CollectiveTag tag, trace::Kind waitKind) const {
  const auto tWait = recorder_.now();
  MPI_Status status;
  MPI_CHECK(MPI_Probe(peer, messageTag, comm_, &status));
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
              const auto wireBytes = runMpi(op, op.kind == trace::Kind::AllReduce ? op.recv : op.send, op.recv);
              record(op, t0, recorder_.now(), wireBytes);
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
