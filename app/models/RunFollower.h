// RunFollower: where the second run of a comparison is while the first is at t — the
// same step and the same time into that step — and one time span per step for both
// (the longer of the two steps), so both runs' views draw a step at the same seconds
// per pixel and lengths compare. One playhead (the first run's) drives both. No widgets.
#pragma once

#include "models/TraceModel.h"

#include <vector>

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
  };
  Window at(qint64 leadTime) const;

  // [first start, last end] of every step of a run, from its ops, collectives and idle
  // records; a step the run never reached is absent.
  struct StepRange {
    qint64 t0 = 0, t1 = 0;
  };
  static std::vector<StepRange> stepRanges(const TraceModel& model);

private:
  const std::vector<StepRange>& ranges(const TraceModel& model, quint64& generation, std::vector<StepRange>& cache) const;
  const TraceModel& lead_;
  const TraceModel& follower_;
  mutable quint64 leadGeneration_ = ~0ull, followerGeneration_ = ~0ull;
  mutable std::vector<StepRange> leadSteps_, followerSteps_;
};
