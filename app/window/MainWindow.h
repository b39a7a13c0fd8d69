// MainWindow: the page stack (the start page, the workspace a run is shown on), the
// docks beside it (experiment form, log, quiz, guide, lab) and the menus. It owns the
// models (TraceModel, PlaybackController, LessonFlow) and tells the docks and the
// pages what the lesson flow does; the workspace keeps its views in step itself.
#pragma once

#include "models/JobRunner.h"
#include "models/LessonCatalog.h"
#include "models/LessonFlow.h"
#include "models/MachineProfile.h"
#include "models/PlaybackController.h"
#include "models/TraceModel.h"

#include <QMainWindow>

class QDockWidget;
class QStackedWidget;

namespace shardlab::app {

class ExperimentPanel;
class GuidePanel;
class LabPanel;
class LearnerMenu;
class LogPane;
class QuizPanel;
class QuizPlace;
class StartPage;
class WorkspacePage;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit MainWindow(QWidget* parent = nullptr);

  TraceModel& model() { return model_; }
  TraceModel& comparisonModel() { return compare_; }
  PlaybackController& playback() { return playback_; }
  LessonFlow& flow() { return flow_; }
  JobRunner& runner() { return flow_.runner(); }
  const LessonCatalog& catalog() const { return catalog_; }
  // The pages.
  StartPage* startPage() const { return start_; }
  WorkspacePage* workspace() const { return workspace_; }
  // The docks' panels.
  LogPane* logPane() const { return log_; }
  ExperimentPanel* experimentPanel() const { return experiment_; }
  QuizPanel* quizPanel() const { return quiz_; }
  GuidePanel* guidePanel() const { return guide_; }
  LabPanel* labPanel() const { return lab_; }

  // The Learner menu: whose progress the quiz records, and forgetting it.
  LearnerMenu* learnerMenu() const { return learner_; }
  // Help → Keyboard shortcuts: every action with a shortcut, from the menus.
  QString shortcutsHtml() const;

  // Opens a trace file; returns the error text (empty on success).
  QString openTrace(const QString& path);
  // Presentation mode: hide the experiment form and the log; the quiz becomes an overlay
  // over the views that the instructor shows or hides (View → Quiz overlay, F9).
  void setPresentationLayout(bool on);
  bool presentationLayout() const;
  // The quiz in front: the dock, or in presentation mode the overlay (QuizPlace).
  void showQuiz();
  // Runs a lesson's job(s); lessonFinished() tells when all ended. With
  // askPrediction, a lesson that has a prediction waits for the learner's first.
  bool runLesson(const QString& id, bool askPrediction = false);
  // Exports say where they wrote in the status bar (or why they could not).
  bool exportChromeTrace(const QString& path);
  // File → Open lab: validates with quiz::LabLoader; every error goes to the log (and a dialog when shown).
  // A valid lab opens in the Lab dock (title, steps, notes) beside the workspace.
  bool openLabFile(const QString& path);
  bool exportPng(const QString& path); // the whole window: views, timeline, caption and docks
  void showWorkspace();
  void showStartPage();

Q_SIGNALS:
  void lessonFinished(bool ok, const QString& explanation);

protected:
  void closeEvent(QCloseEvent*) override;
  void changeEvent(QEvent*) override;

private:
  void buildDocks();
  QDockWidget* addDock(const QString& name, QWidget* panel, Qt::DockWidgetArea area);
  void buildMenus();
  void connectFlow();
  void onLessonStarting(const Lesson& lesson);
  void onPredictionAwaited();
  void onRunFinished(JobRunner::Outcome outcome, const QString& text);
  void onComparisonFinished(const QString& text);
  // File → Open trace and the start page's button: one dialog.
  void chooseTraceToOpen();
  void choosePytorchFolderToOpen();
  // An export's outcome in the status bar (`written` has %1 for the file), a failure above the views too.
  bool exported(bool ok, const QString& path, const QString& written);
  // Says it above the views and in the log.
  void report(const QString& text, bool problem);
  // The start page's ticks: lessons whose questions this learner answered.
  void refreshCompletion();
  // A free experiment or an opened trace: no lesson's guide, questions or prediction.
  void leaveLesson();
  // After a prediction or a click elsewhere: the current view takes the keys again.
  void focusView();
  void retranslate();

  LessonCatalog catalog_;
  MachineProfile machine_;  // sizes the catalog's lessons once known
  TraceModel model_;
  TraceModel compare_;
  PlaybackController playback_;
  LessonFlow flow_;
  QStackedWidget* stack_ = nullptr;
  StartPage* start_ = nullptr;
  WorkspacePage* workspace_ = nullptr;
  ExperimentPanel* experiment_ = nullptr;
  QDockWidget* experimentDock_ = nullptr;
  LogPane* log_ = nullptr;
  QDockWidget* logDock_ = nullptr;
  QuizPanel* quiz_ = nullptr;
  QDockWidget* quizDock_ = nullptr;
  QuizPlace* quizPlace_ = nullptr;
  GuidePanel* guide_ = nullptr;
  QDockWidget* guideDock_ = nullptr;
  LearnerMenu* learner_ = nullptr;
  LabPanel* lab_ = nullptr;
  QDockWidget* labDock_ = nullptr;
  QString lessonId_; // the lesson running or last run
};

} // namespace shardlab::app
