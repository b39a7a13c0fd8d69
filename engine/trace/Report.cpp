#include "trace/Report.h"

#include "trace/Replay.h"

namespace shardlab::trace {

Summary summarize(const Trace& trace) {
  Summary s = summarizeMeasured(trace);
  s.replay = replayReport(trace);
  return s;
}

} // namespace shardlab::trace
