// QuizPanel: the Quiz dock's widgets over a QuizController. Shows the lesson's
// prediction, its guide questions and the observation questions of the run, one at
// a time: pick a choice, Check, read the explanation quoting the run's figures, and
// "Show me" moves the playhead to the evidence moment (running the lesson first when
// its trace is not loaded). The quiz texts come in the app language; the panel's own
// words are tr() strings.
#pragma once

#include "models/QuizController.h"

#include <QWidget>

#include <vector>

class QButtonGroup;
class QFrame;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QTabWidget;

namespace shardlab::app {

class PlaybackController;
class ReviewView;
class TraceModel;

class QuizPanel : public QWidget {
  Q_OBJECT
public:
  QuizPanel(TraceModel& model, PlaybackController& playback, QWidget* parent = nullptr);

  QuizController& controller() { return controller_; }
  // The lesson whose guide questions to ask ("" for none).
  void setLesson(const QString& lessonId);
  QString lesson() const { return controller_.lesson(); }
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
  bool hasPrediction() const { return controller_.prediction().has_value(); }
  // Before a lesson's run: the learner predicts first, then predictionDone() starts the
  // run (a "Run without predicting" button skips). awaitingMessage() says so.
  void setAwaitingPrediction(bool on);
  QString awaitingMessage() const;
  ReviewView* review() const { return review_; }
  // Where answers are saved (default: the learner's file, ProgressLocation.h).
  void setProgressFile(const QString& path) { controller_.setProgressFile(path); }
  // Another learner's progress, or this one's forgotten: the review and the prediction
  // box show nothing of the previous state.
  void setLearner(const QString& name);
  void resetProgress();
  const shardlab::quiz::Progress& progress() const { return controller_.progress(); }

  int questionCount() const { return static_cast<int>(controller_.items().size()); }
  int currentIndex() const { return current_; }
  void showQuestion(int index);
  // Index of the first observation question; -1 when there is none.
  int firstObservation() const { return controller_.firstObservation(); }
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
  void retranslate();
  void showPredictionCheck();
  void clearPredictionShown();
  void refreshReview();
  void showEvidence(const shardlab::quiz::MomentLocation& moment);
  // The quiz texts' language: the app's when it is fr or ru, else en.
  static std::string lang();

  QuizController controller_;
  int current_ = -1;

  QLabel* header_ = nullptr;
  QLabel* question_ = nullptr;
  QLabel* explanation_ = nullptr;
  QLabel* evidence_ = nullptr;
  std::vector<QRadioButton*> choices_;
  std::vector<QLabel*> choiceLabels_; // the wrapped text beside each button
  QButtonGroup* group_ = nullptr;
  QPushButton *check_ = nullptr, *showMe_ = nullptr, *prev_ = nullptr, *next_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QWidget* questionsPage_ = nullptr;
  ReviewView* review_ = nullptr;
  QFrame* predictionBox_ = nullptr;
  QLabel *predictionText_ = nullptr, *predictionResult_ = nullptr, *predictionMoment_ = nullptr;
  QPushButton* predictionShowMe_ = nullptr; // the moment that shows the prediction's answer
  QLineEdit* predictionInput_ = nullptr;
  QPushButton* predictionSave_ = nullptr;
  QPushButton* predictionSkip_ = nullptr;
  bool awaitingPrediction_ = false;
};

} // namespace shardlab::app
