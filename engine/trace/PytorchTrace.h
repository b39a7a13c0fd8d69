// Reads a PyTorch profiler trace (Kineto's Chrome trace JSON, `*.pt.trace.json`,
// gzipped or not, or a folder of one such file per rank) into a ShardLab Trace, marked
// as imported in its job record. docs/pytorch-traces.md has the mapping table and what
// such a trace cannot tell. Whatever is not mapped is counted by name and listed, never
// dropped silently.
#pragma once

#include "trace/Trace.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shardlab::trace {

// What the importer did with the profiler's events.
struct ImportReport {
  std::vector<std::string> files; // one per rank, in rank order
  std::string backend;            // distributedInfo.backend ("gloo", "nccl"); empty without it
  std::string strategy;           // "ddp", "fsdp" (from FSDP's record_function names), or ""
  bool gpu = false;               // the trace has GPU kernels: compute and NCCL from the device
  long eventsRead = 0;            // every traceEvents entry of every file
  long mapped = 0;                // entries that became records, or parts of one (an op's inner ops)
  // Entries not mapped, "name: why" -> how many (over all ranks).
  std::map<std::string, long> notMapped;
  long notMappedCount() const;
  // "12 of 3410 profiler events not mapped: 6 x Record Window End: a profiler marker, ..."
  std::string describe() const;
};

struct PytorchImport {
  Trace trace;
  ImportReport report;
  std::optional<std::string> error; // names the file (and the rank); the trace is then empty
  bool ok() const { return !error.has_value(); }
};

// The largest trace file read, uncompressed: past it the file is refused, not parsed.
inline constexpr std::int64_t kMaxPytorchTraceBytes = std::int64_t{1} << 30;

// Whether `path` is a folder, or a file that starts with '{' or gzip's magic (a Chrome
// trace), rather than ShardLab's own line format (docs/trace-format.md).
bool looksLikePytorchTrace(const std::string& path);

// Reads one file (a single rank, or a job without distributedInfo: one rank) or a
// folder of `*.json` / `*.json.gz` files, one per rank.
PytorchImport importPytorchTrace(const std::string& path);

} // namespace shardlab::trace
