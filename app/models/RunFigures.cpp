#include "models/RunFigures.h"

#include "trace/Replay.h"

#include <algorithm>

namespace shardlab::app {

namespace st = shardlab::trace;

RunFigures runFigures(const TraceModel& model) {
  RunFigures f;
  const st::Trace& measured = model.measured();
  if (measured.events.empty()) return f;
  const st::Summary s = st::summarizeMeasured(measured);
  const st::ReplayResult times = st::measureTimes(measured);
  f.stepS = times.stepS;
  f.exposedCommS = times.exposedCommS;
  f.bubble = times.bubble;
  for (const auto& r : s.ranksDetail) {
    f.peakBytes = std::max<qint64>(f.peakBytes, r.peakBytes);
    f.persistentBytes = std::max<qint64>(f.persistentBytes, r.persistentBytes);
  }
  if (const auto& config = model.config()) f.budgetBytes = config->memoryBudget;
  if (s.outOfMemory) {
    f.outOfMemory = true;
    if (s.outOfMemory->budget > 0) f.budgetBytes = s.outOfMemory->budget;
    f.refusedBytes = s.outOfMemory->needed;
    f.neededBytes = s.outOfMemory->holding + s.outOfMemory->needed;
  }
  // A run stopped by a failure has no steady steps to replay.
  // An imported trace is not replayed (trace::notReplayable says why).
  if (!s.outOfMemory && s.stepsCompleted > 0 && !st::notReplayable(measured)) {
    const st::ReplayResult alone = st::measureTimes(st::replayedTrace(measured, st::ReplayMode::ScheduleAlone));
    f.scheduleAloneStepS = alone.stepS;
    f.scheduleAloneBubble = alone.bubble;
  }
  return f;
}

std::vector<RefusedAllocation> refusedAllocations(const TraceModel& model) {
  std::vector<RefusedAllocation> out;
  const st::Trace& measured = model.measured();
  for (const auto& e : measured.events) {
    if (e.record != st::Record::OutOfMemory) continue;
    // A rank's first report: it stops there.
    if (std::any_of(out.begin(), out.end(), [&](const RefusedAllocation& r) { return r.rank == e.rank; })) continue;
    out.push_back({e.rank, e.total, e.bytes, e.value});
  }
  std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.rank < y.rank; });
  return out;
}

} // namespace shardlab::app
