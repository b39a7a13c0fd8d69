#include "trace/Trace.h"

#include <algorithm>

namespace shardlab::trace {

std::optional<std::string> Trace::setJob(nlohmann::json record) {
  auto read = JobRecord::read(std::move(record));
  if (auto* error = std::get_if<std::string>(&read)) return std::move(*error);
  job = std::get<JobRecord>(std::move(read));
  for (const auto& u : job->model.units) unitIndex(u);
  return std::nullopt;
}

std::optional<JobConfig> Trace::config() const {
  if (!job) return std::nullopt;
  return job->config;
}

int Trace::rankCount() const {
  // The record's count is checked (1 to 64) when it is read; a record without one (a
  // hand-written trace) would otherwise give today's default.
  if (job && job->written.contains("ranks")) return job->config.ranks;
  return static_cast<int>(ranks.size());
}

std::string Trace::unitName(int unit) const {
  if (unit < 0 || unit >= static_cast<int>(units.size())) return "-";
  return units[static_cast<std::size_t>(unit)];
}

std::optional<int> Trace::findUnit(std::string_view name) const {
  if (name == "-") return -1;
  if (auto it = unitLookup_.find(name); it != unitLookup_.end()) return it->second;
  // Units set without the lookup (before unitIndex first filled it).
  if (unitLookup_.empty())
    if (auto it = std::find(units.begin(), units.end(), name); it != units.end())
      return static_cast<int>(it - units.begin());
  return std::nullopt;
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
