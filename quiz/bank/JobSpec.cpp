#include "quiz/bank/JobSpec.h"

#include <string>
#include <vector>

namespace shardlab::quiz {

namespace {

void report(const std::vector<JobIssue>& issues, const JsonPath& where, JsonValidator& validator) {
  for (const auto& issue : issues)
    validator.error(where / issue.field, std::string(ruleId(issue.rule)), issue.ruleText());
}

} // namespace

std::optional<JobSpec> JobSpec::parse(const nlohmann::json& value, const JsonPath& where, JsonValidator& validator) {
  if (!validator.requireObject(value, where)) return std::nullopt;
  std::vector<JobIssue> issues;
  JobConfig::fromJson(value, issues);
  report(issues, where, validator);
  // A lesson or a lab is a file anyone can hand out: naming machines would make the app
  // connect over ssh, with the learner's keys, to hosts its author chose. Only the
  // learner chooses them (the experiment form, shardlab-run --hostfile).
  const bool namesHosts = value.contains("hostfile") && !(value["hostfile"].is_string() && value["hostfile"].get<std::string>().empty());
  if (namesHosts)
    validator.error(where / "hostfile", "hostfile-in-spec",
                    "a lesson or lab cannot choose the machines its runs go to; leave hostfile out (the learner "
                    "sets one in the experiment form)");
  if (!issues.empty() || namesHosts) return std::nullopt;
  JobSpec spec;
  spec.settings_ = value;
  return spec;
}

bool JobSpec::checkConsistency(const JsonPath& where, JsonValidator& validator) const {
  const auto issues = config().validate();
  report(issues, where, validator);
  return issues.empty();
}

JobSpec JobSpec::withSettings(const nlohmann::json& settings) const {
  JobSpec out = *this;
  for (const auto& [key, value] : settings.items()) out.settings_[key] = value;
  return out;
}

JobConfig JobSpec::config() const {
  std::vector<JobIssue> issues;  // none: parse() accepted these settings
  return JobConfig::fromJson(settings_, issues);
}

} // namespace shardlab::quiz
