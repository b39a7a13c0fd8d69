#include "models/Format.h"

#include "trace/Summary.h"

#include <QLocale>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <climits>

namespace shardlab::app {

namespace st = shardlab::trace;

QString Format::bytes(qint64 b) {
  // summarize()'s figure ("1.50 MiB"), in this language: "1,50 Mio", "1,50 МиБ".
  return localBytes(QString::fromStdString(st::formatBytes(b)));
}

QString Format::localBytes(const QString& english) {
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

QString Format::duration(qint64 ns) {
  const QLocale locale;
  if (ns < 1000) return tr("%1 ns").arg(ns);
  if (ns < 1000000) return tr("%1 µs").arg(locale.toString(static_cast<double>(ns) / 1e3, 'f', 1));
  if (ns < 1000000000) return tr("%1 ms").arg(locale.toString(static_cast<double>(ns) / 1e6, 'f', 2));
  return tr("%1 s").arg(locale.toString(static_cast<double>(ns) / 1e9, 'f', 3));
}

QString Format::rankList(const QList<int>& ranks) {
  QStringList s;
  for (int r : ranks) s << QString::number(r);
  if (s.size() <= 1) return s.join(QString());
  const QString last = s.takeLast();
  return tr("%1 and %2").arg(s.join(QStringLiteral(", ")), last);
}

QString Format::failureReason(const QString& reason) {
  // A failure text is whatever a rank or mpirun said, of any length: the views lay out
  // every character they are given (a 1 MB text froze the app), so they show its start;
  // the whole text stays in the trace.
  constexpr qsizetype kShownCharacters = 400;
  if (reason.size() > kShownCharacters)
    return tr("%1… (%n more characters in the trace)", nullptr, static_cast<int>(std::min<qsizetype>(reason.size() - kShownCharacters, INT_MAX)))
        .arg(reason.left(kShownCharacters));
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
    const QString what = category ? Format::categoryName(*category) : categoryName;
    return tr("out of memory on rank %1: needs %2 for %3, budget %4, holding %5")
        .arg(m.captured(1), localBytes(m.captured(2)), unit.isEmpty() ? what : tr("%1 of %2", "a memory category of a unit").arg(what, unit),
             localBytes(m.captured(7)), localBytes(m.captured(8)));
  }
  // The hang watchdog's: "collective timeout: all_reduce of output in step 2 has not
  // finished after 2 s (collective_timeout); its flight recorder is in the trace".
  static const QRegularExpression timeout(QStringLiteral(
      "^collective timeout: (\\w+)(?: (from|to) rank (\\d+))?(?: of (\\S+))?(?: in step (\\d+))?(?: \\(micro-batch "
      "(\\d+)\\))? has not finished after ([\\d.e+-]+) s \\(collective_timeout\\); its flight recorder is in the trace$"));
  if (const auto m = timeout.match(reason); m.hasMatch()) {
    if (const auto kind = st::kindFromString(m.captured(1).toStdString())) {
      const QString call = Format::call(*kind, m.captured(4), m.captured(5).isEmpty() ? -1 : m.captured(5).toInt(),
                                               m.captured(6).isEmpty() ? -1 : m.captured(6).toInt(),
                                               m.captured(3).isEmpty() ? -1 : m.captured(3).toInt());
      return tr("hang: %1 had not finished after %2 s (Hang timeout in the Experiment form); its flight recorder is in "
                "the trace")
          .arg(call, QLocale().toString(m.captured(7).toDouble()));
    }
  }
  return reason;
}

QString Format::categoryName(st::Category c) {
  switch (c) {
  case st::Category::ParamShard: return tr("parameter shard");
  case st::Category::ParamReplica: return tr("parameter replica");
  case st::Category::GatheredParams: return tr("gathered parameters");
  case st::Category::Grads: return tr("gradients");
  case st::Category::GradShard: return tr("gradient shard");
  case st::Category::OptimizerState: return tr("optimizer state");
  case st::Category::Activations: return tr("activations");
  case st::Category::CommBuffers: return tr("comm buffers");
  case st::Category::Unknown: return tr("uncategorised");
  default: return QString();
  }
}

QString Format::kindLetter(st::Kind k) {
  switch (k) {
  case st::Kind::Forward: return QStringLiteral("F");
  case st::Kind::Backward:
  case st::Kind::BackwardInput: return QStringLiteral("B");
  case st::Kind::BackwardWeight: return QStringLiteral("W");
  default: return QStringLiteral("O");
  }
}

QString Format::kindName(st::Kind k) {
  switch (k) {
  case st::Kind::Forward: return tr("forward");
  case st::Kind::Backward: return tr("backward");
  case st::Kind::BackwardInput: return tr("backward, input gradient");
  case st::Kind::BackwardWeight: return tr("backward, weight gradients");
  case st::Kind::Optimizer: return tr("optimizer");
  case st::Kind::AllGather: return tr("all-gather");
  case st::Kind::ReduceScatter: return tr("reduce-scatter");
  case st::Kind::AllReduce: return tr("all-reduce");
  case st::Kind::Send: return tr("send");
  case st::Kind::Recv: return tr("receive");
  case st::Kind::Broadcast: return tr("broadcast");
  case st::Kind::WaitActivation: return tr("waiting for an activation");
  case st::Kind::WaitGradient: return tr("waiting for a gradient");
  case st::Kind::WaitCollective: return tr("waiting for a collective");
  default: return QString();
  }
}

QString Format::call(st::Kind kind, const QString& unit, int step, int micro, int peer) {
  QString s = kindName(kind);
  if (peer >= 0) s = kind == st::Kind::Recv ? tr("%1 from rank %2").arg(s).arg(peer) : tr("%1 to rank %2").arg(s).arg(peer);
  if (!unit.isEmpty() && unit != QLatin1String("-")) s = tr("%1 of %2", "a call of a unit").arg(s, unit);
  if (step >= 0) s = tr("%1 in step %2").arg(s).arg(step);
  if (micro >= 0) s = tr("%1 (micro-batch %2)").arg(s).arg(micro);
  return s;
}

} // namespace shardlab::app
