// A job's settings as a lesson or a lab writes them: a JSON object with any of the
// engine's JobConfig keys (docs/quiz-format.md lists them), so the object can be
// handed to shardlab-run as a --spec file unchanged. The keys written are kept as
// overrides; JobConfig reads them over its defaults and checks them with its rules,
// so the quiz refuses exactly the jobs the engine refuses.
#pragma once

#include "quiz/bank/JsonPath.h"
#include "quiz/bank/JsonValidator.h"

#include "job/JobConfig.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace shardlab::quiz {

class JobSpec {
public:
  JobSpec() = default;

  // Requires an object and reads it with JobConfig::fromJson; each issue (unknown
  // key, wrong type, malformed size or name) is reported at where/<key> under its
  // rule id. nullopt when anything is wrong.
  static std::optional<JobSpec> parse(const nlohmann::json& value, const JsonPath& where, JsonValidator& validator);
  // Reports each rule config() breaks (JobConfig::validate) at where/<key>.
  bool checkConsistency(const JsonPath& where, JsonValidator& validator) const;

  // These settings with `overrides` applied on top.
  JobSpec mergedWith(const JobSpec& overrides) const { return withSettings(overrides.settings_); }
  // These settings with the keys of `settings` replaced (the sizing rule's ranks, hidden, batch).
  JobSpec withSettings(const nlohmann::json& settings) const;
  // The engine's defaults with these settings applied.
  JobConfig config() const;

  // The settings as written (the overrides, without the defaults).
  const nlohmann::json& toJson() const { return settings_; }

private:
  nlohmann::json settings_ = nlohmann::json::object();
};

} // namespace shardlab::quiz
