#include "views/WorkspacePage.h"

#include "models/JobText.h"
#include "models/LessonCatalog.h"
#include "models/LessonFlow.h"
#include "models/PlaybackController.h"
#include "models/TraceModel.h"
#include "views/CaptionBar.h"
#include "views/CompareView.h"
#include "views/LedgerView.h"
#include "views/LessonCheckBar.h"
#include "views/Palette.h"
#include "views/PipelineView.h"
#include "views/PlaybackBar.h"
#include "views/PlotsView.h"
#include "views/QuizOverlay.h"
#include "views/RankView.h"
#include "views/SummaryView.h"
#include "views/TimelineView.h"

#include <QButtonGroup>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace shardlab::app {

namespace st = shardlab::trace;

WorkspacePage::WorkspacePage(TraceModel& model, TraceModel& comparison, PlaybackController& playback, LessonFlow& flow,
                             QWidget* parent)
    : QWidget(parent), model_(model), compare_(comparison), playback_(playback), flow_(flow) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  auto* header = new QHBoxLayout;
  runLabel_ = new QLabel(this);
  QFont bold = runLabel_->font();
  bold.setBold(true);
  runLabel_->setFont(bold);
  progress_ = new QProgressBar(this);
  progress_->setFormat(tr("%v / %m steps"));
  progress_->setMaximumWidth(260);
  progress_->setMinimumWidth(progress_->fontMetrics().horizontalAdvance(QStringLiteral("100 / 100 steps")) + 24);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  // The switch over the same views: what was measured, or a replay of it
  // (docs/replay.md), always labelled as such in the run label and the pipeline header.
  shownSwitch_ = new QWidget(this);
  shownSwitch_->setObjectName(QStringLiteral("shownSwitch"));
  auto* switchLayout = new QHBoxLayout(shownSwitch_);
  switchLayout->setContentsMargins(0, 0, 0, 0);
  switchLayout->setSpacing(0);
  shownGroup_ = new QButtonGroup(shownSwitch_);
  shownGroup_->setExclusive(true);
  for (int id = 0; id < 3; ++id) {
    auto* b = new QToolButton(shownSwitch_);
    b->setCheckable(true);
    b->setAutoRaise(false);
    b->setObjectName(QStringList{QStringLiteral("showMeasured"), QStringLiteral("showScheduleAlone"),
                                 QStringLiteral("showProjected")}[id]);
    shownGroup_->addButton(b, id);
    switchLayout->addWidget(b);
  }
  shownGroup_->button(0)->setChecked(true);
  connect(shownGroup_, &QButtonGroup::idClicked, this, [this](int id) {
    showRun(id == 0   ? std::nullopt
            : id == 1 ? std::optional(st::ReplayMode::ScheduleAlone)
                      : std::optional(st::ReplayMode::Reference));
  });
  header->addWidget(runLabel_, 1);
  header->addWidget(shownSwitch_);
  header->addWidget(progress_);
  layout->addLayout(header);
  messageLabel_ = new QLabel(this);
  messageLabel_->setWordWrap(true);
  messageLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  messageLabel_->hide();
  layout->addWidget(messageLabel_);
  lessonNote_ = new QLabel(this);
  lessonNote_->setObjectName(QStringLiteral("lessonNote"));
  lessonNote_->setTextFormat(Qt::MarkdownText);
  lessonNote_->setWordWrap(true);
  lessonNote_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  lessonNote_->hide();
  layout->addWidget(lessonNote_);
  // After a lesson's runs: did its point show here, and if not, why (the lesson's check).
  lessonCheck_ = new LessonCheckBar(this);
  layout->addWidget(lessonCheck_);
  connect(lessonCheck_, &LessonCheckBar::replayRequested, this, [this](st::ReplayMode mode) {
    showRun(mode);
    syncShownSwitch();
  });

  auto* split = new QSplitter(Qt::Vertical, this);
  tabs_ = new QTabWidget(split);
  rankView_ = new RankView(model_, tabs_);
  pipeline_ = new PipelineView(model_, tabs_);
  plots_ = new PlotsView(model_, tabs_);
  summary_ = new SummaryView(model_, tabs_);
  ledger_ = new LedgerView(model_, tabs_);
  compareView_ = new CompareView(model_, compare_, tabs_);
  compareView_->setObjectName(QStringLiteral("bothRuns"));
  playback_.setFollower(&compareView_->follower()); // a comparison plays both runs to their ends
  tabs_->addTab(rankView_, tr("Ranks"));
  tabs_->addTab(pipeline_, tr("Pipeline"));
  tabs_->addTab(plots_, tr("Plots"));
  tabs_->addTab(summary_, tr("Summary"));
  tabs_->addTab(ledger_, tr("Memory ledger"));
  tabs_->addTab(compareView_, tr("Both runs")); // offered while there is a comparison run
  timeline_ = new TimelineView(model_, split);
  // Click a view to focus it; the playback shortcuts (window-wide) then still apply.
  for (QWidget* view : std::initializer_list<QWidget*>{rankView_, compareView_, timeline_, pipeline_, plots_, summary_})
    view->setFocusPolicy(Qt::StrongFocus);
  split->addWidget(tabs_);
  split->addWidget(timeline_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);
  caption_ = new CaptionBar(model_, this);
  layout->addWidget(caption_);
  playbar_ = new PlaybackBar(playback_, this);
  layout->addWidget(playbar_);
  quizOverlay_ = new QuizOverlay(this);

  // Data flow: runner -> model -> (coalesced) views; playback -> views.
  viewTimer_.setSingleShot(true);
  viewTimer_.setInterval(40);
  slowTimer_.setSingleShot(true);
  slowTimer_.setInterval(500);
  connect(&model_, &TraceModel::appended, this, [this] {
    playback_.modelChanged();
    if (!viewTimer_.isActive()) viewTimer_.start();
    if (!slowTimer_.isActive()) slowTimer_.start();
  });
  connect(&model_, &TraceModel::reset, this, &WorkspacePage::onModelReset);
  // The comparison run streams into its own model; the "Both runs" tab shows it beside the first.
  connect(&compare_, &TraceModel::appended, this, [this] {
    if (!viewTimer_.isActive()) viewTimer_.start();
  });
  connect(&compare_, &TraceModel::reset, this, [this] {
    compareView_->modelReset();
    syncCompareTab();
  });
  connect(&viewTimer_, &QTimer::timeout, this, [this] {
    runLabel_->setText(model_.runLabel());
    timeline_->modelChanged();
    rankView_->update();
    pipeline_->update();
    if (comparisonShown()) {
      syncCompareTab(); // offered as soon as the comparison run streams in
      compareView_->modelChanged();
    }
    caption_->setTime(playback_.time());
    playbar_->refresh();
  });
  connect(&slowTimer_, &QTimer::timeout, this, &WorkspacePage::rebuildCurrentTab);
  connect(tabs_, &QTabWidget::currentChanged, this, [this] {
    // Both runs has a timeline per run: the page's own makes room for them.
    timeline_->setVisible(tabs_->currentWidget() != compareView_);
    rebuildCurrentTab();
  });
  connect(&flow_.runner(), &JobRunner::progress, this, [this](int done, int planned) {
    progress_->setRange(0, std::max(1, planned));
    progress_->setValue(std::min(done, std::max(1, planned)));
    progress_->setFormat(planned > 0 ? tr("%v / %m steps") : tr("no run"));
  });
  connect(&playback_, &PlaybackController::timeChanged, rankView_, &RankView::setTime);
  connect(&playback_, &PlaybackController::timeChanged, timeline_, &TimelineView::setTime);
  connect(&playback_, &PlaybackController::timeChanged, pipeline_, &PipelineView::setTime);
  connect(&playback_, &PlaybackController::timeChanged, caption_, &CaptionBar::setTime);
  connect(&playback_, &PlaybackController::timeChanged, plots_, &PlotsView::setTime);
  connect(&playback_, &PlaybackController::timeChanged, compareView_, &CompareView::setTime);
  const auto seek = [this](qint64 t) {
    playback_.setFollowLive(false);
    playback_.setTime(t);
  };
  connect(compareView_, &CompareView::timeRequested, &playback_, seek);
  connect(timeline_, &TimelineView::timeRequested, &playback_, seek);
  followFlow();
  retranslate();
  onModelReset();
}

void WorkspacePage::followFlow() {
  connect(&flow_, &LessonFlow::lessonStarting, this, [this](const Lesson& lesson) {
    clearComparison();
    setLessonNote(lesson.sizingMarkdown()); // the size chosen for this machine; a lab's notes are in the Lab dock
  });
  connect(&flow_, &LessonFlow::jobStarting, this, [this](const shardlab::JobConfig& job) {
    lessonCheck_->clear(); // a new run: the last lesson's check no longer describes what is shown
    Q_EMIT showRequested();
    showMessage(tr("Running: %1").arg(describeJob(job)), false);
    playback_.setLive(true);
    playback_.setFollowLive(true);
  });
  connect(&flow_, &LessonFlow::runFinished, this, [this] {
    playback_.setLive(false);
    playback_.setFollowLive(false);
    playback_.fitDuration();
    model_.breakdown(0); // the whole run's, not the last one computed while it streamed
    refreshViews();
  });
  // A run that records nothing for a while says so, and when it will stop (its hang timeout).
  connect(&flow_.runner(), &JobRunner::silenceChanged, this, [this](const QString& text) {
    if (!text.isEmpty()) showMessage(text, true);
    else if (flow_.runner().isRunning()) showMessage(tr("Running: %1").arg(describeJob(flow_.runner().config())), false);
  });
}

void WorkspacePage::showTrace(shardlab::trace::Trace trace) {
  playback_.setLive(false);
  compare_.clear();
  clearComparison();
  model_.setTrace(std::move(trace));
  playback_.fitDuration();
  setLessonNote(QString());
}

void WorkspacePage::compareWithTrace(const QString& path) {
  const QString err = compare_.loadFile(path);
  if (!err.isEmpty()) showMessage(err, true);
  compareWithFile(QFileInfo(path).fileName());
}

bool WorkspacePage::comparisonShown() const { return !compare_.isEmpty(); }

void WorkspacePage::rebuildCurrentTab() {
  if (tabs_->currentWidget() == plots_) plots_->rebuild();
  if (tabs_->currentWidget() == summary_) summary_->rebuild();
  if (tabs_->currentWidget() == ledger_) ledger_->rebuild();
}

void WorkspacePage::onModelReset() {
  syncShownSwitch();
  // While a lesson waits for its prediction the views say there is no run yet for it.
  rankView_->setAwaitingRun(flow_.waitingForPrediction());
  plots_->setAwaitingRun(flow_.waitingForPrediction());
  ledger_->setAwaitingRun(flow_.waitingForPrediction());
  playback_.modelReset();
  rankView_->modelReset();
  timeline_->modelReset();
  pipeline_->modelReset();
  runLabel_->setText(model_.runLabel());
  progress_->setRange(0, std::max(1, model_.stepsPlanned()));
  progress_->setValue(model_.stepsDone());
  // No run, no steps: not "0 / 1 steps".
  progress_->setFormat(model_.stepsPlanned() > 0 ? tr("%v / %m steps") : tr("no run"));
  plots_->rebuild();
  summary_->rebuild();
  ledger_->rebuild();
  caption_->setTime(playback_.time());
}

void WorkspacePage::syncCompareTab() {
  const int index = tabs_->indexOf(compareView_);
  tabs_->setTabVisible(index, comparisonShown());
  if (!comparisonShown() && tabs_->currentIndex() == index) tabs_->setCurrentWidget(rankView_);
}

void WorkspacePage::syncShownSwitch() {
  const auto& mode = model_.replayMode();
  const int id = !mode ? 0 : *mode == st::ReplayMode::ScheduleAlone ? 1 : 2;
  if (auto* b = shownGroup_->button(id); b && !b->isChecked()) b->setChecked(true);
  const bool imported = model_.imported();
  shownSwitch_->setEnabled(!flow_.isRunning() && !model_.measured().events.empty() && !imported);
  shownSwitch_->setToolTip(imported ? tr("An imported PyTorch trace is not replayed: it records no wait for a "
                                         "collective and not the time between its ops, so a replay would not be this run.")
                                    : QString());
}

void WorkspacePage::refreshViews() {
  onModelReset();
  syncCompareTab();
  const qint64 t = playback_.time();
  if (comparisonShown()) {
    compareView_->modelChanged();
    compareView_->setTime(t);
  }
  rankView_->setTime(t);
  timeline_->setTime(t);
  pipeline_->setTime(t);
  caption_->setTime(t);
  plots_->setTime(t);
  playbar_->refresh();
}

bool WorkspacePage::showView(const QString& name) {
  if ((name == QLatin1String("both") || name == QLatin1String("compare")) && !comparisonShown()) return false;
  if (name == QLatin1String("compare")) { // Plots → Compare runs
    Q_EMIT showRequested();
    tabs_->setCurrentWidget(plots_);
    plots_->showComparison();
    return true;
  }
  const std::pair<QString, QWidget*> views[] = {{QStringLiteral("ranks"), rankView_},
                                                {QStringLiteral("both"), compareView_},
                                                {QStringLiteral("pipeline"), pipeline_},
                                                {QStringLiteral("plots"), plots_},
                                                {QStringLiteral("summary"), summary_},
                                                {QStringLiteral("ledger"), ledger_}};
  for (const auto& [viewName, view] : views)
    if (viewName == name) {
      Q_EMIT showRequested();
      tabs_->setCurrentWidget(view);
      return true;
    }
  return false;
}

void WorkspacePage::showRun(std::optional<st::ReplayMode> mode) {
  if (flow_.isRunning() && mode) return; // a replay of a run still streaming would be stale at once
  model_.showReplay(mode);
  playback_.fitDuration();
  refreshViews();
}

bool WorkspacePage::showEnding() {
  const RunEnding& ending = model_.ending();
  if (ending.kind == RunEnding::Kind::None) return false;
  // The run's last moments: the playhead where the hang was seen or the rank failed,
  // the timeline from a little before it to the end, and what happened above the views.
  playback_.pause();
  playback_.setFollowLive(false);
  playback_.setTime(ending.moment);
  const qint64 end = std::max(model_.endTime(), ending.moment);
  timeline_->setVisibleRange(ending.windowStart, end + std::max<qint64>(1, (end - ending.windowStart) / 40));
  showMessage(ending.text(), true);
  return true;
}

void WorkspacePage::showMessage(const QString& text, bool problem) {
  message_ = text;
  messageLabel_->setText(text);
  messageLabel_->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; padding: 6px; border-radius: 4px; }")
                                   .arg((problem ? Palette::problem() : Palette::ok()).name()));
  messageLabel_->setVisible(!text.isEmpty());
}

void WorkspacePage::setLessonNote(const QString& markdown) {
  lessonNote_->setText(markdown);
  lessonNote_->setVisible(!markdown.isEmpty() && !presenting_);
}

void WorkspacePage::showComparison(const QString& labelA, const QString& labelB) {
  plots_->setComparison(&compare_, labelA, labelB);
  ledger_->setComparison(&compare_, labelA, labelB); // the ledger of each run
  // Both runs side by side, one playhead: what a comparison lesson is for.
  compareView_->setRunNames(labelA, labelB);
  compareView_->modelReset();
  syncCompareTab();
  tabs_->setCurrentWidget(compareView_);
  playback_.fitDuration(); // both runs, each to its own end (RunFollower::end())
  compareView_->setTime(playback_.time());
}

void WorkspacePage::compareWithFile(const QString& fileName) {
  plots_->setComparison(&compare_, tr("this run"), fileName);
  ledger_->setComparison(&compare_, tr("this run"), fileName);
}

void WorkspacePage::clearComparison() { plots_->setComparison(nullptr, {}, {}); }

void WorkspacePage::startExperiment() {
  compare_.clear();
  clearComparison();
  setLessonNote(QString());
}

void WorkspacePage::leaveLesson() {
  lessonCheck_->clear();
  rankView_->setAwaitingRun(false);
  plots_->setAwaitingRun(false);
  ledger_->setAwaitingRun(false);
}

void WorkspacePage::setPresenting(bool on) {
  presenting_ = on;
  lessonNote_->setVisible(!on && !lessonNote_->text().isEmpty());
  // The Both runs tab gives its timelines' height to the cards, whose unit cells a room
  // must read (16 px at 1280x720); its Timelines button brings them back.
  compareView_->setTimelinesShown(!on);
}

void WorkspacePage::setQuizOverlayShown(bool shown) {
  quizOverlay_->setVisible(shown);
  if (shown) {
    placeQuizOverlay();
    quizOverlay_->raise();
  }
}

bool WorkspacePage::quizOverlayShown() const { return !quizOverlay_->isHidden(); }

void WorkspacePage::placeQuizOverlay() {
  // The right part of the views, from the tabs down to the caption.
  const int top = tabs_->mapTo(this, QPoint(0, 0)).y();
  const int bottom = caption_->mapTo(this, QPoint(0, 0)).y() - 4;
  quizOverlay_->placeIn(QRect(QPoint(0, top), QPoint(width() - 4, std::max(top + 100, bottom))));
}

void WorkspacePage::focusCurrentView() { tabs_->currentWidget()->setFocus(Qt::OtherFocusReason); }

void WorkspacePage::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  if (quizOverlayShown()) placeQuizOverlay();
}

bool WorkspacePage::event(QEvent* e) {
  const bool handled = QWidget::event(e);
  if (e->type() == QEvent::LayoutRequest && quizOverlayShown()) placeQuizOverlay();
  return handled;
}

void WorkspacePage::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(e);
}

void WorkspacePage::retranslate() {
  runLabel_->setText(model_.runLabel());
  const QStringList names{tr("Measured"), tr("Schedule alone"), tr("Projected")};
  const QStringList tips{
      tr("What this run measured on this machine."),
      tr("Replay of this run's own dependency graph with communication free and each op at its fastest "
         "recorded time: what the schedule alone costs. A computation on the trace, not a new run."),
      tr("Replay of this run's graph with each transfer costed on %1 (docs/replay.md) and each op at its "
         "fastest recorded time. A computation on the trace, not a new run.")
          .arg(QString::fromUtf8(st::kReferenceInterconnect.name.data(),
                                 static_cast<qsizetype>(st::kReferenceInterconnect.name.size())))};
  for (int id = 0; id < 3; ++id) {
    shownGroup_->button(id)->setText(names[id]);
    shownGroup_->button(id)->setToolTip(tips[id]);
  }
  summary_->rebuild();
  ledger_->rebuild();
  plots_->rebuild();
  tabs_->setTabText(tabs_->indexOf(rankView_), tr("Ranks"));
  tabs_->setTabText(tabs_->indexOf(compareView_), tr("Both runs"));
  tabs_->setTabText(tabs_->indexOf(pipeline_), tr("Pipeline"));
  tabs_->setTabText(tabs_->indexOf(plots_), tr("Plots"));
  tabs_->setTabText(tabs_->indexOf(summary_), tr("Summary"));
  tabs_->setTabText(tabs_->indexOf(ledger_), tr("Memory ledger"));
}

} // namespace shardlab::app
