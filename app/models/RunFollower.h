// RunFollower: where the second run of a comparison is while the first is at t — the
// same step and the same time into that step — and one time span per step for both
// (the longer of the two steps), so both runs' views draw a step at the same seconds
// per pixel and lengths compare. One playhead (the first run's) drives both; once the
// first run has ended, the second plays on to its own end (end()). No widgets.
#pragma once

#include "models/TraceModel.h"

#include <vector>

namespace shardlab::app {

class RunFollower {
public:
  RunFollower(const TraceModel& lead, const TraceModel& follower) : lead_(lead), follower_(follower) {}

  // What both runs show while the lead run is at `leadTime`.
  struct Window {
    int step = -1;             // the lead's step at leadTime (-1: before its first step)
    qint64 leadStart = 0;      // where that step begins in the lead run
    qint64 followerStart = 0;  // where the same step begins in the follower run
    qint64 span = 1;           // the longer of the two steps (ns): the common time scale
    qint64 followerTime = 0;   // the same time into the step in the follower run
    bool leadEnded = false;    // past the lead's end: the follower plays on alone (followerStart: its own step)
  };
  // Past the lead's end (an out-of-memory run that stopped at once), the follower goes on
  // at its own pace from where it was, to its own end: see end().
  Window at(qint64 leadTime) const;
  // Where the comparison's playhead ends, on the lead's clock: the lead's last instant, or
  // later by what the follower still has to play once the lead has ended. Both runs play to
  // their own ends, so the comparison covers the union of the two runs.
  qint64 end() const;
  // The lead's time for a time of the follower shown in window `w` (a click on the
  // follower's timeline): the inverse of at().
  qint64 leadTimeOf(qint64 followerTime, const Window& w) const;

  // [first start, last end] of every step of a run, from its ops, collectives and idle
  // records; a step the run never reached is absent.
  struct StepRange {
    qint64 t0 = 0, t1 = 0;
  };
  static std::vector<StepRange> stepRanges(const TraceModel& model);

private:
  Window aligned(qint64 leadTime) const; // at() while the lead has not ended
  const std::vector<StepRange>& ranges(const TraceModel& model, quint64& generation, std::vector<StepRange>& cache) const;
  const TraceModel& lead_;
  const TraceModel& follower_;
  mutable quint64 leadGeneration_ = ~0ull, followerGeneration_ = ~0ull;
  mutable std::vector<StepRange> leadSteps_, followerSteps_;
};

} // namespace shardlab::app
