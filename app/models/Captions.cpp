#include "models/Captions.h"

#include "models/Format.h"

#include <QLocale>

#include <algorithm>
#include <bit>

namespace shardlab::app {

namespace st = shardlab::trace;

QString Captions::describe(const TraceModel& model, int i) {
  if (i < 0 || i >= model.eventCount()) return {};
  const auto& e = model.event(i);
  const QString unit = model.unitName(e.unit);
  const QString dur = Format::duration(e.t1 - e.t0);
  const QString micro = e.micro >= 0 ? tr(" (micro-batch %1)").arg(e.micro) : QString();
  QList<int> others;
  int n = 0;
  for (int r = 0; r < 64; ++r)
    if (e.participants & (st::RankMask{1} << r)) {
      ++n;
      if (r != e.rank) others << r;
    }
  switch (e.record) {
  case st::Record::Op: {
    const QString computes = tr("Rank %1 computes %2 of %3%4 in step %5 — %6")
                                 .arg(e.rank)
                                 .arg(Format::kindName(e.kind), unit, micro)
                                 .arg(e.step)
                                 .arg(dur);
    // The op's CPU time against its wall time: the rest, the rank was ready but
    // another process held the core (docs/trace-format.md, CPU_NS).
    const qint64 coreWait = e.cpuNs >= 0 ? std::max<qint64>(0, e.t1 - e.t0 - e.cpuNs) : 0;
    if (coreWait * 10 < e.t1 - e.t0) return computes; // under a tenth: scheduling noise
    return tr("%1 · rank %2 waited %3 of it for a CPU core (CPU time %4)")
        .arg(computes)
        .arg(e.rank)
        .arg(Format::duration(coreWait), Format::duration(e.cpuNs));
  }
  case st::Record::Collective:
    switch (e.kind) {
    case st::Kind::AllGather:
      return tr("Rank %1 all-gathers %2: %n shard(s) of %3 from ranks %4 — %5", nullptr,
                static_cast<int>(others.size()))
          .arg(e.rank)
          .arg(unit, Format::bytes(n > 0 ? e.bytes / n : e.bytes), Format::rankList(others), dur);
    case st::Kind::ReduceScatter:
      return tr("Rank %1 reduce-scatters the gradients of %2: sends %n slice(s) of %3 to ranks %4 and keeps its own — %5",
                nullptr, static_cast<int>(others.size()))
          .arg(e.rank)
          .arg(unit, Format::bytes(n > 0 ? e.bytes / n : e.bytes), Format::rankList(others), dur);
    case st::Kind::AllReduce:
      return tr("Rank %1 all-reduces %2 of %3 with rank(s) %4: every rank ends with the sum — %5", nullptr,
                static_cast<int>(others.size()))
          .arg(e.rank)
          .arg(Format::bytes(e.bytes), unit, Format::rankList(others), dur);
    case st::Kind::Send:
      return tr("Rank %1 sends %2 (%3×%4) to rank %5%6 — %7")
          .arg(e.rank)
          .arg(Format::bytes(e.bytes))
          .arg(e.rows)
          .arg(e.cols)
          .arg(e.peer)
          .arg(micro, dur);
    case st::Kind::Recv:
      return tr("Rank %1 receives %2 (%3×%4) from rank %5%6 — %7")
          .arg(e.rank)
          .arg(Format::bytes(e.bytes))
          .arg(e.rows)
          .arg(e.cols)
          .arg(e.peer)
          .arg(micro, dur);
    default:
      return tr("Rank %1: %2 of %3, %4 — %5").arg(e.rank).arg(Format::kindName(e.kind), unit, Format::bytes(e.bytes), dur);
    }
  case st::Record::Idle:
    // Only a pipeline stage waiting for a neighbour's activation or gradient is a bubble;
    // waiting for a collective (DDP, FSDP, TP) is exposed communication.
    if (e.kind == st::Kind::WaitActivation || e.kind == st::Kind::WaitGradient)
      return tr("Rank %1 is idle, %2%3 — %4 of pipeline bubble").arg(e.rank).arg(Format::kindName(e.kind), micro, dur);
    return tr("Rank %1 is idle, %2%3 — %4 of exposed communication")
        .arg(e.rank)
        .arg(Format::kindName(e.kind), micro, dur);
  case st::Record::OutOfMemory:
    return tr("Rank %1 runs out of memory: %2 needs %3 more, it holds %4 and the budget is %5")
        .arg(e.rank)
        .arg(Format::categoryName(e.category) + (e.unit >= 0 ? tr(" of %1").arg(unit) : QString()), Format::bytes(e.bytes),
             Format::bytes(e.total), Format::bytes(e.value));
  case st::Record::Failure:
    return tr("Rank %1 failed: %2")
        .arg(e.rank)
        .arg(e.text < model.trace().texts.size() ? Format::failureReason(QString::fromStdString(model.trace().texts[e.text])) : QString());
  case st::Record::Step:
    return tr("Rank %1 finished step %2 (loss %3)").arg(e.rank).arg(e.step).arg(QLocale().toString(e.loss, 'f', 4));
  case st::Record::Memory:
    return tr("Rank %1 %2 %3 of %4 for %5; it now holds %6")
        .arg(e.rank)
        .arg(e.bytes >= 0 ? tr("allocates") : tr("frees"), Format::bytes(std::abs(e.bytes)), Format::categoryName(e.category),
             unit, Format::bytes(e.total));
  default: return {};
  }
}

int Captions::eventAt(const TraceModel& model, qint64 t) {
  // Prefer a collective running at t, then a running compute op, then idle; take
  // the latest one to start, lowest rank on ties. Failures win when reached.
  int best = -1;
  int bestPriority = -1;
  qint64 bestStart = INT64_MIN;
  for (int r = 0; r < model.rankCount(); ++r) {
    int priority = 3;
    for (auto lane : {TraceModel::Lane::Comm, TraceModel::Lane::Compute, TraceModel::Lane::Idle}) {
      --priority;
      const auto& v = model.lane(r, lane);
      auto it = std::upper_bound(v.begin(), v.end(), t, [&](qint64 time, int idx) { return time < model.event(idx).t0; });
      for (int k = 0; k < 8 && it != v.begin(); ++k) {
        --it;
        const auto& e = model.event(*it);
        if (e.t1 >= t) {
          if (priority > bestPriority || (priority == bestPriority && e.t0 > bestStart)) {
            best = *it;
            bestPriority = priority;
            bestStart = e.t0;
          }
          break;
        }
      }
    }
  }
  for (int i : model.failureEvents())
    if (model.event(i).t0 <= t) return i;
  return best;
}

} // namespace shardlab::app
