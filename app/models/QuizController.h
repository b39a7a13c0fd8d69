// QuizController: the quiz of the current lesson and run, without widgets. It owns
// the question bank, the learner's progress (quiz::Progress, one file per learner),
// the lesson's guide questions (filtered by a lab's step), the observation questions
// generated from the run's own trace, their shuffled order (quiz::Attempt), the
// prediction and its check against the measurement, and where "Show me" leads.
// QuizPanel shows it.
//
// Answers are recorded under (question, run, lesson): an observation question belongs
// to the run it was generated from. Predictions belong to this controller's session
// (one start of the app): a later start, or another learner, never sees them.
#pragma once

#include "quiz/bank/Attempt.h"
#include "quiz/bank/Lab.h"
#include "quiz/bank/Lesson.h"
#include "quiz/bank/Placeholders.h"
#include "quiz/bank/LocalizedText.h"
#include "quiz/bank/QuestionBank.h"
#include "quiz/observations/EvidenceMoment.h"
#include "quiz/observations/Observation.h"
#include "quiz/progress/Progress.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shardlab::app {

class PlaybackController;
class TraceModel;

class QuizController : public QObject {
  Q_OBJECT
public:
  // Loads the observation questions' sentences (`assetsDir`/observations) for every quiz
  // from now on. Empty when they loaded; else what is wrong, naming the file: the app says
  // so at its start, since a question about a run needs them (a damaged install).
  static QString useSentences(const QString& assetsDir);

  struct Item {
    shardlab::quiz::AttemptItem item;
    std::optional<shardlab::quiz::ObservedQuestion> observed; // a question about the run
  };
  // Where "Show me" led.
  struct Evidence {
    // None: the question names no evidence; Absent: the run does not show it.
    enum class Kind { None, Shown, Absent, LessonRequested } kind = Kind::None;
    std::optional<shardlab::quiz::MomentLocation> moment; // Shown: the moment the playhead moved to
    QString lesson;                                    // LessonRequested: the lesson that shows it
  };
  // The prediction measured on the run.
  struct PredictionCheck {
    shardlab::quiz::LocalizedText text; // what was predicted against what was measured
    bool close = false;
  };

  QuizController(TraceModel& model, PlaybackController& playback, QObject* parent = nullptr);
  ~QuizController() override;

  // Where answers are saved (default: the learner's file in AppDataLocation, ProgressLocation.h).
  void setProgressFile(const QString& path);
  const shardlab::quiz::Progress& progress() const { return *progress_; }
  // Why the progress file could not be read (it was set aside: the quiz starts empty and
  // the file is replaced at the first answer); "" when it was read.
  QString progressProblem() const { return progressProblem_; }
  // Switches to `name`'s progress file in the app's data folder ("" for the unnamed learner).
  void setLearner(const QString& name);
  QString learner() const { return QString::fromStdString(progress_->learner()); }
  // Forgets this learner's answers and predictions, and saves that.
  void resetProgress();
  // A lesson is complete when every one of `questionIds` was answered in it.
  bool lessonComplete(const QString& lessonId, const QStringList& questionIds) const;
  // The lesson whose guide questions and prediction to ask ("" for a free experiment or an
  // opened trace). The previous run's observation questions go too: the lesson's run is not there yet.
  void setLesson(const QString& lessonId);
  QString lesson() const { return lesson_; }
  // An instructor's lab: its steps' questions and observation templates replace the lesson's.
  void setLab(const shardlab::quiz::Lab& lab);
  // Regenerates the observation questions from the current run (and the comparison
  // run, when given); a "Show me" that waited for its lesson's run is resolved then.
  std::optional<shardlab::quiz::MomentLocation> refreshObservations(const QString& traceFile,
                                                                 const shardlab::trace::Trace* second);

  const std::vector<Item>& items() const { return items_; }
  int firstObservation() const;
  // Records the answer (the choice shown at `shown`) of item `index`; true when right.
  bool answer(int index, int shown);
  // Moves the playhead to item `index`'s evidence, or says what shows it.
  Evidence showMe(int index);
  // Moves the playhead to the moment that shows the prediction's answer (the lesson's
  // `prediction.moment`) in the measured run; None when the prediction names none.
  Evidence showPredictionMoment();
  // The learner's answer to item `index` in this lesson and run; nullptr when not answered.
  const shardlab::quiz::AnswerRecord* answerOf(int index) const;

  const std::optional<shardlab::quiz::Prediction>& prediction() const { return prediction_; }
  // The prediction's question in `lang`, its placeholders filled from the lesson's job.
  QString predictionText(const QString& lang) const;
  // The lesson's job and the machine, for the prediction's placeholders (set before setLesson).
  void setPlaceholderValues(const shardlab::quiz::PlaceholderValues& values) { placeholderValues_ = values; }
  // Records the learner's guess; false when the text is not a value of the prediction's kind.
  bool savePrediction(const QString& text);
  // The saved prediction against the run's measurement; none before a run or a guess.
  std::optional<PredictionCheck> checkPrediction();

Q_SIGNALS:
  void itemsChanged();
  void progressChanged(); // an answer, a reset or another learner

private:
  void rebuild();
  void saveProgress();
  shardlab::quiz::AnswerKey keyOf(const Item& item) const;

  TraceModel& model_;
  PlaybackController& playback_;
  std::unique_ptr<shardlab::quiz::QuestionBank> bank_;
  std::unique_ptr<shardlab::quiz::Progress> progress_;
  QString progressProblem_;
  const std::string session_; // this start of the app: predictions are kept per session
  QString lesson_, traceHash_;
  std::optional<shardlab::quiz::RunRecord> run_; // the run on screen, recorded in each learner's file
  std::vector<shardlab::quiz::Question> guide_;
  std::vector<shardlab::quiz::ObservedQuestion> observed_;
  std::optional<shardlab::quiz::Prediction> prediction_;
  shardlab::quiz::PlaceholderValues placeholderValues_;
  std::optional<shardlab::quiz::Lab> lab_;
  const shardlab::trace::Trace* second_ = nullptr;
  std::vector<Item> items_;
  std::string pendingMoment_; // "Show me" asked for it while its lesson was not loaded
  std::uint64_t seed_ = 1;
};

} // namespace shardlab::app
