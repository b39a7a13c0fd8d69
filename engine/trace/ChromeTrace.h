// Exports a trace to the Chrome Trace Event format (Perfetto, chrome://tracing):
// one process per rank, one thread per stream, counter tracks for memory.
#pragma once

#include "trace/Trace.h"

#include <ostream>

namespace shardlab::trace {

void writeChromeTrace(const Trace& trace, std::ostream& out);

} // namespace shardlab::trace
