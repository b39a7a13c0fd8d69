// A job's configuration: the one definition of every option of a ShardLab job, its
// default, its JSON key, its rules and its byte sizes. shardlab-run reads it from its
// options or a --spec file and hands it to each worker; the quiz checks lessons and
// labs with it; the app's experiment form edits it; Trace::config() reads it back from
// a trace's `job` record. No MPI, no Qt.
#pragma once

#include "job/JobRules.h"
#include "job/ModelShape.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardlab {

enum class StrategyKind { Ddp, Fsdp, Pipeline, Tp };
// The network trained (docs/model.md): the residual MLP over independent tokens, or a
// GPT-2-style pre-norm decoder over sequences of `seq_len` tokens with `heads`
// attention heads. The MLP is the default: every lesson is checked against it.
// Its key "model" always holds the model: a spec may name it ("gpt"); toJson writes
// {"kind": "gpt"}, and a trace's job record the full description (modelJson) with its kind.
enum class ModelKind { Mlp, Gpt };
// FSDP's sharding strategy (docs/sharding.md): what each rank keeps a slice of.
//   NoShard   NO_SHARD       ZeRO-0: nothing sharded; gradients all-reduced (DDP inside FSDP)
//   Optimizer (ZeRO-1)       optimizer state sharded; gradients reduce-scattered; each rank
//                            updates its slice, then the parameters are all-gathered
//   GradOp    SHARD_GRAD_OP  ZeRO-2: gradients and optimizer state sharded; parameters
//                            gathered in the forward, kept through the backward
//   Full      FULL_SHARD     ZeRO-3: parameters too; gathered per unit, freed after use
//   Hybrid    HYBRID_SHARD   FULL_SHARD inside groups of `shard_group` ranks, replicated
//                            across groups (gradients reduce-scattered in the group, then
//                            all-reduced across groups)
enum class Sharding { NoShard, Optimizer, GradOp, Full, Hybrid };
// FSDP's backward_prefetch: when the backward issues the previous unit's all-gather.
//   Pre   BACKWARD_PRE   before this unit's gradient computation (more overlap, two units held)
//   Post  BACKWARD_POST  after it, once this unit's parameters are freed (less memory)
//   None  None           only when that unit's backward needs it
enum class BackwardPrefetch { Pre, Post, None };
// FSDP's mixed precision (PyTorch's MixedPrecision param_dtype, reduce_dtype): the
// type parameters are all-gathered in and gradients reduced in. Master shards and
// AdamW stay fp32; CPU ranks compute in fp32 on the gathered bf16 values, upcast.
enum class Dtype { Fp32, Bf16 };
enum class Schedule { Naive, GPipe, OneFOneB, Interleaved, ZbH1, ZbH2 };
// CudaMpiStaged: GPU ranks whose collectives go through Open MPI staged in host
// memory (the launcher picks it when ranks share GPUs, so NCCL cannot be used).
enum class DeviceKind { Auto, Cpu, Cuda, CudaMpiStaged };

// The names of each enum's values, as options, JSON and the trace spell them.
template <class E> struct EnumNames;
template <> struct EnumNames<StrategyKind> {
  static constexpr std::array<std::pair<StrategyKind, std::string_view>, 4> values{
      {{StrategyKind::Ddp, "ddp"}, {StrategyKind::Fsdp, "fsdp"}, {StrategyKind::Pipeline, "pipeline"}, {StrategyKind::Tp, "tp"}}};
};
template <> struct EnumNames<ModelKind> {
  static constexpr std::array<std::pair<ModelKind, std::string_view>, 2> values{{{ModelKind::Mlp, "mlp"}, {ModelKind::Gpt, "gpt"}}};
};
template <> struct EnumNames<Sharding> {
  static constexpr std::array<std::pair<Sharding, std::string_view>, 5> values{{{Sharding::NoShard, "no-shard"},
                                                                                {Sharding::Optimizer, "optimizer"},
                                                                                {Sharding::GradOp, "grad-op"},
                                                                                {Sharding::Full, "full"},
                                                                                {Sharding::Hybrid, "hybrid"}}};
};
template <> struct EnumNames<BackwardPrefetch> {
  static constexpr std::array<std::pair<BackwardPrefetch, std::string_view>, 3> values{
      {{BackwardPrefetch::Pre, "pre"}, {BackwardPrefetch::Post, "post"}, {BackwardPrefetch::None, "none"}}};
};
template <> struct EnumNames<Dtype> {
  static constexpr std::array<std::pair<Dtype, std::string_view>, 2> values{{{Dtype::Fp32, "fp32"}, {Dtype::Bf16, "bf16"}}};
};
template <> struct EnumNames<Schedule> {
  static constexpr std::array<std::pair<Schedule, std::string_view>, 6> values{{{Schedule::Naive, "naive"},
                                                                                {Schedule::GPipe, "gpipe"},
                                                                                {Schedule::OneFOneB, "1f1b"},
                                                                                {Schedule::Interleaved, "interleaved"},
                                                                                {Schedule::ZbH1, "zb-h1"},
                                                                                {Schedule::ZbH2, "zb-h2"}}};
};
template <> struct EnumNames<DeviceKind> {
  static constexpr std::array<std::pair<DeviceKind, std::string_view>, 4> values{{{DeviceKind::Auto, "auto"},
                                                                                  {DeviceKind::Cpu, "cpu"},
                                                                                  {DeviceKind::Cuda, "cuda"},
                                                                                  {DeviceKind::CudaMpiStaged, "cuda+mpi-staged"}}};
};

// The PyTorch name of a sharding strategy and its ZeRO stage, shown beside ShardLab's
// name in the summary, the app and the lessons. ZeRO-1 has no FSDP strategy: PyTorch
// offers it as ZeroRedundancyOptimizer beside DDP. Hybrid is ZeRO-3 inside each group.
constexpr std::string_view pytorchName(Sharding s) {
  switch (s) {
  case Sharding::NoShard: return "NO_SHARD";
  case Sharding::Optimizer: return "ZeroRedundancyOptimizer";
  case Sharding::GradOp: return "SHARD_GRAD_OP";
  case Sharding::Full: return "FULL_SHARD";
  case Sharding::Hybrid: return "HYBRID_SHARD";
  }
  return "?";
}
constexpr int zeroStage(Sharding s) {
  switch (s) {
  case Sharding::NoShard: return 0;
  case Sharding::Optimizer: return 1;
  case Sharding::GradOp: return 2;
  default: return 3;
  }
}

template <class E> constexpr std::string_view name(E value) {
  for (const auto& [v, n] : EnumNames<E>::values)
    if (v == value) return n;
  return "?";
}
template <class E> std::optional<E> parseName(std::string_view text) {
  for (const auto& [v, n] : EnumNames<E>::values)
    if (n == text) return v;
  return std::nullopt;
}
// "ddp, fsdp, pipeline, tp": for messages and --help.
template <class E> std::string nameList() {
  std::string out;
  for (const auto& [v, n] : EnumNames<E>::values) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

// A dimension of the device mesh (docs/mesh.md): data parallel (replicas, each on its
// slice of the batch), pipeline stages, tensor parallel (each block's inner width cut).
enum class MeshDim { Dp, Pp, Tp };
template <> struct EnumNames<MeshDim> {
  static constexpr std::array<std::pair<MeshDim, std::string_view>, 3> values{
      {{MeshDim::Dp, "dp"}, {MeshDim::Pp, "pp"}, {MeshDim::Tp, "tp"}}};
};

// The device mesh: the ranks laid out as a grid of named dimensions, in the order
// written ("dp=2,tp=2"), the last varying fastest, as PyTorch's DeviceMesh and
// Megatron's rank layout do: rank = ((c0 * n1) + c1) * n2 + c2 ... So under "dp=2,tp=2"
// the tensor-parallel pairs are the neighbouring ranks {0,1} and {2,3} (on one node
// when ranks fill nodes in order) and the replicas {0,2} and {1,3}. Empty: no mesh,
// the strategy spans every rank (the one-dimensional case).
struct Mesh {
  std::vector<std::pair<MeshDim, int>> dims; // in the order written; each at least 1
  bool empty() const { return dims.empty(); }
  bool has(MeshDim d) const;
  int size(MeshDim d) const;                 // 1 when the mesh does not name it
  int product() const;
  std::string text() const;                  // "dp=2,tp=2"; "" when empty
  // The rank's coordinate along `d` (0 when the mesh does not name it).
  int coordinate(int rank, MeshDim d) const;
  // The ranks that differ from `rank` along `d` alone form its group along `d`; the
  // color is that group's first rank (MPI_Comm_split orders it by rank, so a rank's
  // place in its group is its coordinate along `d`).
  int groupColor(int rank, MeshDim d) const;
  // The rank at `rank`'s coordinates but `coordinate` along `d`.
  int rankAt(int rank, MeshDim d, int coordinate) const;
  // {"dp": 1, "tp": 0}: the rank's coordinates, as its trace `rank` record holds them.
  nlohmann::json coordinatesJson(int rank) const;
  bool operator==(const Mesh&) const = default;
};
// Whether a strategy's step runs over mesh dimension `d` (a larger size than 1 there):
// ddp and fsdp over dp; tp over tp and pipeline over pp, their replicas over dp.
bool runsOver(StrategyKind strategy, MeshDim d);
// "dp=2,pp=1,tp=2" -> the mesh; "" -> empty. A malformed text or an unknown or repeated
// dimension is an issue of field `field`; the sizes' bounds (1 to 64, their product the
// ranks) are JobConfig::validateSizes()'s.
Mesh parseMesh(std::string_view text, const std::string& field, std::vector<JobIssue>& issues);

// A straggler (the straggler lesson, SHARDLAB_FAULT=RANK:STEP:slow:FACTOR): from step
// `fromStep` on, every compute op of rank `rank` takes `factor` times its measured time
// (the rank keeps computing for the extra time: docs/architecture.md, "Failures").
struct Straggler {
  int rank = 0;
  double factor = 1.0;
  int fromStep = 0;
  bool operator==(const Straggler&) const = default;
};

struct JobConfig {
  // The largest sizes validate() accepts (the reason is beside it).
  static constexpr int kMaxLayers = 100000;
  static constexpr int kMaxHidden = 65536;
  static constexpr int kMaxVocab = 1 << 20;
  static constexpr int kMaxBatch = 1 << 20;   // tokens (a GPT's batch x seq_len)
  // The synthetic language's longest sequence (core/Data.h): beyond it the s x s
  // attention scores of one head of one sequence pass 64 MiB.
  static constexpr int kMaxSeqLen = 4096;

  StrategyKind strategy = StrategyKind::Fsdp;
  Sharding sharding = Sharding::Full;  // fsdp
  int ranks = 4;
  ModelKind model = ModelKind::Mlp;
  int layers = 4;                      // residual MLP blocks (gpt: transformer blocks)
  int hidden = 64;
  int vocab = 64;
  int batch = 64;                      // global batch: tokens (mlp), sequences of seq_len tokens (gpt)
  int heads = 4;                       // gpt: attention heads, each of hidden / heads
  int seqLen = 32;                     // gpt: tokens per sequence
  int steps = 20;
  std::uint64_t seed = 1;
  double lr = 3e-3;
  double weightDecay = 0.0;
  int shardGroup = 0;                  // fsdp, hybrid: ranks per shard group; 0: not given
  BackwardPrefetch backwardPrefetch = BackwardPrefetch::Pre; // fsdp (PyTorch's default)
  bool forwardPrefetch = false;        // fsdp: issue the next unit's all-gather before this one's forward
  std::optional<int> limitAllGathers;  // fsdp: at most N units' gathered parameters held; none: no limit
  bool checkpointActivations = false;  // ddp, fsdp: keep each unit's input only, recompute its forward in the backward
  int accumulate = 1;                  // ddp, fsdp: micro-steps per optimizer step (gradient accumulation)
  bool noSync = false;                 // ddp, fsdp, accumulate > 1: reduce only at the last micro-step (PyTorch's no_sync)
  Dtype paramDtype = Dtype::Fp32;      // fsdp, sharded: the all-gathers carry parameters in this type
  Dtype reduceDtype = Dtype::Fp32;     // fsdp, sharded: gradients are reduce-scattered in this type
  std::int64_t memoryBudget = 0;       // bytes per rank; 0: none
  int microbatches = 1;                // pipeline
  Schedule schedule = Schedule::OneFOneB;
  int virtualStages = 1;               // pipeline, interleaved: chunks per rank
  std::vector<int> stages;             // pipeline: units per stage (chunk); empty: balanced
  DeviceKind device = DeviceKind::Auto;
  bool trace = true;
  // Seconds a collective or receive may run before the rank's watchdog declares the
  // job hung, writes its flight recorder into the trace and stops the job.
  double collectiveTimeout = 60.0;
  std::optional<Straggler> straggler;  // none: every rank computes at its own pace
  // Open MPI hostfile the job's ranks are spread over (docs/multi-host.md); empty: this
  // machine only. mpirun reads it on the launching machine.
  std::string hostfile;
  // How the ranks compose parallelisms (docs/mesh.md); empty: the strategy over all
  // ranks. The strategy says what runs inside a replica (runsOver below).
  Mesh mesh;

  // Whether validate() reads the hostfile. A rank on another machine (the worker) skips
  // it: mpirun has read it on the launching machine, which may be the only one holding it.
  enum class HostfileCheck { Read, Skip };
  // Every rule the job breaks, each naming its field; empty when the job is valid.
  std::vector<JobIssue> validate(HostfileCheck hostfileCheck = HostfileCheck::Read) const;
  // The first of validate()'s rules: every size and count within its bounds, so that
  // nothing sized from the job allocates without end or divides by zero. A trace's job
  // record is checked with these alone: the rules between options may grow stricter in
  // a later version, and a trace recorded before must still open.
  std::vector<JobIssue> validateSizes() const;

  // Sets another strategy's options (the pipeline's schedule, micro-batches, virtual
  // stages and stages; FSDP's sharding and prefetching) to their defaults: the options
  // validate() refuses as only-strategy. The form does this for the fields it greys.
  void resetOtherStrategiesOptions();
  nlohmann::json toJson() const;
  // What to do with keys that are not options: a spec refuses them; a trace's job
  // record carries more (model, command, ...) and they are skipped.
  enum class OtherKeys { Refuse, Skip };
  // Reads a spec over `base`: keys present replace base's values. Wrong types,
  // malformed sizes and (with Refuse) unknown keys are issues naming the key.
  static JobConfig fromJson(const nlohmann::json& j, std::vector<JobIssue>& issues, const JobConfig& base,
                            OtherKeys other = OtherKeys::Refuse);
  static JobConfig fromJson(const nlohmann::json& j, std::vector<JobIssue>& issues) {
    return fromJson(j, issues, JobConfig());
  }
  // The spec keys, in the order toJson writes them.
  static const std::vector<std::string>& keys();

  ModelShape shape() const { return {vocab, hidden, layers, model == ModelKind::Gpt, heads, seqLen}; }
  // Tokens in one row of the batch: 1 (mlp), seq_len (gpt); the batch's tokens are batch x this.
  int tokensPerRow() const { return model == ModelKind::Gpt ? seqLen : 1; }
  // The model's units in order: "embedding", "block0".."blockL-1", "output".
  std::vector<std::string> unitNames() const;
  int unitCount() const { return layers + 2; }
  std::int64_t parameterCount() const;
  // Pipeline stages (chunks when interleaved): ranks, times virtual stages.
  int pipelineChunks() const {
    return (mesh.empty() ? ranks : mesh.size(MeshDim::Pp)) * (schedule == Schedule::Interleaved ? virtualStages : 1);
  }
  // The degree of a parallelism: the mesh's size along it; without a mesh, every rank
  // along the strategy's own dimension (ddp, fsdp: dp; pipeline: pp; tp: tp), 1 along the others.
  int degree(MeshDim d) const;
  // FSDP: how many ranks share one unit's slices (the shard degree): 1 under no-shard,
  // shard_group under hybrid, all ranks otherwise. Ranks holding the same slice
  // (ranks / shardDegree() of them) are replicas of each other.
  int shardDegree() const;
  // FSDP: does any all-gather get issued before the unit needs it?
  bool prefetches() const { return forwardPrefetch || backwardPrefetch != BackwardPrefetch::None; }
  // Description the trace's job record carries: units, parameters per unit, totals.
  nlohmann::json modelJson() const;
};

// The host names a hostfile lists, one per line as Open MPI reads them ("lab-pc-01
// slots=4"; '#' starts a comment); nullopt when it is not a readable file. Reads at most
// 1 MiB, never a device or a pipe.
std::optional<std::vector<std::string>> hostfileHosts(const std::string& path);

// "3MiB", "512 KiB", "1.5GiB", "4096" -> bytes (units B, K/KB/KiB, M/MB/MiB, G/GB/GiB,
// binary, case as written; also the French Kio/Mio/Gio and Russian КиБ/МиБ/ГиБ the app
// shows); nullopt when malformed or too large.
std::optional<std::int64_t> parseBytes(std::string_view text);

} // namespace shardlab
