// libFuzzer target: the job spec parser (engine/job/JobConfig: fromJson + validate),
// as `shardlab-run --spec FILE` and the quiz's lessons and labs read it. A spec that
// reads without issues must validate, and must read back the same from its own JSON.
#include "job/JobConfig.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

using namespace shardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto j = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return 0;
  std::vector<JobIssue> issues;
  const JobConfig c = JobConfig::fromJson(j, issues);
  for (const auto& i : issues) (void)i.message();
  const auto rules = c.validate();
  for (const auto& i : rules) (void)i.message();
  if (!issues.empty()) return 0;
  // Its own JSON reads back without issues, to the same JSON.
  const auto out = c.toJson();
  std::vector<JobIssue> again;
  const JobConfig d = JobConfig::fromJson(out, again);
  if (!again.empty() || d.toJson() != out) std::abort();
  if (rules.empty()) {
    (void)c.unitNames();
    (void)c.parameterCount();
    (void)c.modelJson();
  }
  return 0;
}
