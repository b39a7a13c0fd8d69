#include "models/TraceOpening.h"

#include "trace/OpenTrace.h"

#include <QFileInfo>

namespace shardlab::app {

namespace st = shardlab::trace;

TraceOpening TraceOpening::read(const QString& path) {
  const QFileInfo info(path);
  const std::string file = info.absoluteFilePath().toStdString();
  auto opened = st::openTrace(file);
  TraceOpening out;
  out.fileName_ = info.fileName();
  out.imported = std::move(opened.imported);
  if (out.imported) {
    // The importer's message names the file (and the rank); nothing before it is kept.
    if (!opened.ok()) {
      out.problem = QString::fromStdString(opened.describeError(file));
      out.stopped = true;
    }
    out.trace = std::move(opened.read.trace);
    return out;
  }
  auto& result = opened.read;
  if (info.isFile() && info.size() == 0) {
    out.problem = tr("%1 is empty: there is no trace in it.").arg(info.fileName());
    out.stopped = true;
    return out;
  }
  QStringList parts;
  if (result.skipped) {
    const auto& s = *result.skipped;
    const QString what = QString::fromStdString(s.first.message);
    if (s.count == 1)
      parts << tr("%1, line %2: %3; the line was skipped and the %Ln line(s) after it were read.", nullptr,
                  static_cast<int>(s.linesAfter))
                   .arg(info.fileName())
                   .arg(s.first.line)
                   .arg(what);
    else
      parts << tr("%1, line %2: %3; %Ln line(s) that are no record were skipped, the first here, and the other "
                  "lines were read.", nullptr, static_cast<int>(s.count))
                   .arg(info.fileName())
                   .arg(s.first.line)
                   .arg(what);
  }
  if (result.error) {
    out.stopped = true;
    if (result.error->line == 0)
      parts << QCoreApplication::translate("TraceModel", "Cannot open %1: the file does not exist or is not readable.").arg(path);
    else
      parts << QCoreApplication::translate("TraceModel", "%1, line %2: %3.%4")
                   .arg(info.fileName())
                   .arg(result.error->line)
                   .arg(QString::fromStdString(result.error->message))
                   .arg(result.trace.events.empty()
                            ? QString()
                            : QCoreApplication::translate("TraceModel", " The %n event(s) before it are shown.", nullptr,
                                                          static_cast<int>(result.trace.events.size())));
  }
  out.problem = parts.join(QLatin1Char(' '));
  out.trace = std::move(result.trace);
  return out;
}

QString TraceOpening::refusal() const {
  return tr("%1 The run on screen stays.").arg(problem.isEmpty() ? tr("%1 holds no trace.").arg(fileName_) : problem);
}

QString TraceOpening::damage() const {
  return problem.isEmpty() ? QString() : tr("This trace could not be read completely: %1").arg(problem);
}

QString TraceOpening::importNote() const {
  if (!imported) return {};
  // The importer's list is in English, as shardlab-replay prints it: profiler event names and reasons.
  return tr("%1: imported from a PyTorch profiler trace (%n file(s)). %2", nullptr, static_cast<int>(imported->files.size()))
      .arg(fileName_, QString::fromStdString(imported->describe()));
}

QString TraceOpening::importedMessage(int stepsCompleted) const {
  return tr("Imported from a PyTorch profiler trace: %n step(s) from its ProfilerStep ranges. Ranks, the timeline, "
            "Plots (step times, memory) and Summary show it; memory is one total, in no category (the profiler "
            "does not say what a buffer holds). Nothing from it in: Pipeline (not a pipeline job), the loss "
            "(not recorded), the replay (not replayable), the Memory ledger's Ψ arithmetic (no model size). "
            "The Log lists the profiler events not mapped.", nullptr, stepsCompleted);
}

} // namespace shardlab::app
