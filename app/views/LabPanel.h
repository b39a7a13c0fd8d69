// LabPanel: an instructor's lab beside the run: its title and description, its steps
// with the ones done ticked, the current step's notes (placeholders filled from the
// job the step runs: the lesson's runs with the step's spec applied, LessonCatalog),
// and the buttons "Run this step" and "Next step". It runs nothing itself: the window
// runs the lesson it names (stepRunRequested) and tells it how the lesson ended.
#pragma once

#include "quiz/bank/Lab.h"

#include <QSet>
#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTextBrowser;

namespace shardlab::app {

class LessonCatalog;
class QuizController;

class LabPanel : public QWidget {
  Q_OBJECT
public:
  explicit LabPanel(const LessonCatalog& catalog, QWidget* parent = nullptr);

  // A new lab starts at its first step with none done.
  void setLab(const shardlab::quiz::Lab& lab);
  bool hasLab() const { return lab_.has_value(); }
  int stepCount() const;
  int currentStep() const { return current_; }
  void setCurrentStep(int step);
  bool isDone(int step) const { return done_.contains(step); }
  // The lesson id of a step ("" outside the lab).
  QString lessonOf(int step) const;
  // The lesson `lessonId` runs: the current step becomes its step (the current one when it
  // is one of its steps already). True when the current step is the lesson's.
  bool showStepOf(const QString& lessonId);
  // The lesson `lessonId` ended: the current step (or else the first step of that
  // lesson) is done when it went as planned.
  void lessonFinished(const QString& lessonId, bool ok);
  // What is shown, in the UI language (tests, screenshots).
  QString titleText() const;
  QString notesMarkdown() const;
  // Texts again from the catalog: after the lessons were sized for the machine.
  void refresh();
  // Where the learner's answers are, for the results at the lab's end (nullptr: none shown).
  void setQuiz(const QuizController* quiz) { quiz_ = quiz; }
  // After the last step: "Lab complete: N of N steps done" and each step's results.
  bool isFinished() const { return finished_; }
  QString progressText() const;
  QString resultsMarkdown() const;

public Q_SLOTS:
  void runCurrentStep();
  // Moves to the next step and runs it; after the last step, finishes the lab.
  void nextStep();
  void finish();

Q_SIGNALS:
  void stepRunRequested(const QString& lessonId);
  // Another step is current (not yet run): its questions are asked with its job.
  void currentStepChanged(const QString& lessonId);

protected:
  void changeEvent(QEvent* e) override;

private:
  const LessonCatalog& catalog_;
  std::optional<shardlab::quiz::Lab> lab_;
  int current_ = 0;
  QSet<int> done_;
  bool finished_ = false;
  const QuizController* quiz_ = nullptr;
  QLabel* title_;
  QLabel* description_;
  QLabel* progressText_; // beside the bar, not over it (a centred text splits over the fill)
  QProgressBar* progressBar_;
  QListWidget* steps_;
  QLabel* notesHeading_;
  QTextBrowser* notes_;
  QPushButton* run_;
  QPushButton* next_;
  bool updating_ = false;
};

} // namespace shardlab::app
