#include "models/TraceOpening.h"

#include "trace/TraceReader.h"

#include <QFileInfo>

namespace st = shardlab::trace;

TraceOpening TraceOpening::read(const QString& path) {
  const QFileInfo info(path);
  auto result = st::readTraceFile(info.absoluteFilePath().toStdString());
  TraceOpening out;
  out.fileName_ = info.fileName();
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
