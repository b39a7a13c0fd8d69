// WorkspacePage: the page a run is shown on. Above the views, the run's label, the
// switch between what was measured and a replay of it, the step progress, a message
// (what is running, how a run ended), the lesson's sizing note and its check; then the
// views in tabs (ranks, pipeline, plots, summary, memory ledger, both runs) over the
// timeline, the caption and the playback bar. It keeps the views in step with the
// models: events streaming in repaint them at most every 40 ms (the plots, summary and
// ledger every 500 ms), the playhead moves all of them. In presentation mode the quiz
// overlay lies over the right part of the views.
#pragma once

#include "trace/Replay.h"
#include "trace/Trace.h"

#include <QTimer>
#include <QWidget>

#include <optional>

class QButtonGroup;
class QLabel;
class QProgressBar;
class QTabWidget;

namespace shardlab::app {

class CaptionBar;
class CompareView;
class LedgerView;
class LessonCheckBar;
class LessonFlow;
class PipelineView;
class PlaybackBar;
class PlaybackController;
class PlotsView;
class QuizOverlay;
class RankView;
class SummaryView;
class TimelineView;
class TraceModel;

class WorkspacePage : public QWidget {
  Q_OBJECT
public:
  // `model` is the run shown, `comparison` a comparison lesson's second run; `flow` says
  // whether a run is streaming (no replay of it then) or waits for the learner's prediction.
  WorkspacePage(TraceModel& model, TraceModel& comparison, PlaybackController& playback, LessonFlow& flow,
                QWidget* parent = nullptr);

  RankView* rankView() const { return rankView_; }
  TimelineView* timelineView() const { return timeline_; }
  PipelineView* pipelineView() const { return pipeline_; }
  PlotsView* plotsView() const { return plots_; }
  SummaryView* summaryView() const { return summary_; }
  LedgerView* ledgerView() const { return ledger_; }
  // The "Both runs" tab: a comparison lesson's two runs side by side, one playhead.
  CompareView* compareView() const { return compareView_; }
  CaptionBar* captionBar() const { return caption_; }
  PlaybackBar* playbackBar() const { return playbar_; }
  // What the lesson's own check said of the last lesson's runs (hidden before one ended).
  LessonCheckBar* lessonCheck() const { return lessonCheck_; }
  QuizOverlay* quizOverlay() const { return quizOverlay_; }
  bool comparisonShown() const;

  // Shows the view named ranks, both (a comparison's two runs), pipeline, plots, compare
  // (Plots → Compare runs), summary or ledger, and asks to be shown (showRequested); false
  // for another name (or both, compare without a comparison).
  bool showView(const QString& name);
  // Pushes pending model changes into the views now (tests, screenshots).
  void refreshViews();
  // A hung or failed run (TraceModel::ending()): the playhead at its last moments, the
  // timeline around them, what happened in the message above the views. False (and
  // nothing changed) for a run that did not end so.
  bool showEnding();
  // The switch over the views: the measured run (nullopt) or a replay of it.
  void showRun(std::optional<shardlab::trace::ReplayMode> mode);

  // The message above the views; a problem is shown on the problem colour.
  void showMessage(const QString& text, bool problem);
  QString message() const { return message_; }
  // The lesson's sizing note (Markdown; "" hides it). Hidden while presenting.
  void setLessonNote(const QString& markdown);
  // A trace read from a file is the run now (not live, no comparison, no lesson note).
  void showTrace(shardlab::trace::Trace trace);
  // File → Compare with trace: the file beside the run in Plots and the ledger; a file
  // that cannot be read says why in the message.
  void compareWithTrace(const QString& path);
  // A comparison: the second run beside the first in Both runs, Plots and the ledger.
  void showComparison(const QString& labelA, const QString& labelB);
  // A trace opened to compare with (File → Compare with trace): in Plots and the ledger.
  void compareWithFile(const QString& fileName);
  // No comparison in Plots (a new lesson or run).
  void clearComparison();
  // A free experiment from the form: no comparison run, no lesson's sizing note.
  void startExperiment();
  // A free experiment or an opened trace: the views stop saying a run is awaited.
  void leaveLesson();
  // On a projector the room reads the run: no sizing note, the Both runs tab's
  // timelines give their height to the cards.
  void setPresenting(bool on);
  void setQuizOverlayShown(bool shown);
  bool quizOverlayShown() const;
  // The current view takes the keys (after a prediction or a click elsewhere).
  void focusCurrentView();

Q_SIGNALS:
  // A view was chosen: the window brings this page to the front.
  void showRequested();

protected:
  void changeEvent(QEvent* e) override;
  void resizeEvent(QResizeEvent* e) override;
  bool event(QEvent* e) override;

private:
  // The lesson flow's runs: the playback goes live while one streams, the message says
  // what runs (or that it has been silent), the last lesson's check and comparison go.
  void followFlow();
  void onModelReset();
  // The "Both runs" tab is offered while there is a comparison run.
  void syncCompareTab();
  // The switch follows the model (a new run shows what was measured) and is offered
  // once a finished run has ops to replay.
  void syncShownSwitch();
  void rebuildCurrentTab();
  void placeQuizOverlay();
  void retranslate();

  TraceModel& model_;
  TraceModel& compare_;
  PlaybackController& playback_;
  LessonFlow& flow_;
  QTimer viewTimer_, slowTimer_;
  bool presenting_ = false;
  QString message_;
  QLabel* runLabel_ = nullptr;
  QWidget* shownSwitch_ = nullptr; // measured | schedule alone | projected
  QButtonGroup* shownGroup_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* messageLabel_ = nullptr;
  QLabel* lessonNote_ = nullptr; // the size chosen for this machine and why
  LessonCheckBar* lessonCheck_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  RankView* rankView_ = nullptr;
  PipelineView* pipeline_ = nullptr;
  PlotsView* plots_ = nullptr;
  SummaryView* summary_ = nullptr;
  LedgerView* ledger_ = nullptr;
  CompareView* compareView_ = nullptr;
  TimelineView* timeline_ = nullptr;
  CaptionBar* caption_ = nullptr;
  PlaybackBar* playbar_ = nullptr;
  QuizOverlay* quizOverlay_ = nullptr;
};

} // namespace shardlab::app
