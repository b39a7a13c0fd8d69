// MainWindow: the layout and the menus. It wires the models (TraceModel,
// PlaybackController), the lesson's jobs (LessonFlow) and the views (RankView,
// TimelineView, PipelineView, PlotsView, SummaryView, CaptionBar, QuizPanel)
// together, and owns the docks and the start page.
#pragma once

#include "models/JobRunner.h"
#include "models/LessonCatalog.h"
#include "models/LessonFlow.h"
#include "models/MachineProfile.h"
#include "models/PlaybackController.h"
#include "models/TraceModel.h"

#include <QMainWindow>
#include <QTimer>

class CaptionBar;
class CompareView;
class ExperimentPanel;
class GuidePanel;
class LabPanel;
class LessonCheckBar;
class LogPane;
class PipelineView;
class PlaybackBar;
class PlotsView;
class QButtonGroup;
class QLabel;
class QProgressBar;
class QDockWidget;
class QuizPanel;
class QStackedWidget;
class QTabWidget;
class RankView;
class StartPage;
class SummaryView;
class LedgerView;
class TimelineView;

class MainWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  TraceModel& model() { return model_; }
  TraceModel& comparisonModel() { return compare_; }
  PlaybackController& playback() { return playback_; }
  JobRunner& runner() { return flow_.runner(); }
  RankView* rankView() const { return rankView_; }
  TimelineView* timelineView() const { return timeline_; }
  PipelineView* pipelineView() const { return pipeline_; }
  PlotsView* plotsView() const { return plots_; }
  // The "Both runs" tab: a comparison lesson's two runs side by side, one playhead.
  CompareView* compareView() const { return compareView_; }
  bool comparisonShown() const;
  CaptionBar* captionBar() const { return caption_; }
  LogPane* logPane() const { return log_; }
  ExperimentPanel* experimentPanel() const { return experiment_; }
  QuizPanel* quizPanel() const { return quiz_; }
  GuidePanel* guidePanel() const { return guide_; }
  // Learner menu, without its dialogs: whose progress the quiz records, and forgetting it.
  void switchLearner(const QString& name);
  void resetProgress();
  const LessonCatalog& catalog() const { return catalog_; }
  QString lastMessage() const { return message_; }
  StartPage* startPage() const { return start_; }
  LabPanel* labPanel() const { return lab_; }
  // Help → Keyboard shortcuts: every action with a shortcut, from the menus.
  QString shortcutsHtml() const;

  // Opens a trace file; returns the error text (empty on success).
  QString openTrace(const QString& path);
  // Presentation mode: hide the experiment form and the log; the quiz becomes an overlay
  // over the views that the instructor shows or hides (View → Quiz overlay, F9).
  void setPresentationLayout(bool on);
  bool presentationLayout() const { return presenting_; }
  void setQuizOverlayShown(bool shown);
  bool quizOverlayShown() const;
  QWidget* quizOverlay() const { return quizOverlay_; }
  // The quiz in front: the dock, or in presentation mode the overlay.
  void showQuiz();
  // Runs a lesson's job(s); lessonFinished() tells when all ended. With
  // askPrediction, a lesson that has a prediction waits for the learner's first.
  bool runLesson(const QString& id, bool askPrediction = false);
  // What the lesson's own check said of the last lesson's runs (hidden before one ended).
  const LessonCheckBar* lessonCheck() const { return lessonCheck_; }
  bool waitingForPrediction() const { return flow_.waitingForPrediction(); }
  // Exports say where they wrote in the status bar (or why they could not).
  bool exportChromeTrace(const QString& path);
  // File → Open lab: validates with quiz::LabLoader; every error goes to the log (and a dialog when shown).
  // A valid lab opens in the Lab dock (title, steps, notes) beside the workspace.
  bool openLabFile(const QString& path);
  bool exportPng(const QString& path); // the whole window: views, timeline, caption and docks
  void showWorkspace();
  void showStartPage();
  // Shows the view named ranks, both (a comparison's two runs), pipeline, plots, compare
  // (Plots → Compare runs) or summary; false for another name (or both, compare without a comparison).
  bool showView(const QString& name);
  // Pushes pending model changes into the views now (tests, screenshots).
  void refreshViews();
  // A hung or failed run (TraceModel::ending()): the playhead at its last moments, the
  // timeline around them, what happened in the message above the views. False (and
  // nothing changed) for a run that did not end so.
  bool showEnding();
  // The switch over the views: the measured run (nullopt) or a replay of it.
  void showRun(std::optional<shardlab::trace::ReplayMode> mode);

Q_SIGNALS:
  void lessonFinished(bool ok, const QString& explanation);

protected:
  void closeEvent(QCloseEvent*) override;
  bool eventFilter(QObject* watched, QEvent* event) override;
  void changeEvent(QEvent*) override;

private:
  void buildMenus();
  void onJobStarting(const shardlab::JobConfig& job);
  void onRunFinished(JobRunner::Outcome outcome, const QString& text);
  void onComparisonFinished(const QString& text);
  // File → Open trace and the start page's button: one dialog.
  void chooseTraceToOpen();
  void onModelReset();
  // The "Both runs" tab is offered while there is a comparison run.
  void syncCompareTab();
  void showMessage(const QString& text, bool problem);
  // The start page's ticks: lessons whose questions this learner answered.
  void refreshCompletion();
  // A free experiment or an opened trace: no lesson's guide, questions or prediction.
  void leaveLesson();
  // After a prediction or a click elsewhere: the current view takes the keys again.
  void focusView();
  void placeQuizOverlay();
  void retranslate();

  LessonCatalog catalog_;
  MachineProfile machine_;  // sizes the catalog's lessons once known
  TraceModel model_;
  TraceModel compare_;
  PlaybackController playback_;
  LessonFlow flow_;
  QTimer viewTimer_, slowTimer_;
  QStackedWidget* stack_ = nullptr;
  StartPage* start_ = nullptr;
  LessonCheckBar* lessonCheck_ = nullptr; // the lesson's own check on this run
  QLabel* lessonNote_ = nullptr;  // the size chosen for this machine and why; the lab's notes
  QWidget* workspace_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  RankView* rankView_ = nullptr;
  TimelineView* timeline_ = nullptr;
  PipelineView* pipeline_ = nullptr;
  PlotsView* plots_ = nullptr;
  CompareView* compareView_ = nullptr;
  SummaryView* summary_ = nullptr;
  LedgerView* ledger_ = nullptr;
  CaptionBar* caption_ = nullptr;
  PlaybackBar* playbar_ = nullptr;
  ExperimentPanel* experiment_ = nullptr;
  LogPane* log_ = nullptr;
  QLabel* runLabel_ = nullptr;
  QLabel* message_label_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QWidget* shownSwitch_ = nullptr;   // measured | schedule alone | projected
  QButtonGroup* shownGroup_ = nullptr;
  void syncShownSwitch();
  QuizPanel* quiz_ = nullptr;
  QDockWidget* quizDock_ = nullptr;
  QWidget* quizOverlay_ = nullptr; // presentation mode: holds the quiz over the views
  QAction* quizOverlayAction_ = nullptr;
  bool presenting_ = false;
  GuidePanel* guide_ = nullptr;
  QDockWidget* guideDock_ = nullptr;
  QAction* learnerLabel_ = nullptr; // "Learner: NAME" in the Learner menu
  LabPanel* lab_ = nullptr;
  QDockWidget* labDock_ = nullptr;
  QString lessonId_; // the lesson running or last run
  QString message_;
};
