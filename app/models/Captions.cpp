#include "models/Captions.h"

#include "models/RunEnding.h"
#include "views/Palette.h"

#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <bit>

namespace st = shardlab::trace;

QString Captions::failureReason(const QString& reason) {
  static const QRegularExpression exited(QStringLiteral("^exited with status (-?\\d+)$"));
  static const QRegularExpression killed(QStringLiteral("^killed by signal (\\d+)(?: \\((.*)\\))?$"));
  static const QRegularExpression aborted(QStringLiteral("^stopped the job \\(MPI_Abort, error code (-?\\d+)\\)$"));
  if (const auto m = exited.match(reason); m.hasMatch()) return tr("exited with status %1").arg(m.captured(1));
  if (const auto m = killed.match(reason); m.hasMatch())
    return m.captured(2).isEmpty() ? tr("killed by signal %1").arg(m.captured(1))
                                   : tr("killed by signal %1 (%2)").arg(m.captured(1), m.captured(2));
  if (const auto m = aborted.match(reason); m.hasMatch()) return tr("stopped the job (MPI_Abort, error code %1)").arg(m.captured(1));
  // The engine's out-of-memory report: summarize()'s ("needs X (CATEGORY of UNIT)") and the
  // worker's exception ("needs X for CATEGORY of UNIT").
  static const QRegularExpression oom(QStringLiteral(
      "^out of memory on rank (\\d+): needs (.+?) (?:\\((\\w+)(?: of (\\S+))?\\)|for (\\w+)(?: of (\\S+))?), budget (.+?), holding (.+)$"));
  if (const auto m = oom.match(reason); m.hasMatch()) {
    const bool summary = !m.captured(3).isEmpty();
    const QString categoryName = m.captured(summary ? 3 : 5), unit = m.captured(summary ? 4 : 6);
    const auto category = st::categoryFromString(categoryName.toStdString());
    const QString what = category ? Palette::categoryName(*category) : categoryName;
    return tr("out of memory on rank %1: needs %2 for %3, budget %4, holding %5")
        .arg(m.captured(1), localBytes(m.captured(2)), unit.isEmpty() ? what : tr("%1 of %2").arg(what, unit),
             localBytes(m.captured(7)), localBytes(m.captured(8)));
  }
  // The hang watchdog's: "collective timeout: all_reduce of output in step 2 has not
  // finished after 2 s (collective_timeout); its flight recorder is in the trace".
  static const QRegularExpression timeout(QStringLiteral(
      "^collective timeout: (\\w+)(?: (from|to) rank (\\d+))?(?: of (\\S+))?(?: in step (\\d+))?(?: \\(micro-batch "
      "(\\d+)\\))? has not finished after ([\\d.e+-]+) s \\(collective_timeout\\); its flight recorder is in the trace$"));
  if (const auto m = timeout.match(reason); m.hasMatch()) {
    if (const auto kind = st::kindFromString(m.captured(1).toStdString())) {
      const QString call = RunEnding::callText(*kind, m.captured(4), m.captured(5).isEmpty() ? -1 : m.captured(5).toInt(),
                                               m.captured(6).isEmpty() ? -1 : m.captured(6).toInt(),
                                               m.captured(3).isEmpty() ? -1 : m.captured(3).toInt());
      return tr("hang: %1 had not finished after %2 s (Hang timeout in the Experiment form); its flight recorder is in "
                "the trace")
          .arg(call, QLocale().toString(m.captured(7).toDouble()));
    }
  }
  return reason;
}

QString Captions::localBytes(const QString& english) {
  // "129.2 KiB" as formatBytes() wrote it, in this language: "129,2 Kio".
  const qsizetype space = english.lastIndexOf(QLatin1Char(' '));
  if (space < 0) return english;
  const QString number = english.left(space), unit = english.mid(space + 1);
  bool ok = false;
  const double value = number.toDouble(&ok);
  if (!ok) return english;
  const qsizetype dot = number.indexOf(QLatin1Char('.'));
  const QString shown = dot < 0 ? QLocale().toString(number.toLongLong()).remove(QLocale().groupSeparator())
                                : QLocale().toString(value, 'f', static_cast<int>(number.size() - dot - 1));
  const QString localUnit = unit == QLatin1String("KiB")   ? tr("KiB")
                            : unit == QLatin1String("MiB") ? tr("MiB")
                            : unit == QLatin1String("GiB") ? tr("GiB")
                            : unit == QLatin1String("B")   ? tr("B")
                                                           : unit;
  return shown + QLatin1Char(' ') + localUnit;
}

QString Captions::bytes(qint64 b) {
  // summarize()'s figure ("1.50 MiB"), in this language: "1,50 Mio", "1,50 МиБ".
  return localBytes(QString::fromStdString(st::formatBytes(b)));
}

QString Captions::duration(qint64 ns) {
  const QLocale locale;
  if (ns < 1000) return tr("%1 ns").arg(ns);
  if (ns < 1000000) return tr("%1 µs").arg(locale.toString(static_cast<double>(ns) / 1e3, 'f', 1));
  if (ns < 1000000000) return tr("%1 ms").arg(locale.toString(static_cast<double>(ns) / 1e6, 'f', 2));
  return tr("%1 s").arg(locale.toString(static_cast<double>(ns) / 1e9, 'f', 3));
}

QString Captions::rankList(const QList<int>& ranks) {
  QStringList s;
  for (int r : ranks) s << QString::number(r);
  if (s.size() <= 1) return s.join(QString());
  const QString last = s.takeLast();
  return tr("%1 and %2").arg(s.join(QStringLiteral(", ")), last);
}

QString Captions::describe(const TraceModel& model, int i) {
  if (i < 0 || i >= model.eventCount()) return {};
  const auto& e = model.event(i);
  const QString unit = model.unitName(e.unit);
  const QString dur = duration(e.t1 - e.t0);
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
                                 .arg(Palette::kindName(e.kind), unit, micro)
                                 .arg(e.step)
                                 .arg(dur);
    // The op's CPU time against its wall time: the rest, the rank was ready but
    // another process held the core (docs/trace-format.md, CPU_NS).
    const qint64 coreWait = e.cpuNs >= 0 ? std::max<qint64>(0, e.t1 - e.t0 - e.cpuNs) : 0;
    if (coreWait * 10 < e.t1 - e.t0) return computes; // under a tenth: scheduling noise
    return tr("%1 · rank %2 waited %3 of it for a CPU core (CPU time %4)")
        .arg(computes)
        .arg(e.rank)
        .arg(duration(coreWait), duration(e.cpuNs));
  }
  case st::Record::Collective:
    switch (e.kind) {
    case st::Kind::AllGather:
      return tr("Rank %1 all-gathers %2: %n shard(s) of %3 from ranks %4 — %5", nullptr,
                static_cast<int>(others.size()))
          .arg(e.rank)
          .arg(unit, bytes(n > 0 ? e.bytes / n : e.bytes), rankList(others), dur);
    case st::Kind::ReduceScatter:
      return tr("Rank %1 reduce-scatters the gradients of %2: sends %n slice(s) of %3 to ranks %4 and keeps its own — %5",
                nullptr, static_cast<int>(others.size()))
          .arg(e.rank)
          .arg(unit, bytes(n > 0 ? e.bytes / n : e.bytes), rankList(others), dur);
    case st::Kind::AllReduce:
      return tr("Rank %1 all-reduces %2 of %3 with rank(s) %4: every rank ends with the sum — %5", nullptr,
                static_cast<int>(others.size()))
          .arg(e.rank)
          .arg(bytes(e.bytes), unit, rankList(others), dur);
    case st::Kind::Send:
      return tr("Rank %1 sends %2 (%3×%4) to rank %5%6 — %7")
          .arg(e.rank)
          .arg(bytes(e.bytes))
          .arg(e.rows)
          .arg(e.cols)
          .arg(e.peer)
          .arg(micro, dur);
    case st::Kind::Recv:
      return tr("Rank %1 receives %2 (%3×%4) from rank %5%6 — %7")
          .arg(e.rank)
          .arg(bytes(e.bytes))
          .arg(e.rows)
          .arg(e.cols)
          .arg(e.peer)
          .arg(micro, dur);
    default:
      return tr("Rank %1: %2 of %3, %4 — %5").arg(e.rank).arg(Palette::kindName(e.kind), unit, bytes(e.bytes), dur);
    }
  case st::Record::Idle:
    // Only a pipeline stage waiting for a neighbour's activation or gradient is a bubble;
    // waiting for a collective (DDP, FSDP, TP) is exposed communication.
    if (e.kind == st::Kind::WaitActivation || e.kind == st::Kind::WaitGradient)
      return tr("Rank %1 is idle, %2%3 — %4 of pipeline bubble").arg(e.rank).arg(Palette::kindName(e.kind), micro, dur);
    return tr("Rank %1 is idle, %2%3 — %4 of exposed communication")
        .arg(e.rank)
        .arg(Palette::kindName(e.kind), micro, dur);
  case st::Record::OutOfMemory:
    return tr("Rank %1 runs out of memory: %2 needs %3 more, it holds %4 and the budget is %5")
        .arg(e.rank)
        .arg(Palette::categoryName(e.category) + (e.unit >= 0 ? tr(" of %1").arg(unit) : QString()), bytes(e.bytes),
             bytes(e.total), bytes(e.value));
  case st::Record::Failure:
    return tr("Rank %1 failed: %2")
        .arg(e.rank)
        .arg(e.text < model.trace().texts.size() ? failureReason(QString::fromStdString(model.trace().texts[e.text])) : QString());
  case st::Record::Step:
    return tr("Rank %1 finished step %2 (loss %3)").arg(e.rank).arg(e.step).arg(QLocale().toString(e.loss, 'f', 4));
  case st::Record::Memory:
    return tr("Rank %1 %2 %3 of %4 for %5; it now holds %6")
        .arg(e.rank)
        .arg(e.bytes >= 0 ? tr("allocates") : tr("frees"), bytes(std::abs(e.bytes)), Palette::categoryName(e.category),
             unit, bytes(e.total));
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
