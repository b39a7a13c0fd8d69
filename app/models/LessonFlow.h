// LessonFlow: the order of a lesson, without widgets. A lesson is one job, or two
// whose runs are compared (the second runs into the comparison model after the
// first); with a prediction, nothing runs before the learner has predicted. A job
// from the experiment form runs alone. The window reacts to the signals: it shows
// the lesson (lessonStarting), each job starting and ending, and lessonFinished()
// once the lesson's jobs ended.
#pragma once

#include "models/JobRunner.h"

#include "job/JobConfig.h"

#include <QList>
#include <QObject>
#include <QStringList>

namespace shardlab::app {

struct Lesson;
class QuizController;
class TraceModel;

class LessonFlow : public QObject {
  Q_OBJECT
public:
  // `model` receives the first run, `comparison` the second run of a comparison lesson.
  LessonFlow(TraceModel& model, TraceModel& comparison, QObject* parent = nullptr);

  JobRunner& runner() { return runner_; }
  JobRunner& comparisonRunner() { return comparisonRunner_; }
  // Where the lesson's questions are asked: its prediction decides whether a lesson
  // waits for the learner, its placeholders are filled from the lesson's job.
  void setQuiz(QuizController* quiz) { quiz_ = quiz; }
  // Predict, then run, then compare: the lesson's order. The quiz gets the lesson's
  // placeholder values, lessonStarting() lets the window show the lesson (its guide, its
  // questions, its lab step); then, with askPrediction and a prediction in the lesson's
  // quiz, predictionAwaited() and its jobs wait for predictionDone(); else they run.
  void start(const Lesson& lesson, bool askPrediction);
  // Queues the lesson's jobs and runs the first, or waits for predictionDone().
  void startLesson(const QList<shardlab::JobConfig>& jobs, const QStringList& runLabels, bool waitForPrediction);
  // One job from the form: ends any lesson (its queued jobs are dropped).
  void runJob(const shardlab::JobConfig& job);
  bool waitingForPrediction() const { return waitingForPrediction_; }
  // Whether no job of the current lesson failed in a way the lesson did not expect.
  bool lessonOk() const { return lessonOk_; }
  bool isRunning() const { return runner_.isRunning() || comparisonRunner_.isRunning(); }
  // The lesson's run labels ("prefetch on", "prefetch off"), for the comparison.
  QStringList runLabels() const { return labels_; }

public Q_SLOTS:
  // The learner predicted: the waiting lesson's first job runs.
  void predictionDone();
  // Stops both runs and drops the queued jobs.
  void stop();

Q_SIGNALS:
  // start(): the lesson is about to run (or to wait for the prediction). The quiz's
  // lesson is set here (QuizPanel::setLesson): the prediction is the lesson's after it.
  void lessonStarting(const Lesson& lesson);
  // The lesson waits for the learner's prediction (the window asks for it).
  void predictionAwaited();
  // A job is about to start into the first model (the window shows it; the runner clears the model).
  void jobStarting(const shardlab::JobConfig& job);
  // The job in the first model ended.
  void runFinished(JobRunner::Outcome outcome, const QString& explanation);
  // The comparison run ended (comparison lessons).
  void comparisonFinished(JobRunner::Outcome outcome, const QString& explanation);
  // Every job of the lesson ended; ok unless one failed in a way the lesson did not expect
  // (an out-of-memory failure is what an out-of-memory lesson shows).
  void lessonFinished(bool ok);

private:
  void runNext();
  void onRunFinished(JobRunner::Outcome outcome, const QString& explanation);
  void onComparisonFinished(JobRunner::Outcome outcome, const QString& explanation);
  void finishLessonWhenIdle();

  TraceModel& model_;
  TraceModel& comparison_;
  QuizController* quiz_ = nullptr;
  JobRunner runner_;
  JobRunner comparisonRunner_;
  QList<shardlab::JobConfig> queue_;
  QStringList labels_;
  bool lessonRunning_ = false;
  bool lessonOk_ = true;
  bool waitingForPrediction_ = false;
};

} // namespace shardlab::app
