// The run's report: the measured summary with the trace replayed under the three
// modes (its replay section), what shardlab-run prints and writes with --summary-json.
// It sits above both halves: the replay measures its replayed traces with the summary
// (summarizeMeasured), so the summary cannot call the replay itself.
#pragma once

#include "trace/Summary.h"

namespace shardlab::trace {

// summarizeMeasured(trace) with `replay` = replayReport(trace) (trace/Replay.h).
Summary summarize(const Trace& trace);

} // namespace shardlab::trace
