// JobRunner: runs one shardlab-run job in a QProcess (never blocking the UI thread):
// `shardlab-run --spec FILE --events -`, FILE holding the JobConfig as JSON. Its stdout is the live trace (--events -); complete lines are queued and handed
// to the TraceModel in batches by a timer, so a job writing 50,000 events/s cannot
// stall the UI. Its stderr goes to the log. Stop terminates, then kills.
#pragma once

#include "job/JobConfig.h"

#include <QElapsedTimer>
#include <QList>
#include <QMap>
#include <QObject>
#include <QProcess>
#include <QTemporaryFile>
#include <QTimer>

#include <memory>

namespace shardlab::app {

class TraceModel;

class JobRunner : public QObject {
  Q_OBJECT
public:
  // OutputFailed: the launcher could not write an output whole (exit 5: a full disk; it names the file).
  enum class Outcome { Finished, InvalidOptions, RankFailed, Missing, Crashed, Stopped, NotStarted, OutputFailed };
  Q_ENUM(Outcome)

  explicit JobRunner(TraceModel& model, QObject* parent = nullptr);
  ~JobRunner() override;

  // Where shardlab-run is: $SHARDLAB_RUN, next to this program, $PATH.
  static QString findLauncher();
  void setLauncher(const QString& path) { launcher_ = path; }
  QString launcher() const { return launcher_.isEmpty() ? findLauncher() : launcher_; }

  // Starts the job; clears the model. Returns false (and emits finished) when the
  // job breaks a rule, its spec file cannot be written or the launcher is missing.
  bool start(const shardlab::JobConfig& config, const QString& traceFile = {});
  bool isRunning() const { return process_.state() != QProcess::NotRunning; }
  // The job last given to start(), as the launcher gets it in its spec file.
  const shardlab::JobConfig& config() const { return config_; }
  // The command line as one copyable string (arguments quoted where needed).
  QString commandLine() const { return commandLine_; }
  QString standardError() const { return stderr_; }
  Outcome outcome() const { return outcome_; }
  // A plain explanation of how the job ended.
  QString explanation() const { return explanation_; }
  // Max lines handed to the model per batch (the rest waits for the next tick).
  void setBatchLimit(int lines) { batchLimit_ = lines; }
  qint64 linesReceived() const { return linesReceived_; }
  // While the job runs: which ranks recorded nothing for a while, and that the job stops
  // at its hang timeout ("No event from rank 2 for 12 s; …"); "" while events come.
  QString silence() const { return silence_; }
  // Seconds without a record after which a rank is named: half the hang timeout, 1–10 s.
  static double silenceThreshold(double collectiveTimeout);
  // The sentence for `silent` ranks out of `ranks`, quiet for `seconds`.
  static QString silenceText(const QList<int>& silent, int ranks, int seconds, double collectiveTimeout);

public Q_SLOTS:
  void stop();

Q_SIGNALS:
  void started(const QString& commandLine);
  void logText(const QString& text); // stderr of the launcher
  void progress(int stepsDone, int stepsPlanned);
  void silenceChanged(const QString& text); // silence() changed ("" again once events come)
  void finished(JobRunner::Outcome outcome, const QString& explanation);

private:
  void readOut();
  void flush();
  void onFinished(int code, QProcess::ExitStatus status);
  void onError(QProcess::ProcessError error);
  void finish(Outcome o, const QString& text);
  void checkSilence();

  TraceModel& model_;
  shardlab::JobConfig config_;
  QProcess process_;
  // The job's spec file, kept until the next job so the logged command line works.
  std::unique_ptr<QTemporaryFile> specFile_;
  QTimer batchTimer_;
  QTimer killTimer_;
  QByteArray partial_;
  QList<QByteArray> pending_;
  QString launcher_, commandLine_, stderr_, explanation_;
  Outcome outcome_ = Outcome::NotStarted;
  bool stopping_ = false;
  bool done_ = true;
  int batchLimit_ = 20000;
  qint64 linesReceived_ = 0;
  // When each rank's last record came (ms on clock_), from the job's first record on.
  QElapsedTimer clock_;
  QMap<int, qint64> heard_;
  QTimer silenceTimer_;
  QString silence_;
};

} // namespace shardlab::app
