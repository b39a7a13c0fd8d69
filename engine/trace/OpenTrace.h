// Opens a trace of either kind: ShardLab's own line format (docs/trace-format.md) or a
// PyTorch profiler trace (docs/pytorch-traces.md), told apart by their first bytes. The
// one loading function of the command-line tools, so each reads both.
#pragma once

#include "trace/PytorchTrace.h"
#include "trace/TraceReader.h"

#include <optional>
#include <string>

namespace shardlab::trace {

struct OpenedTrace {
  ReadResult read;                      // a PyTorch trace that could not be read: error.line 0
  std::optional<ImportReport> imported; // set when the file (or folder) was a PyTorch trace
  bool ok() const { return read.ok(); }
  // "FILE:LINE: message" for a ShardLab trace, the importer's message (naming the file
  // and the rank) for a PyTorch one.
  std::string describeError(const std::string& path) const;
};

OpenedTrace openTrace(const std::string& path);

} // namespace shardlab::trace
