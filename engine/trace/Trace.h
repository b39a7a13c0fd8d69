// A whole run in memory: the job's configuration, each rank's metadata and every
// event. Built by TraceParser from the line format of docs/trace-format.md.
#pragma once

#include "job/JobConfig.h"
#include "trace/Event.h"
#include "trace/JobRecord.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace shardlab::trace {

struct RankInfo {
  int rank = -1;
  nlohmann::json meta; // host, device, device_name, pid, clock_offset_ns, ...
};

struct Trace {
  int version = 0;
  std::optional<JobRecord> job;   // the job record, read and checked; none when the trace has none
  std::vector<std::string> units; // unit names; Event::unit indexes this
  std::vector<RankInfo> ranks;    // by rank number; meta is null for a rank never seen
  std::vector<Event> events;      // in file order (per rank: time order)
  std::vector<std::string> texts; // failure messages; Event::text indexes this

  // Reads `record` as the trace's job record (JobRecord::read) and interns its units;
  // the error, naming the field, when it is not one (the trace's job is then unchanged).
  std::optional<std::string> setJob(nlohmann::json record);
  // The job's options (job->config); nullopt when the trace has no job record.
  std::optional<JobConfig> config() const;
  int rankCount() const;
  std::string unitName(int unit) const;
  int unitIndex(std::string_view name); // interns unknown names
  // The index of a unit already known ("-" is -1), or nullopt: nothing is interned.
  std::optional<int> findUnit(std::string_view name) const;
  const RankInfo* rankInfo(int rank) const;

private:
  // Heterogeneous lookup: a unit name read as a string_view needs no allocation.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, int, NameHash, std::equal_to<>> unitLookup_;
};

} // namespace shardlab::trace
