// QuizPanel: the Quiz dock. Shows the current lesson's guide questions (choices
// shuffled through quiz::Attempt) and the observation questions generated from the
// current run's own trace, one at a time: pick a choice, Check, read the
// explanation quoting the run's figures, and "Show me" moves the playhead to the
// evidence moment (running the lesson first when its trace is not loaded).
// Answers go to quiz::Progress (QStandardPaths::AppDataLocation/progress.json).
#pragma once

#include "quiz/bank/Attempt.h"
#include "quiz/bank/Lab.h"
#include "quiz/bank/Lesson.h"
#include "quiz/observations/Observation.h"
#include "quiz/progress/Progress.h"
#include "quiz/bank/QuestionBank.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class PlaybackController;
class QButtonGroup;
class QFrame;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QTabWidget;
class ReviewView;
class TraceModel;

class QuizPanel : public QWidget {
  Q_OBJECT
public:
  QuizPanel(TraceModel& model, PlaybackController& playback, QWidget* parent = nullptr);
  ~QuizPanel() override;

  // The lesson whose guide questions to ask ("" for none).
  void setLesson(const QString& lessonId);
  QString lesson() const { return lesson_; }
  // Regenerates the observation questions from the current trace (after a run or a
  // load), with the second run of a comparison lesson when given; then compares the
  // learner's prediction with the measurement.
  void refreshObservations(const QString& traceFile = QString(), const shardlab::trace::Trace* second = nullptr);
  // An instructor's lab: its steps' questions and observation templates replace the lesson's.
  void setLab(const shardlab::quiz::Lab& lab);
  // The lesson's prediction ("" when it has none), and recording the learner's guess;
  // false when the text is not a value of the prediction's kind.
  QString predictionQuestion() const;
  bool savePrediction(const QString& text);
  QString predictionResult() const;
  bool hasPrediction() const { return prediction_.has_value(); }
  // Before a lesson's run: the learner predicts first, then predictionDone() starts the
  // run (a "Run without predicting" button skips). awaitingMessage() says so.
  void setAwaitingPrediction(bool on);
  QString awaitingMessage() const;
  ReviewView* review() const { return review_; }
  // Where answers are saved (default: AppDataLocation/progress.json).
  void setProgressFile(const QString& path);
  const shardlab::quiz::Progress& progress() const { return *progress_; }

  int questionCount() const { return static_cast<int>(items_.size()); }
  int currentIndex() const { return current_; }
  void showQuestion(int index);
  // Index of the first observation question; -1 when there is none.
  int firstObservation() const;
  // Shown choice texts of the current question.
  QStringList shownChoices() const;
  QString questionText() const;
  QString explanationText() const;
  QString evidenceText() const;
  // Shown position of the current question's correct choice (-1 without a question).
  int correctShown() const;
  // Answers the current question with the choice shown at `shown`; true when right.
  bool answer(int shown);
  // Moves the playhead to the current question's evidence; false when the loaded
  // run does not show it (a lessonRunRequested() follows when a lesson can).
  bool showMe();

Q_SIGNALS:
  void predictionDone(); // saved or skipped while a lesson waits for it
  void lessonRunRequested(const QString& lessonId);

protected:
  void changeEvent(QEvent* e) override;

private:
  struct Item {
    shardlab::quiz::AttemptItem item;
    std::optional<shardlab::quiz::ObservedQuestion> observed;
  };
  void rebuild();
  void retranslate();
  void comparePrediction();
  void refreshReview();
  QString tr3(const char* key) const;
  QString lang() const;

  TraceModel& model_;
  PlaybackController& playback_;
  std::unique_ptr<shardlab::quiz::QuestionBank> bank_;
  std::unique_ptr<shardlab::quiz::Progress> progress_;
  QString lesson_, traceHash_;
  std::vector<shardlab::quiz::Question> guide_;
  std::vector<shardlab::quiz::ObservedQuestion> observed_;
  std::optional<shardlab::quiz::Prediction> prediction_;
  std::optional<shardlab::quiz::Lab> lab_;
  const shardlab::trace::Trace* second_ = nullptr;
  std::vector<Item> items_;
  int current_ = -1;
  std::string pendingMoment_; // "Show me" asked for it while its lesson was not loaded
  std::uint64_t seed_ = 1;

  QLabel* header_ = nullptr;
  QLabel* question_ = nullptr;
  QLabel* explanation_ = nullptr;
  QLabel* evidence_ = nullptr;
  std::vector<QRadioButton*> choices_;
  std::vector<QLabel*> choiceLabels_; // the wrapped text beside each button
  QButtonGroup* group_ = nullptr;
  QPushButton *check_ = nullptr, *showMe_ = nullptr, *prev_ = nullptr, *next_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  ReviewView* review_ = nullptr;
  QFrame* predictionBox_ = nullptr;
  QLabel *predictionText_ = nullptr, *predictionResult_ = nullptr;
  QLineEdit* predictionInput_ = nullptr;
  QPushButton* predictionSave_ = nullptr;
  QPushButton* predictionSkip_ = nullptr;
  bool awaitingPrediction_ = false;
};
