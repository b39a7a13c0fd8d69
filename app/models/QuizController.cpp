#include "models/QuizController.h"

#include "models/AppSettings.h"
#include "models/LessonCatalog.h"
#include "models/PlaybackController.h"
#include "models/TraceModel.h"

#include "quiz/bank/LessonLibrary.h"
#include "quiz/observations/ObservationMessages.h"
#include "quiz/observations/PredictionCheck.h"
#include "quiz/observations/TraceHash.h"
#include "quiz/progress/ProgressLocation.h"

#include <QDir>
#include <QRandomGenerator>
#include <QStandardPaths>

#include <algorithm>
#include <utility>

namespace shardlab::app {

namespace sq = shardlab::quiz;

namespace {

// When this session started and a random part: two starts in the same second differ.
std::string newSession() {
  return sq::isoUtc(std::chrono::system_clock::now()) + "-" +
         QString::number(QRandomGenerator::global()->generate(), 16).toStdString();
}

} // namespace

QuizController::QuizController(TraceModel& model, PlaybackController& playback, QObject* parent)
    : QObject(parent), model_(model), playback_(playback), session_(newSession()) {
  try {
    const auto dir = LessonCatalog::assetsDirectory();
    if (!dir.isEmpty()) bank_ = std::make_unique<sq::QuestionBank>(sq::QuestionBank::loadDirectory(dir.toStdString() + "/quiz"));
  } catch (const std::exception&) {
    bank_.reset(); // no guide questions; observation questions still work
  }
  setLearner(AppSettings::learner());
  rebuild();
}

QuizController::~QuizController() = default;

void QuizController::setProgressFile(const QString& path) {
  // Unreadable: start over, the old file kept aside (the message names both and what is wrong).
  std::string problem;
  progress_ = std::make_unique<sq::Progress>(sq::Progress::loadOrSetAside(path.toStdString(), problem));
  progressProblem_ = QString::fromStdString(problem);
  Q_EMIT progressChanged();
}

void QuizController::setLearner(const QString& name) {
  const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  setProgressFile(QString::fromStdString(sq::progressFile(dataDir.toStdString(), name.toStdString()).string()));
  progress_->setLearner(name.toStdString());
  if (run_) progress_->recordRun(*run_); // answers about the run on screen name it in this file too
  rebuild(); // the review and the ticks are this learner's now
}

void QuizController::resetProgress() {
  progress_->clear();
  saveProgress();
  rebuild();
  Q_EMIT progressChanged();
}

bool QuizController::lessonComplete(const QString& lessonId, const QStringList& questionIds) const {
  if (questionIds.isEmpty()) return false;
  const auto answered = progress_->questionsAnsweredIn(lessonId.toStdString());
  for (const QString& id : questionIds)
    if (!answered.count(id.toStdString())) return false;
  return true;
}

void QuizController::saveProgress() {
  try {
    progress_->save();
  } catch (const std::exception&) {
    // A read-only data folder must not stop the quiz; the progress stays in memory.
  }
}

void QuizController::setLesson(const QString& lessonId) {
  lesson_ = lessonId;
  guide_.clear();
  prediction_.reset();
  observed_.clear();
  traceHash_.clear();
  run_.reset();
  second_ = nullptr;
  if (bank_ && !lessonId.isEmpty()) {
    try {
      sq::Diagnostics d;
      const auto file = LessonCatalog::assetsDirectory().toStdString() + "/lessons/" + lessonId.toStdString() + ".json";
      if (const auto lesson = sq::LessonLibrary::loadFile(file, bank_.get(), d)) {
        std::vector<std::string> ids = lesson->questionIds;
        if (lab_)
          for (const auto& step : lab_->steps)
            if (step.lesson == lessonId.toStdString() && !step.questionIds.empty()) ids = step.questionIds;
        for (const auto& id : ids)
          if (const auto* question = bank_->find(id)) guide_.push_back(*question);
        prediction_ = lesson->prediction;
      }
    } catch (const std::exception&) {
      guide_.clear();
    }
  }
  rebuild();
}

QString QuizController::predictionText(const QString& lang) const {
  if (!prediction_) return {};
  const std::string l = lang.toStdString();
  return QString::fromStdString(sq::fillPlaceholders(prediction_->text.get(l), l, placeholderValues_));
}

QString QuizController::useSentences(const QString& assetsDir) {
  if (assetsDir.isEmpty()) return tr("no assets folder was found, so the quiz has no sentences");
  try {
    sq::useObservationAssets(std::filesystem::path(assetsDir.toStdString()));
  } catch (const std::exception& e) {
    return QString::fromUtf8(e.what());
  }
  return QString();
}

void QuizController::setLab(const sq::Lab& lab) {
  lab_ = lab;
  if (!lab.steps.empty()) setLesson(QString::fromStdString(lab.steps.front().lesson));
}

std::optional<sq::MomentLocation> QuizController::refreshObservations(const QString& traceFile,
                                                                       const shardlab::trace::Trace* second) {
  second_ = second;
  std::optional<std::vector<std::string>> only;
  if (lab_)
    for (const auto& step : lab_->steps)
      if (step.lesson == lesson_.toStdString() && !step.observationIds.empty()) only = step.observationIds;
  observed_ = sq::observe(model_.measured(), second, only ? &*only : nullptr);
  traceHash_.clear();
  run_.reset();
  if (!traceFile.isEmpty()) {
    run_ = sq::describeRun(traceFile.toStdString(), model_.measured());
  } else if (!model_.measured().events.empty()) {
    // A live run has no file: identify it by its job record (the settings and start time).
    const auto& job = model_.measured().job;
    const std::string record = job ? job->written.dump() : "null";
    run_ = sq::RunRecord{sq::formatTraceHash(sq::fnv1a64(record)), std::string(), sq::runConfig(model_.measured())};
  }
  if (run_) {
    traceHash_ = QString::fromStdString(run_->hash);
    progress_->recordRun(*run_);
  }
  rebuild();
  if (pendingMoment_.empty()) return std::nullopt;
  // The lesson ran for a "Show me": go to the moment in the run that now shows it.
  const std::string moment = std::exchange(pendingMoment_, std::string());
  model_.showReplay(std::nullopt); // the moment is a time of the measured run
  const auto found = sq::findMoment(model_.measured(), model_.summary(), moment);
  if (found) {
    playback_.pause();
    playback_.setFollowLive(false);
    playback_.setTime(found->time);
  }
  return found;
}

void QuizController::rebuild() {
  std::vector<sq::Question> questions = guide_;
  for (const auto& o : observed_) questions.push_back(o.question);
  const auto attempt = sq::Attempt::create(questions, seed_);
  items_.clear();
  for (std::size_t i = 0; i < attempt.items().size(); ++i) {
    Item it{attempt.items()[i], std::nullopt};
    if (i >= guide_.size()) it.observed = observed_[i - guide_.size()];
    items_.push_back(std::move(it));
  }
  Q_EMIT itemsChanged();
}

int QuizController::firstObservation() const {
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (items_[i].observed) return static_cast<int>(i);
  return -1;
}

sq::AnswerKey QuizController::keyOf(const Item& item) const {
  // A guide question means the same in every run; an observation question only in its own.
  return {item.item.question.id, item.observed ? traceHash_.toStdString() : std::string(), lesson_.toStdString()};
}

bool QuizController::answer(int index, int shown) {
  const auto& it = items_.at(static_cast<std::size_t>(index));
  const bool right = static_cast<std::size_t>(shown) == it.item.correctShown;
  progress_->recordAnswer(keyOf(it), it.item.order.at(static_cast<std::size_t>(shown)), right);
  saveProgress();
  Q_EMIT progressChanged();
  return right;
}

const sq::AnswerRecord* QuizController::answerOf(int index) const {
  if (index < 0 || index >= static_cast<int>(items_.size())) return nullptr;
  return progress_->findAnswer(keyOf(items_[static_cast<std::size_t>(index)]));
}

QuizController::Evidence QuizController::showMe(int index) {
  const auto& it = items_.at(static_cast<std::size_t>(index));
  if (!it.item.question.evidence) return {};
  const auto& ev = *it.item.question.evidence;
  model_.showReplay(std::nullopt); // answers and their moments belong to the measured run
  if (auto moment = sq::findMoment(model_.measured(), model_.summary(), ev.moment)) {
    playback_.pause();
    playback_.setFollowLive(false);
    playback_.setTime(moment->time);
    return {Evidence::Kind::Shown, std::move(moment), QString()};
  }
  // A guide question's moment that the loaded run lacks: its lesson's run shows it,
  // unless that lesson is the run on screen.
  const QString lesson = QString::fromStdString(ev.lesson);
  if (lesson.isEmpty() || it.observed || (!model_.isEmpty() && lesson == lesson_)) return {Evidence::Kind::Absent, std::nullopt, QString()};
  pendingMoment_ = ev.moment;
  return {Evidence::Kind::LessonRequested, std::nullopt, lesson};
}

QuizController::Evidence QuizController::showPredictionMoment() {
  if (!prediction_ || !prediction_->moment) return {};
  model_.showReplay(std::nullopt); // the prediction was checked against the measured run
  if (auto moment = sq::findMoment(model_.measured(), model_.summary(), *prediction_->moment)) {
    playback_.pause();
    playback_.setFollowLive(false);
    playback_.setTime(moment->time);
    return {Evidence::Kind::Shown, std::move(moment), QString()};
  }
  return {Evidence::Kind::Absent, std::nullopt, QString()};
}

bool QuizController::savePrediction(const QString& text) {
  if (!prediction_) return false;
  const auto value = sq::parsePredictionValue(prediction_->kind, text.toStdString());
  if (!value) return false;
  progress_->recordPrediction({lesson_.toStdString(), prediction_->id, prediction_->kind, *value, std::nullopt, session_});
  saveProgress();
  return true;
}

std::optional<QuizController::PredictionCheck> QuizController::checkPrediction() {
  if (!prediction_ || model_.measured().events.empty()) return std::nullopt;
  // Only a guess made in this session: another start (or learner) never sees an earlier one.
  const auto* saved = progress_->findPrediction(lesson_.toStdString(), prediction_->id, session_);
  if (!saved) return std::nullopt;
  const auto measured = sq::measurePrediction(prediction_->id, model_.measured(), second_);
  if (!measured) return std::nullopt;
  auto record = *saved;
  record.actual = measured->actual;
  progress_->recordPrediction(record);
  saveProgress();
  return PredictionCheck{measured->compare(record.value), measured->close(record.value)};
}

} // namespace shardlab::app
