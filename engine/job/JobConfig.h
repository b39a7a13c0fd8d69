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
enum class Sharding { Full, GradOp };  // PyTorch FSDP's FULL_SHARD (ZeRO-3), SHARD_GRAD_OP (ZeRO-2)
enum class Schedule { Naive, GPipe, OneFOneB, Interleaved };
// CudaMpiStaged: GPU ranks whose collectives go through Open MPI staged in host
// memory (the launcher picks it when ranks share GPUs, so NCCL cannot be used).
enum class DeviceKind { Auto, Cpu, Cuda, CudaMpiStaged };

// The names of each enum's values, as options, JSON and the trace spell them.
template <class E> struct EnumNames;
template <> struct EnumNames<StrategyKind> {
  static constexpr std::array<std::pair<StrategyKind, std::string_view>, 4> values{
      {{StrategyKind::Ddp, "ddp"}, {StrategyKind::Fsdp, "fsdp"}, {StrategyKind::Pipeline, "pipeline"}, {StrategyKind::Tp, "tp"}}};
};
template <> struct EnumNames<Sharding> {
  static constexpr std::array<std::pair<Sharding, std::string_view>, 2> values{
      {{Sharding::Full, "full"}, {Sharding::GradOp, "grad-op"}}};
};
template <> struct EnumNames<Schedule> {
  static constexpr std::array<std::pair<Schedule, std::string_view>, 4> values{{{Schedule::Naive, "naive"},
                                                                                {Schedule::GPipe, "gpipe"},
                                                                                {Schedule::OneFOneB, "1f1b"},
                                                                                {Schedule::Interleaved, "interleaved"}}};
};
template <> struct EnumNames<DeviceKind> {
  static constexpr std::array<std::pair<DeviceKind, std::string_view>, 4> values{{{DeviceKind::Auto, "auto"},
                                                                                  {DeviceKind::Cpu, "cpu"},
                                                                                  {DeviceKind::Cuda, "cuda"},
                                                                                  {DeviceKind::CudaMpiStaged, "cuda+mpi-staged"}}};
};

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

struct JobConfig {
  StrategyKind strategy = StrategyKind::Fsdp;
  Sharding sharding = Sharding::Full;  // fsdp
  int ranks = 4;
  int layers = 4;                      // residual MLP blocks
  int hidden = 64;
  int vocab = 64;
  int batch = 64;                      // global batch, in tokens
  int steps = 20;
  std::uint64_t seed = 1;
  double lr = 3e-3;
  double weightDecay = 0.0;
  bool prefetch = true;                // fsdp: all-gather the next unit while this one computes
  std::int64_t memoryBudget = 0;       // bytes per rank; 0: none
  int microbatches = 1;                // pipeline
  Schedule schedule = Schedule::OneFOneB;
  int virtualStages = 1;               // pipeline, interleaved: chunks per rank
  std::vector<int> stages;             // pipeline: units per stage (chunk); empty: balanced
  DeviceKind device = DeviceKind::Auto;
  bool trace = true;

  // Every rule the job breaks, each naming its field; empty when the job is valid.
  std::vector<JobIssue> validate() const;

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

  ModelShape shape() const { return {vocab, hidden, layers}; }
  // The model's units in order: "embedding", "block0".."blockL-1", "output".
  std::vector<std::string> unitNames() const;
  int unitCount() const { return layers + 2; }
  std::int64_t parameterCount() const;
  // Pipeline stages (chunks when interleaved): ranks, times virtual stages.
  int pipelineChunks() const { return ranks * (schedule == Schedule::Interleaved ? virtualStages : 1); }
  // Description the trace's job record carries: units, parameters per unit, totals.
  nlohmann::json modelJson() const;
};

// "3MiB", "512 KiB", "1.5GiB", "4096" -> bytes (units B, K/KB/KiB, M/MB/MiB, G/GB/GiB,
// binary, case as written; also the French Kio/Mio/Gio and Russian КиБ/МиБ/ГиБ the app
// shows); nullopt when malformed or too large.
std::optional<std::int64_t> parseBytes(std::string_view text);

} // namespace shardlab
