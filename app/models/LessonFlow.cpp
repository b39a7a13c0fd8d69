#include "models/LessonFlow.h"

#include "models/LessonCatalog.h"
#include "models/QuizController.h"
#include "models/TraceModel.h"

namespace shardlab::app {

namespace {
// A run that ran out of its memory budget is what an out-of-memory lesson shows: it
// counts as the lesson going as planned.
bool wentAsPlanned(JobRunner::Outcome outcome, const TraceModel& model) {
  return outcome == JobRunner::Outcome::Finished ||
         (outcome == JobRunner::Outcome::RankFailed && model.summary().outOfMemory.has_value());
}
} // namespace

LessonFlow::LessonFlow(TraceModel& model, TraceModel& comparison, QObject* parent)
    : QObject(parent), model_(model), comparison_(comparison), runner_(model), comparisonRunner_(comparison) {
  connect(&runner_, &JobRunner::finished, this, &LessonFlow::onRunFinished);
  connect(&comparisonRunner_, &JobRunner::finished, this, &LessonFlow::onComparisonFinished);
}

void LessonFlow::start(const Lesson& lesson, bool askPrediction) {
  comparison_.clear();
  if (quiz_) quiz_->setPlaceholderValues(lesson.placeholderValues());
  Q_EMIT lessonStarting(lesson);
  const bool predictFirst = askPrediction && quiz_ && quiz_->prediction().has_value();
  if (predictFirst) Q_EMIT predictionAwaited();
  startLesson(lesson.specs, lesson.specLabels(), predictFirst);
}

void LessonFlow::startLesson(const QList<shardlab::JobConfig>& jobs, const QStringList& runLabels, bool waitForPrediction) {
  queue_ = jobs;
  labels_ = runLabels;
  lessonRunning_ = true;
  lessonOk_ = true;
  waitingForPrediction_ = waitForPrediction;
  if (!waitingForPrediction_) runNext();
  // Nothing of this lesson has run yet: the previous lesson's runs leave the screen.
  else {
    comparison_.clear();
    model_.clear();
  }
}

void LessonFlow::runJob(const shardlab::JobConfig& job) {
  queue_ = {job};
  labels_.clear();
  lessonRunning_ = false;
  waitingForPrediction_ = false;
  runNext();
}

void LessonFlow::predictionDone() {
  if (!waitingForPrediction_) return;
  waitingForPrediction_ = false;
  runNext();
}

void LessonFlow::stop() {
  queue_.clear();
  waitingForPrediction_ = false; // a lesson waiting for its prediction does not start later
  runner_.stop();
  comparisonRunner_.stop();
}

void LessonFlow::runNext() {
  if (queue_.isEmpty()) return;
  const auto job = queue_.takeFirst();
  Q_EMIT jobStarting(job);
  runner_.start(job);
}

void LessonFlow::onRunFinished(JobRunner::Outcome outcome, const QString& explanation) {
  const bool asPlanned = wentAsPlanned(outcome, model_);
  if (!asPlanned) lessonOk_ = false;
  Q_EMIT runFinished(outcome, explanation);
  // A comparison lesson: the second job runs into the comparison model.
  if (lessonRunning_ && asPlanned && !queue_.isEmpty()) {
    comparisonRunner_.start(queue_.takeFirst());
    return;
  }
  finishLessonWhenIdle();
}

void LessonFlow::onComparisonFinished(JobRunner::Outcome outcome, const QString& explanation) {
  if (!wentAsPlanned(outcome, comparison_)) lessonOk_ = false;
  Q_EMIT comparisonFinished(outcome, explanation);
  finishLessonWhenIdle();
}

void LessonFlow::finishLessonWhenIdle() {
  if (!lessonRunning_ || isRunning()) return;
  lessonRunning_ = false;
  Q_EMIT lessonFinished(lessonOk_);
}

} // namespace shardlab::app
