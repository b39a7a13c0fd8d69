#include "trace/Trace.h"

namespace shardlab::trace {

std::optional<JobConfig> Trace::config() const {
  if (!job.is_object()) return std::nullopt;
  std::vector<JobIssue> ignored;  // a value this version cannot read keeps its default
  return JobConfig::fromJson(job, ignored, JobConfig{}, JobConfig::OtherKeys::Skip);
}

int Trace::rankCount() const {
  // A damaged job record may say anything: only a count a rank record could have is taken
  // (the reader accepts ranks 0..63).
  if (job.is_object() && job.contains("ranks") && job["ranks"].is_number_integer()) {
    const auto n = job["ranks"].get<std::int64_t>();
    if (n >= 1 && n <= 64) return static_cast<int>(n);
  }
  return static_cast<int>(ranks.size());
}

std::string Trace::unitName(int unit) const {
  if (unit < 0 || unit >= static_cast<int>(units.size())) return "-";
  return units[static_cast<std::size_t>(unit)];
}

int Trace::unitIndex(std::string_view name) {
  if (name == "-") return -1;
  auto it = unitLookup_.find(name);
  if (it != unitLookup_.end()) return it->second;
  // A trace may name units before (or without) the job line: intern them.
  if (unitLookup_.empty() && !units.empty())
    for (std::size_t i = 0; i < units.size(); ++i) unitLookup_.emplace(units[i], static_cast<int>(i));
  it = unitLookup_.find(name);
  if (it != unitLookup_.end()) return it->second;
  units.emplace_back(name);
  int index = static_cast<int>(units.size()) - 1;
  unitLookup_.emplace(std::string(name), index);
  return index;
}

const RankInfo* Trace::rankInfo(int rank) const {
  if (rank < 0 || rank >= static_cast<int>(ranks.size())) return nullptr;
  return &ranks[static_cast<std::size_t>(rank)];
}

} // namespace shardlab::trace
