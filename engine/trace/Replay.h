// The replay: a recorded trace's dependency graph run again with each op's measured
// time and a chosen cost for communication (docs/replay.md). It is a computation on
// a real trace, never a simulation with invented durations, and every result and
// replayed trace says it is a replay and of which mode.
#pragma once

#include "trace/ReplayReport.h"
#include "trace/Trace.h"

#include <optional>
#include <string>

namespace shardlab::trace {

// The breakdown alone (the app's pipeline header); none for other strategies or
// before a step completed.
std::optional<BubbleBreakdown> bubbleBreakdown(const Trace& measured);

// Why `measured` cannot be replayed, in words; none when it can. A trace imported from
// a PyTorch profiler trace cannot: it records no wait for a collective (the graph would
// let compute run past every one), its ops are hundreds of different aten ops that the
// replay's cost (the fastest op of the same kind and unit) would all give one op's time,
// and the time between them (Python, the framework) is not in any record, so a replay
// of it would not be that run (docs/pytorch-traces.md, "The replay").
std::optional<std::string> notReplayable(const Trace& measured);

// The three modes' results (the summary's `replay` section); none of them, with
// `notReplayed` set, for a trace notReplayable() refuses.
ReplayReport replayReport(const Trace& measured);

// Step time (steady steps, slowest rank), exposed communication (mean over ranks) and
// bubble of any trace, measured exactly as each mode's result is measured on its replayed
// trace: the measured run's own figures, to set beside a replay's (the app's comparison).
// `mode` of the result is left at its default and means nothing here.
ReplayResult measureTimes(const Trace& trace);

// The replayed trace of one mode: same format, its job record marked
// {"replay": {"mode": ..., ...}}; `report` gets the notes and fitted model. Callers
// check notReplayable() first: for such a trace the result means nothing.
Trace replayedTrace(const Trace& measured, ReplayMode mode, ReplayReport* report = nullptr);

} // namespace shardlab::trace
