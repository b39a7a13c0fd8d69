// RunFigures: what a comparison lesson is about, for one run: step time, exposed
// communication, the bubble as measured and as the schedule alone costs it (a replay
// of the run with communication free, docs/replay.md), peak and persistent memory and
// the memory budget. Every figure comes from the recorded trace (summarizeMeasured) or
// from a replay of it (trace::measureTimes on trace::replayedTrace). No widgets.
#pragma once

#include "models/TraceModel.h"

#include <optional>
#include <vector>

namespace shardlab::app {

struct RunFigures {
  double stepS = 0.0;                          // mean steady step, slowest rank (measured)
  double exposedCommS = 0.0;                   // whole run, mean over ranks (measured)
  std::optional<double> bubble;                // pipeline runs: idle / stage time (measured)
  std::optional<double> scheduleAloneStepS;    // the same step time replayed with communication free
  std::optional<double> scheduleAloneBubble;   // the bubble of that replay: what the schedule alone costs
  qint64 peakBytes = 0;                        // highest rank's peak
  qint64 persistentBytes = 0;                  // highest rank's holding at the end of its last step
  qint64 budgetBytes = 0;                      // the job's memory budget per rank; 0: none
  bool outOfMemory = false;                    // a rank ran past the budget
  // Out of memory: what the first rank to report it needed, its oom record's holding plus
  // the allocation refused (above the budget), and that allocation alone.
  qint64 neededBytes = 0;
  qint64 refusedBytes = 0;
};

// One rank's out-of-memory record: what it held and the allocation it was refused.
struct RefusedAllocation {
  int rank = 0;
  qint64 heldBytes = 0;    // HOLDING of the oom record
  qint64 refusedBytes = 0; // NEEDED: the allocation that would have passed the budget
  qint64 budgetBytes = 0;
};
// Every rank's oom record of the run, in rank order (a rank that was stopped before it
// reported has none).
std::vector<RefusedAllocation> refusedAllocations(const TraceModel& model);

// The figures of the measured run of `model` (not of a replay shown in its place).
// Costs a replay of the whole run: call it once a run has ended, not per frame.
RunFigures runFigures(const TraceModel& model);

} // namespace shardlab::app
