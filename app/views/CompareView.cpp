#include "views/CompareView.h"

#include "views/CategoryLegend.h"
#include "models/JobText.h"
#include "views/PipelineView.h"
#include "views/RankView.h"
#include "views/TimelineView.h"

#include <QButtonGroup>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QStackedWidget>
#include <QToolButton>

namespace shardlab::app {

CompareView::CompareView(const TraceModel& a, const TraceModel& b, QWidget* parent)
    : QWidget(parent), model_{&a, &b}, follower_(a, b) {
  auto* g = new QGridLayout(this);
  g->setContentsMargins(0, 0, 0, 0);
  auto* choice = new QHBoxLayout;
  upperChoice_ = new QButtonGroup(this);
  upperChoice_->setExclusive(true);
  for (int id = 0; id < 2; ++id) {
    auto* button = new QToolButton(this);
    button->setCheckable(true);
    button->setObjectName(id == 0 ? QStringLiteral("compareRanks") : QStringLiteral("comparePipeline"));
    upperChoice_->addButton(button, id);
    choice->addWidget(button);
  }
  upperChoice_->button(0)->setChecked(true);
  // The timelines below the cards can be put away: at 1280x720 in presentation mode the
  // cards need that height for unit cells a room can read (MainWindow hides them there).
  timelinesButton_ = new QToolButton(this);
  timelinesButton_->setObjectName(QStringLiteral("compareTimelines"));
  timelinesButton_->setCheckable(true);
  timelinesButton_->setChecked(true);
  connect(timelinesButton_, &QToolButton::toggled, this, &CompareView::setTimelinesShown);
  choice->addSpacing(12);
  choice->addWidget(timelinesButton_);
  choice->addStretch();
  g->addLayout(choice, 0, 0, 1, 2);
  connect(upperChoice_, &QButtonGroup::idClicked, this, [this](int id) { showPipeline(id == 1); });
  for (int run = 0; run < 2; ++run) {
    title_[run] = new QLabel(this);
    // One line, so the views keep the height; the whole job in the tooltip.
    title_[run]->setMinimumWidth(1);
    QFont bold = title_[run]->font();
    bold.setBold(true);
    title_[run]->setFont(bold);
    upper_[run] = new QStackedWidget(this);
    rank_[run] = new RankView(*model_[run], upper_[run]);
    pipeline_[run] = new PipelineView(*model_[run], upper_[run]);
    upper_[run]->addWidget(rank_[run]);
    upper_[run]->addWidget(pipeline_[run]);
    timeline_[run] = new TimelineView(*model_[run], this);
    for (QWidget* view : std::initializer_list<QWidget*>{rank_[run], pipeline_[run], timeline_[run]})
      view->setFocusPolicy(Qt::StrongFocus);
    g->addWidget(title_[run], 1, run);
    g->addWidget(upper_[run], 2, run);
    g->addWidget(timeline_[run], 4, run);
    rank_[run]->setLegendShown(false);
  }
  // The categories are the same in both runs: one legend across both, so the cards keep
  // the height two legends would take (at 1280x720 in presentation mode, their unit cells).
  legend_ = new CategoryLegend(this);
  legend_->setObjectName(QStringLiteral("compareLegend"));
  g->addWidget(legend_, 3, 0, 1, 2);
  // A click on either timeline moves the one playhead there (through the first run's clock).
  connect(timeline_[0], &TimelineView::timeRequested, this, &CompareView::timeRequested);
  connect(timeline_[1], &TimelineView::timeRequested, this,
          [this](qint64 t) { Q_EMIT timeRequested(follower_.leadTimeOf(t, window_)); });
  // The cards or the diagram take most of the height; the timelines show the step below them.
  g->setRowStretch(2, 5);
  g->setRowStretch(4, 2);
  g->setColumnStretch(0, 1);
  g->setColumnStretch(1, 1);
  retitle();
}

void CompareView::setRunNames(const QString& a, const QString& b) {
  names_[0] = a;
  names_[1] = b;
  retitle();
}

void CompareView::showPipeline(bool on) {
  for (int run = 0; run < 2; ++run) upper_[run]->setCurrentIndex(on ? 1 : 0);
  legend_->setVisible(!on); // the pipeline diagram colours ops, not memory
  upperChoice_->button(on ? 1 : 0)->setChecked(true);
  window_ = {};
  setTime(time_);
}

bool CompareView::showsPipeline() const { return upper_[0]->currentIndex() == 1; }

void CompareView::setTimelinesShown(bool on) {
  for (int run = 0; run < 2; ++run) timeline_[run]->setVisible(on);
  // An empty row keeps its stretch: without the timelines the cards take their height.
  static_cast<QGridLayout*>(layout())->setRowStretch(4, on ? 2 : 0);
  timelinesButton_->setChecked(on);
}

bool CompareView::timelinesShown() const { return timelinesButton_->isChecked(); }

QString CompareView::runTitle(int run) const {
  const TraceModel& m = *model_[run];
  QString text = m.config() ? describeJob(*m.config()) + QStringLiteral(" · ") + m.runLabel() : m.runLabel();
  if (!names_[run].isEmpty()) text = names_[run] + QStringLiteral(" — ") + text;
  return text;
}

void CompareView::retitle() {
  upperChoice_->button(0)->setText(tr("Rank cards"));
  upperChoice_->button(1)->setText(tr("Pipeline diagram"));
  timelinesButton_->setText(tr("Timelines"));
  for (int run = 0; run < 2; ++run) {
    const QString text = runTitle(run);
    const int room = std::max(40, title_[run]->width());
    title_[run]->setText(title_[run]->fontMetrics().elidedText(text, Qt::ElideRight, room));
    title_[run]->setToolTip(text);
  }
}

void CompareView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  retitle();
}

void CompareView::setTime(qint64 leadTime) {
  time_ = leadTime;
  // Hidden (another tab, no comparison): nothing to draw, and finding the steps of a run
  // that is streaming in would cost a walk over its events at every frame.
  if (!isVisible()) return;
  const RunFollower::Window w = follower_.at(leadTime);
  // Past the first run's end (out of memory at once) it shows its last instant while the second plays on.
  const qint64 t[2] = {std::min(leadTime, std::max(model_[0]->endTime(), model_[0]->startTime())), w.followerTime};
  const qint64 stepStart[2] = {w.leadStart, w.followerStart};
  const bool newWindow = w.step != window_.step || w.span != window_.span || w.leadStart != window_.leadStart ||
                         w.followerStart != window_.followerStart || w.leadEnded != window_.leadEnded;
  window_ = w;
  // Both diagrams draw the steps they show at one scale, the longer one across the whole
  // width: the span of those steps' ops and waits (before the first step the diagrams show
  // the first steady step, not the setup the timelines' window spans).
  qint64 diagramSpan = w.span;
  if (showsPipeline()) {
    diagramSpan = 1;
    for (int run = 0; run < 2; ++run) {
      const auto [s0, s1] = pipeline_[run]->stepExtent(pipeline_[run]->stepAt(t[run]));
      if (s1 > s0) diagramSpan = std::max(diagramSpan, s1 - s0);
    }
  }
  for (int run = 0; run < 2; ++run) {
    // Both timelines show the step under the playhead over the same span of time.
    if (newWindow) timeline_[run]->setVisibleRange(stepStart[run], stepStart[run] + w.span);
    pipeline_[run]->setTimeSpan(diagramSpan);
    rank_[run]->setTime(t[run]);
    pipeline_[run]->setTime(t[run]);
    timeline_[run]->setTime(t[run]);
  }
}

void CompareView::modelReset() {
  for (int run = 0; run < 2; ++run) {
    rank_[run]->modelReset();
    pipeline_[run]->modelReset();
    timeline_[run]->modelReset();
  }
  window_ = {};
  // Pipeline runs are compared on the pipeline diagram.
  const auto& config = model_[0]->config();
  showPipeline(config && config->strategy == shardlab::StrategyKind::Pipeline);
  retitle();
  setTime(time_);
}

void CompareView::modelChanged() {
  retitle();
  window_ = {};
  setTime(time_);
}

void CompareView::showEvent(QShowEvent* e) {
  QWidget::showEvent(e);
  window_ = {};
  setTime(time_);
}

void CompareView::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) retitle();
  QWidget::changeEvent(e);
}

} // namespace shardlab::app
