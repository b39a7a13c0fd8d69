// One recorded event of a real run: the unit of ShardLab's trace format
// (docs/trace-format.md). This header has no MPI, no Qt and no CUDA in it: the
// worker writes events, the launcher merges them, the app and the quiz read them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace shardlab::trace {

// 2: the `flight` record (a hung rank's flight recorder). 3: the mesh's communicators
// (`dp`, `pp`, `tp`) and each rank's coordinates on it. Readers read 1 to 3.
inline constexpr int kFormatVersion = 3;
inline constexpr std::string_view kMagic = "shardlab-trace";

// What a line of the trace is.
enum class Record : std::uint8_t {
  Op,           // a compute op on the compute stream: forward, backward, optimizer
  Collective,   // a collective or point-to-point transfer on the communication stream
  Memory,       // an allocation or free by the tracked allocator
  DeviceMemory, // cudaMemGetInfo reading (GPU ranks only)
  Step,         // a training step ended, with its loss
  Idle,         // the rank held no work: waiting for an activation, a gradient or a collective
  OutOfMemory,  // an allocation past --memory-budget stopped the rank
  Failure,      // the rank failed for another reason
  End,          // the rank finished cleanly
  Flight,       // one entry of a hung rank's flight recorder: a recent communication call
};

enum class Kind : std::uint8_t {
  None,
  Forward,
  Backward,
  Optimizer,
  AllGather,
  ReduceScatter,
  AllReduce,
  Send,
  Recv,
  Broadcast,
  WaitActivation,
  WaitGradient,
  WaitCollective,
  // The zero-bubble schedules split a backward in two: the input gradient (B, which
  // the previous stage waits for) and the weight gradients (W, which can wait).
  // Appended, so older traces read as before; every other schedule records Backward.
  BackwardInput,
  BackwardWeight,
};

// What a tracked buffer holds. Persistent model state is ParamShard, ParamReplica,
// Grads, GradShard and OptimizerState; the rest lives only inside a step.
enum class Category : std::uint8_t {
  ParamShard,     // FSDP: this rank's slice of a unit's flat parameter
  ParamReplica,   // DDP/pipeline/TP: parameters this rank holds in full
  GatheredParams, // FSDP: a unit's full parameters rebuilt by all-gather
  Grads,          // full-size gradients
  GradShard,      // FSDP: this rank's slice of the reduced gradient
  OptimizerState, // AdamW moments
  Activations,    // saved forward activations and their gradients
  CommBuffers,    // staging for collectives and messages
  // Memory another program recorded without saying what it holds (a PyTorch profiler
  // trace's [memory] events): counted in the rank's total, in no ShardLab category.
  Unknown,
  Count
};
inline constexpr int kCategoryCount = static_cast<int>(Category::Count);

// The communicator a collective ran on: the job's (all ranks), or under FSDP's hybrid
// sharding a shard group (the ranks that share a unit's slices) or a replica group
// (the ranks that hold the same slice, one per shard group), or a dimension of the
// job's device mesh (docs/mesh.md): the ranks that differ along that dimension alone.
enum class CommGroup : std::uint8_t { World, Shard, Replicate, Dp, Pp, Tp };
inline constexpr std::size_t kCommGroupCount = 6;

std::string_view toString(Record r);
std::string_view toString(CommGroup g);
std::optional<CommGroup> commGroupFromString(std::string_view s);
std::string_view toString(Kind k);
std::string_view toString(Category c);
std::optional<Record> recordFromString(std::string_view s);
std::optional<Kind> kindFromString(std::string_view s);
std::optional<Category> categoryFromString(std::string_view s);

bool isCollective(Kind k);
// Backward, BackwardInput or BackwardWeight: the summary counts all three as backward compute.
bool isBackward(Kind k);
bool isPersistent(Category c);

// A bit per rank (ranks are limited to 64).
using RankMask = std::uint64_t;

// One event. Which fields mean something depends on `record`; unused ones keep
// their defaults. Times are nanoseconds on the run's common clock (t = 0 at the
// job's start, see docs/trace-format.md).
struct Event {
  Record record = Record::Op;
  Kind kind = Kind::None;
  Category category = Category::Count;
  std::int32_t rank = 0;
  std::int32_t unit = -1;  // index into the job's unit names; -1: none
  std::int32_t step = -1;
  std::int32_t micro = -1; // micro-batch; -1: none
  std::int32_t peer = -1;  // send/recv partner
  std::int64_t t0 = 0;
  std::int64_t t1 = 0;     // == t0 for instantaneous records
  std::int64_t bytes = 0;  // collective: full buffer; memory: signed delta; oom: bytes needed
  std::int64_t value = 0;  // memory: category's current bytes; oom: budget; devmem: free bytes;
                           // flight: when the call started
  std::int64_t total = 0;  // memory: rank's current total; oom: bytes held; devmem: device total;
                           // flight: when it finished, -1 while it had not
  RankMask participants = 0;
  std::int32_t rows = 0, cols = 0; // tensor shape of a send/recv
  CommGroup group = CommGroup::World; // collective: the communicator it ran on
  std::int64_t cpuNs = -1; // op: thread CPU time inside it (GPU ranks: device time); -1: not recorded
  bool recompute = false;  // op: a forward run again inside the backward (activation checkpointing)
  std::int64_t wireBytes = -1; // coll: bytes this rank really sent during the call, as Open MPI's
                               // monitoring counted them; -1: not measured
  std::int64_t seq = -1;   // flight: the call's number on its communicator (collectives) or
                           // with its peer (send/recv), in issue order from 0
  double loss = 0.0;       // step records
  std::uint32_t text = 0;  // failure: index into Trace::texts
};

} // namespace shardlab::trace
