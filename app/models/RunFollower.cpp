#include "models/RunFollower.h"

#include <algorithm>

namespace shardlab::app {

namespace st = shardlab::trace;

std::vector<RunFollower::StepRange> RunFollower::stepRanges(const TraceModel& model) {
  std::vector<StepRange> steps;
  std::vector<bool> seen;
  for (int i = 0; i < model.eventCount(); ++i) {
    const auto& e = model.event(i);
    if (e.step < 0 || (e.record != st::Record::Op && e.record != st::Record::Collective && e.record != st::Record::Idle))
      continue;
    const auto s = static_cast<std::size_t>(e.step);
    if (s >= steps.size()) {
      steps.resize(s + 1);
      seen.resize(s + 1, false);
    }
    if (!seen[s]) {
      steps[s] = {e.t0, e.t1};
      seen[s] = true;
    } else {
      steps[s].t0 = std::min<qint64>(steps[s].t0, e.t0);
      steps[s].t1 = std::max<qint64>(steps[s].t1, e.t1);
    }
  }
  // Steps are numbered from 0 with none skipped; a hole would be a damaged trace: cut there.
  const auto hole = std::find(seen.begin(), seen.end(), false);
  steps.resize(static_cast<std::size_t>(hole - seen.begin()));
  return steps;
}

const std::vector<RunFollower::StepRange>& RunFollower::ranges(const TraceModel& model, quint64& generation,
                                                               std::vector<StepRange>& cache) const {
  if (generation != model.generation()) {
    cache = stepRanges(model);
    generation = model.generation();
  }
  return cache;
}

qint64 RunFollower::end() const {
  const qint64 leadEnd = std::max(lead_.endTime(), lead_.startTime());
  // No second run (or one not started): nothing to add, and nothing to walk while the first streams.
  if (follower_.eventCount() == 0) return leadEnd;
  const qint64 followerEnd = std::max(follower_.endTime(), follower_.startTime());
  return leadEnd + std::max<qint64>(0, followerEnd - aligned(leadEnd).followerTime);
}

RunFollower::Window RunFollower::at(qint64 leadTime) const {
  const qint64 leadEnd = std::max(lead_.endTime(), lead_.startTime());
  if (leadTime <= leadEnd || follower_.eventCount() == 0) return aligned(leadTime);
  // The lead has ended: the lead's views keep its last instant and window; the follower
  // goes on from where it was at the lead's end, at its own pace, showing its own step.
  Window w = aligned(leadEnd);
  w.leadEnded = true;
  const qint64 followerEnd = std::max(follower_.endTime(), follower_.startTime());
  w.followerTime = std::min(followerEnd, w.followerTime + (leadTime - leadEnd));
  const auto& a = ranges(lead_, leadGeneration_, leadSteps_);
  const auto& b = ranges(follower_, followerGeneration_, followerSteps_);
  int s = -1;
  for (std::size_t k = 0; k < b.size() && b[k].t0 <= w.followerTime; ++k) s = static_cast<int>(k);
  if (s >= 0) {
    const auto k = static_cast<std::size_t>(s);
    const qint64 spanA = w.step >= 0 ? a[static_cast<std::size_t>(w.step)].t1 - a[static_cast<std::size_t>(w.step)].t0
                                     : leadEnd - w.leadStart;
    w.followerStart = b[k].t0;
    w.span = std::max<qint64>({1, spanA, b[k].t1 - b[k].t0});
  }
  return w;
}

qint64 RunFollower::leadTimeOf(qint64 followerTime, const Window& w) const {
  const qint64 same = w.leadStart + (followerTime - w.followerStart);
  if (follower_.eventCount() == 0) return same;
  const qint64 leadEnd = std::max(lead_.endTime(), lead_.startTime());
  const qint64 followerAtEnd = aligned(leadEnd).followerTime;
  // Where the follower plays on alone, its time maps one to one past the lead's end.
  if (followerTime > followerAtEnd && (w.leadEnded || same > leadEnd)) return leadEnd + (followerTime - followerAtEnd);
  return same;
}

RunFollower::Window RunFollower::aligned(qint64 leadTime) const {
  const auto& a = ranges(lead_, leadGeneration_, leadSteps_);
  const auto& b = ranges(follower_, followerGeneration_, followerSteps_);
  Window w;
  // The lead's step: the last one that began at or before leadTime.
  for (std::size_t s = 0; s < a.size() && a[s].t0 <= leadTime; ++s) w.step = static_cast<int>(s);
  if (w.step < 0) {
    // Before the first step (setup): both from their start, at the first step's scale.
    w.leadStart = lead_.startTime();
    w.followerStart = follower_.startTime();
    const qint64 spanA = a.empty() ? 0 : a[0].t1 - w.leadStart;
    const qint64 spanB = b.empty() ? 0 : b[0].t1 - w.followerStart;
    w.span = std::max<qint64>({1, spanA, spanB});
  } else {
    const auto s = static_cast<std::size_t>(w.step);
    w.leadStart = a[s].t0;
    const qint64 spanA = a[s].t1 - a[s].t0;
    // A step the follower never reached (it stopped earlier): its last instant.
    if (s < b.size()) {
      w.followerStart = b[s].t0;
      w.span = std::max<qint64>({1, spanA, b[s].t1 - b[s].t0});
    } else {
      w.followerStart = b.empty() ? follower_.startTime() : b.back().t0;
      w.span = std::max<qint64>({1, spanA, b.empty() ? 0 : b.back().t1 - b.back().t0});
    }
  }
  // The same time into the step, held at the follower's step end while the lead's step
  // lasts longer; a step the follower never reached: its last recorded instant.
  const qint64 into = std::max<qint64>(0, leadTime - w.leadStart);
  const qint64 followerEnd = std::max(follower_.endTime(), follower_.startTime());
  if (w.step < 0) w.followerTime = std::min(w.followerStart + into, b.empty() ? followerEnd : b[0].t0);
  else if (static_cast<std::size_t>(w.step) < b.size())
    w.followerTime = std::min(w.followerStart + into, b[static_cast<std::size_t>(w.step)].t1);
  else w.followerTime = followerEnd;
  return w;
}

} // namespace shardlab::app
