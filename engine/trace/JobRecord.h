// A trace's `job` record (docs/trace-format.md), typed: read and checked once, when the
// trace is read, so that no reader sizes anything from a value it has not checked.
#pragma once

#include "job/Calibration.h"
#include "job/JobConfig.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace shardlab::trace {

// The model the job trained, as the record describes it (JobConfig::modelJson()).
struct ModelRecord {
  std::vector<std::string> units;           // unit names in order; Event::unit indexes them
  std::vector<std::int64_t> unitParameters; // parameters per unit; empty when not recorded
  std::int64_t parameters = 0;              // 0 when not recorded
  std::int64_t bytes = 0;                   // the parameters' bytes; 0 when not recorded
};

// How Open MPI was told to run the collectives (docs/trace-format.md, "Bytes on the wire").
struct CollectiveAlgorithms {
  std::string choice;                                      // "ring" or "open-mpi"
  std::vector<std::pair<std::string, std::string>> mca;    // coll/tuned MCA parameter, value
};

// A trace made from another program's trace (the `imported` key): what it came from.
// ShardLab's own runs have none.
struct ImportedRecord {
  std::string source;             // "pytorch-profiler"
  std::vector<std::string> files; // the files read, one per rank
  std::string backend;            // the process group's backend ("gloo", "nccl"); empty when not said
  std::int64_t mapped = 0;        // profiler events that became records or parts of one
  std::int64_t notMapped = 0;     // profiler events not mapped (listed by name under not_mapped)
};

struct JobRecord {
  JobConfig config;                         // the options; keys an older trace lacks take today's defaults
  ModelRecord model;
  std::string command;                      // the exact mpirun command line; empty when not recorded
  std::optional<Calibration> calibration;   // what the machine measured; none when the probe failed
  std::optional<CollectiveAlgorithms> collectiveAlgorithms; // none: traces before it; Open MPI chose
  std::string shardlabVersion;              // empty when not recorded
  std::string startedAt;                    // ISO 8601, UTC; empty when not recorded
  std::optional<ImportedRecord> imported;   // none: a ShardLab run; else what it was imported from
  // The record as written in the trace, for the tools that write it out again
  // (shardlab-replay adds its `replay` tag, the Chrome export copies it). Readers use
  // the typed fields above.
  nlohmann::json written;

  // Reads and checks a record: a wrong type, an option out of its bounds
  // (JobConfig::validateSizes) or a malformed model, calibration or command is an error
  // naming the field ("layers: ... must be between 1 and 100000"). Keys this version
  // does not know are kept in `written` only.
  static std::variant<JobRecord, std::string> read(nlohmann::json record);
};

} // namespace shardlab::trace
