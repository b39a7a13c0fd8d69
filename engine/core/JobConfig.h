// A job's configuration: what shardlab-run takes as options or as a --spec JSON
// file, and what it hands each worker. Validation lives here so the launcher can
// refuse a bad job before anything is launched (exit status 2).
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct JobConfig {
  std::string strategy = "fsdp";  // ddp | fsdp | pipeline | tp
  std::string sharding = "full";  // full (FULL_SHARD) | grad-op (SHARD_GRAD_OP)
  int ranks = 4;
  int layers = 4;                 // residual MLP blocks
  int hidden = 64;
  int vocab = 64;
  int batch = 64;                 // global batch, in tokens
  int steps = 20;
  std::uint64_t seed = 1;
  double lr = 3e-3;
  double weightDecay = 0.0;
  bool prefetch = true;
  std::int64_t memoryBudget = 0;  // bytes per rank; 0: none
  int microbatches = 1;
  std::string schedule = "1f1b";  // naive | gpipe | 1f1b | interleaved
  int virtualStages = 1;
  std::vector<int> stages;        // units per stage; empty: balanced
  std::string device = "auto";    // auto | cpu | cuda
  bool trace = true;

  // Every rule the job breaks, each "field: rule". Empty when the job is valid.
  std::vector<std::string> validate() const;

  nlohmann::json toJson() const;
  // Reads a spec; unknown keys and wrong types are errors naming the key.
  static JobConfig fromJson(const nlohmann::json& j, const JobConfig& defaults, std::vector<std::string>& errors);

  // The model's units in order: "embedding", "block0".."blockL-1", "output".
  std::vector<std::string> unitNames() const;
  int unitCount() const { return layers + 2; }
  std::int64_t parameterCount() const;
  // Description the trace's job record carries: units, parameters per unit, totals.
  nlohmann::json modelJson() const;
};

// "3MiB", "512 KiB", "1.5GiB", "4096" -> bytes; nullopt when malformed.
std::optional<std::int64_t> parseBytes(const std::string& text);

} // namespace shardlab
