#include "models/JobRunner.h"

#include "models/AppSettings.h"
#include "models/Format.h"
#include "models/Captions.h"
#include "models/JobText.h"
#include "models/TraceModel.h"

#include "job/ExitCodes.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>

namespace shardlab::app {

JobRunner::JobRunner(TraceModel& model, QObject* parent) : QObject(parent), model_(model) {
  batchTimer_.setInterval(30);
  connect(&batchTimer_, &QTimer::timeout, this, &JobRunner::flush);
  killTimer_.setSingleShot(true);
  killTimer_.setInterval(3000);
  connect(&killTimer_, &QTimer::timeout, this, [this] {
    if (isRunning()) {
      Q_EMIT logText(tr("The job did not stop within 3 s; killing it."));
      process_.kill();
    }
  });
  silenceTimer_.setInterval(500);
  connect(&silenceTimer_, &QTimer::timeout, this, &JobRunner::checkSilence);
  connect(&process_, &QProcess::readyReadStandardOutput, this, &JobRunner::readOut);
  connect(&process_, &QProcess::readyReadStandardError, this, [this] {
    const QString text = QString::fromUtf8(process_.readAllStandardError());
    stderr_ += text;
    Q_EMIT logText(text);
  });
  connect(&process_, &QProcess::finished, this, &JobRunner::onFinished);
  connect(&process_, &QProcess::errorOccurred, this, &JobRunner::onError);
}

JobRunner::~JobRunner() {
  if (isRunning()) {
    process_.terminate();
    if (!process_.waitForFinished(2000)) process_.kill();
    process_.waitForFinished(1000);
  }
}

QString JobRunner::findLauncher() {
  if (const QString named = AppSettings::launcherOverride(); !named.isEmpty()) return named;
  // The build puts every program in one bin folder, and an install in one bin too.
  const QFileInfo besideApp(QCoreApplication::applicationDirPath() + QStringLiteral("/shardlab-run"));
  if (besideApp.isExecutable()) return besideApp.absoluteFilePath();
  const QString onPath = QStandardPaths::findExecutable(QStringLiteral("shardlab-run"));
  return onPath.isEmpty() ? QStringLiteral("shardlab-run") : onPath;
}

namespace {
// The rank a record is about ("op 2 …", "coll 2 …"); -1 for the header, the job and the rest.
int recordRank(const QByteArray& line) {
  const auto space = line.indexOf(' ');
  if (space <= 0 || line.startsWith("job ") || line.startsWith("shardlab-trace")) return -1;
  const auto end = line.indexOf(' ', space + 1);
  bool ok = false;
  const int rank = line.mid(space + 1, end < 0 ? -1 : end - space - 1).toInt(&ok);
  return ok && rank >= 0 ? rank : -1;
}
} // namespace

double JobRunner::silenceThreshold(double collectiveTimeout) { return std::clamp(collectiveTimeout / 2, 1.0, 10.0); }

QString JobRunner::silenceText(const QList<int>& silent, int ranks, int seconds, double collectiveTimeout) {
  if (silent.isEmpty()) return {};
  const QString timeout = QLocale().toString(collectiveTimeout);
  if (silent.size() >= ranks)
    return tr("No rank has recorded anything for %n s; the run stops at the hang timeout of %1 s (Hang timeout in the "
              "Experiment form).", nullptr, seconds)
        .arg(timeout);
  return tr("No event from rank(s) %1 for %2 s; the run stops at the hang timeout of %3 s (Hang timeout in the "
            "Experiment form).", nullptr, static_cast<int>(silent.size()))
      .arg(Format::rankList(silent))
      .arg(seconds)
      .arg(timeout);
}

void JobRunner::checkSilence() {
  QString text;
  if (!heard_.isEmpty() && isRunning()) {
    const qint64 now = clock_.elapsed();
    const qint64 threshold = static_cast<qint64>(silenceThreshold(config_.collectiveTimeout) * 1000);
    QList<int> silent;
    qint64 longest = 0;
    for (auto it = heard_.cbegin(); it != heard_.cend(); ++it)
      if (now - it.value() >= threshold) {
        silent << it.key();
        longest = std::max(longest, now - it.value());
      }
    text = silenceText(silent, config_.ranks, static_cast<int>(longest / 1000), config_.collectiveTimeout);
  }
  if (text == silence_) return;
  silence_ = text;
  Q_EMIT silenceChanged(text);
}

static QString quoted(const QString& a) {
  if (!a.isEmpty() && a.indexOf(QRegularExpression(QStringLiteral("[^A-Za-z0-9_./=:,+-]"))) < 0) return a;
  QString q = a;
  q.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
  return QLatin1Char('\'') + q + QLatin1Char('\'');
}

bool JobRunner::start(const shardlab::JobConfig& config, const QString& traceFile) {
  if (isRunning()) stop();
  config_ = config;
  model_.clear();
  partial_.clear();
  pending_.clear();
  stderr_.clear();
  linesReceived_ = 0;
  heard_.clear();
  if (!silence_.isEmpty()) {
    silence_.clear();
    Q_EMIT silenceChanged(silence_);
  }
  stopping_ = false;
  done_ = false;
  const auto issues = config.validate();
  if (!issues.empty()) {
    QStringList lines;
    for (const auto& i : issues) lines << issueText(i);
    finish(Outcome::InvalidOptions, tr("The options break a rule, so nothing was run:\n%1").arg(lines.join(QLatin1Char('\n'))));
    return false;
  }
  specFile_ = std::make_unique<QTemporaryFile>(QDir::tempPath() + QStringLiteral("/shardlab-job-XXXXXX.json"));
  const QByteArray spec = QByteArray::fromStdString(config.toJson().dump(2) + "\n");
  if (!specFile_->open() || specFile_->write(spec) != spec.size() || !specFile_->flush()) {
    finish(Outcome::NotStarted, tr("The job's spec file could not be written (%1).").arg(specFile_->errorString()));
    return false;
  }
  specFile_->close();
  const QString program = launcher();
  QStringList args{QStringLiteral("--spec"), specFile_->fileName(), QStringLiteral("--events"), QStringLiteral("-")};
  if (!traceFile.isEmpty()) args << QStringLiteral("--trace") << traceFile;
  QStringList parts{quoted(program)};
  for (const auto& a : args) parts << quoted(a);
  commandLine_ = parts.join(QLatin1Char(' '));
  if (!QFileInfo(program).isExecutable()) {
    finish(Outcome::Missing,
           tr("The launcher shardlab-run was not found (looked for %1). Build it with "
              "'cmake --build build --target shardlab-run', or set SHARDLAB_RUN to its path.")
               .arg(program));
    return false;
  }
  Q_EMIT started(commandLine_);
  process_.start(program, args);
  batchTimer_.start();
  clock_.start();
  silenceTimer_.start();
  return true;
}

void JobRunner::stop() {
  if (!isRunning()) return;
  stopping_ = true;
  Q_EMIT logText(tr("Stopping the job…\n"));
  process_.terminate();
  killTimer_.start();
}

void JobRunner::readOut() {
  QByteArray data = partial_ + process_.readAllStandardOutput();
  qsizetype from = 0;
  for (;;) {
    const auto nl = data.indexOf('\n', from);
    if (nl < 0) break;
    pending_.append(data.mid(from, nl - from));
    from = nl + 1;
    // Each rank's last record; a rank not heard from yet is counted from the first record
    // of any rank (mpirun's start and the calibration are not silence).
    if (const int rank = recordRank(pending_.back()); rank >= 0) {
      const qint64 now = clock_.elapsed();
      if (heard_.isEmpty())
        for (int r = 0; r < config_.ranks; ++r) heard_[r] = now;
      heard_[rank] = now;
    }
  }
  if (!silence_.isEmpty()) checkSilence();
  partial_ = data.mid(from);
}

void JobRunner::flush() {
  if (pending_.isEmpty()) return;
  QList<QByteArray> batch;
  if (pending_.size() <= batchLimit_) {
    batch.swap(pending_);
  } else {
    batch = pending_.mid(0, batchLimit_);
    pending_.remove(0, batchLimit_);
  }
  linesReceived_ += batch.size();
  model_.appendLines(batch);
  Q_EMIT progress(model_.stepsDone(), model_.stepsPlanned());
}

void JobRunner::onError(QProcess::ProcessError error) {
  if (error == QProcess::FailedToStart)
    finish(Outcome::Missing, tr("shardlab-run could not be started (%1): %2").arg(launcher(), process_.errorString()));
}

void JobRunner::onFinished(int code, QProcess::ExitStatus status) {
  killTimer_.stop();
  readOut();
  if (!partial_.isEmpty()) pending_.append(partial_), partial_.clear();
  while (!pending_.isEmpty()) flush();
  batchTimer_.stop();
  const QString err = stderr_.trimmed();
  if (stopping_) {
    finish(Outcome::Stopped, tr("You stopped the job. The events recorded until then are shown."));
    return;
  }
  if (status == QProcess::CrashExit) {
    finish(Outcome::Crashed, tr("shardlab-run crashed. What it wrote before is shown.\n%1").arg(err));
    return;
  }
  using shardlab::LauncherExit;
  switch (code) {
  case shardlab::code(LauncherExit::Done): finish(Outcome::Finished, tr("The job finished.")); break;
  case shardlab::code(LauncherExit::InvalidJob): finish(Outcome::InvalidOptions, tr("The launcher refused the options:\n%1").arg(err)); break;
  case shardlab::code(LauncherExit::RankFailed): {
    const auto& s = model_.summary();
    if (s.outOfMemory) {
      const auto& o = *s.outOfMemory;
      finish(Outcome::RankFailed,
             tr("Out of memory on rank %1: it needed %2 more for %3%4 while holding %5, "
                "but the budget is %6. This is the lesson: the model state did not fit on one rank.")
                 .arg(o.rank)
                 .arg(Format::bytes(o.needed), Format::categoryName(o.category),
                      o.unit == "-" ? QString() : tr(" of %1").arg(QString::fromStdString(o.unit)),
                      Format::bytes(o.holding), Format::bytes(o.budget)));
    } else if (const RunEnding& ending = model_.ending(); ending.kind != RunEnding::Kind::None) {
      // A hang or a failed rank, said as the trace shows it (the launcher's words are in the log).
      finish(Outcome::RankFailed, ending.text());
    } else {
      QString which;
      for (const auto& r : s.ranksDetail)
        if (r.failure) which += tr("Rank %1: %2\n").arg(r.rank).arg(Format::failureReason(QString::fromStdString(*r.failure)));
      finish(Outcome::RankFailed, tr("A rank failed; the trace up to the failure is shown.\n%1%2").arg(which, err));
    }
    break;
  }
  case shardlab::code(LauncherExit::Interrupted):
    finish(Outcome::Stopped, tr("shardlab-run was interrupted. The events recorded until then are shown."));
    break;
  case shardlab::code(LauncherExit::MissingTool): finish(Outcome::Missing, tr("mpirun or the worker is missing:\n%1").arg(err)); break;
  case shardlab::code(LauncherExit::OutputFailed):
    finish(Outcome::OutputFailed,
           tr("An output of the run could not be written whole (is the disk full?); the events received are shown:\n%1")
               .arg(err));
    break;
  default: finish(Outcome::Crashed, tr("shardlab-run exited with code %1.\n%2").arg(code).arg(err)); break;
  }
}

void JobRunner::finish(Outcome o, const QString& text) {
  if (done_) return;
  done_ = true;
  outcome_ = o;
  explanation_ = text;
  batchTimer_.stop();
  silenceTimer_.stop();
  if (!silence_.isEmpty()) {
    silence_.clear();
    Q_EMIT silenceChanged(silence_);
  }
  Q_EMIT finished(o, text);
}

} // namespace shardlab::app
