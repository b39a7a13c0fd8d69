// The replay: a recorded trace's dependency graph run again with each op's measured
// time and a chosen cost for communication (docs/replay.md). It is a computation on
// a real trace, never a simulation with invented durations, and every result and
// replayed trace says it is a replay and of which mode.
#pragma once

#include "trace/ReplayReport.h"
#include "trace/Trace.h"

#include <optional>

namespace shardlab::trace {

// The breakdown alone (the app's pipeline header); none for other strategies or
// before a step completed.
std::optional<BubbleBreakdown> bubbleBreakdown(const Trace& measured);

// The three modes' results (the summary's `replay` section).
ReplayReport replayReport(const Trace& measured);

// Step time (steady steps, slowest rank), exposed communication (mean over ranks) and
// bubble of any trace, measured exactly as each mode's result is measured on its replayed
// trace: the measured run's own figures, to set beside a replay's (the app's comparison).
// `mode` of the result is left at its default and means nothing here.
ReplayResult measureTimes(const Trace& trace);

// The replayed trace of one mode: same format, its job record marked
// {"replay": {"mode": ..., ...}}; `report` gets the notes and fitted model.
Trace replayedTrace(const Trace& measured, ReplayMode mode, ReplayReport* report = nullptr);

} // namespace shardlab::trace
