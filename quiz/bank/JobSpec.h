// A job's settings as lessons and labs write them: a JSON object with any of
// strategy (ddp|fsdp|pipeline|tp), sharding (full|grad-op), ranks, layers, hidden,
// vocab, batch, steps, seed, lr, prefetch, memory_budget ("3MiB" or bytes),
// microbatches, schedule (naive|gpipe|1f1b|interleaved), virtual_stages and
// device (auto|cpu|cuda). The keys are those of the engine's JobConfig, so the
// object can be handed to shardlab-run as a --spec file unchanged.
#pragma once

#include "quiz/bank/JsonPath.h"
#include "quiz/bank/JsonValidator.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace shardlab::quiz {

class JobSpec {
public:
  JobSpec() = default;

  // Checks each key's type and range ("unknown-key", "wrong-type", "bad-value");
  // nullopt when anything is wrong.
  static std::optional<JobSpec> parse(const nlohmann::json& value, const JsonPath& where, JsonValidator& validator);
  // Checks the settings together, with the engine's defaults filled in
  // ("inconsistent-settings": e.g. batch not divisible by ranks, a pipeline
  // with more stages than units, tensor parallelism not dividing hidden).
  bool checkConsistency(const JsonPath& where, JsonValidator& validator) const;

  // These settings with `overrides` applied on top.
  JobSpec mergedWith(const JobSpec& overrides) const;
  // The model defaults (vocab 64, hidden 64, layers 4, batch 64, steps 20) where unset.
  JobSpec withDefaults() const;

  const nlohmann::json& toJson() const { return settings_; }
  bool has(const std::string& key) const { return settings_.contains(key); }
  std::int64_t intOr(const std::string& key, std::int64_t fallback) const;
  std::string stringOr(const std::string& key, const std::string& fallback) const;
  // memory_budget in bytes, if set.
  std::optional<std::int64_t> memoryBudgetBytes() const;

  // "3MiB", "512 KiB", "1.5GiB", "4096" -> bytes; nullopt when malformed.
  static std::optional<std::int64_t> parseBytes(const std::string& text);

private:
  nlohmann::json settings_ = nlohmann::json::object();
};

} // namespace shardlab::quiz
