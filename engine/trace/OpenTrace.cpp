#include "trace/OpenTrace.h"

namespace shardlab::trace {

std::string OpenedTrace::describeError(const std::string& path) const {
  if (!read.error) return {};
  if (imported) return read.error->message;
  return read.error->describe(path);
}

OpenedTrace openTrace(const std::string& path) {
  OpenedTrace out;
  if (!looksLikePytorchTrace(path)) {
    out.read = readTraceFile(path);
    return out;
  }
  auto imported = importPytorchTrace(path);
  out.read.trace = std::move(imported.trace);
  if (imported.error) out.read.error = ReadError{0, *imported.error};
  out.imported = std::move(imported.report);
  return out;
}

} // namespace shardlab::trace
