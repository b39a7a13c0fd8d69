#include "views/CompareWindow.h"

#include "models/JobText.h"
#include "views/PlaybackBar.h"
#include "views/RankView.h"
#include "views/TimelineView.h"

#include <QGridLayout>
#include <QLabel>
#include <QShortcut>

CompareWindow::CompareWindow(const TraceModel& a, const TraceModel& b, QWidget* parent)
    : QWidget(parent, Qt::Window), a_(a), b_(b), playback_(a.endTime() - a.startTime() >= b.endTime() - b.startTime() ? a : b) {
  setWindowTitle(tr("ShardLab — compare two runs"));
  auto* g = new QGridLayout(this);
  auto title = [](const TraceModel& m) {
    return m.config() ? m.runLabel() + QStringLiteral(" · ") + strategyLabel(m.config()->strategy) : m.runLabel();
  };
  g->addWidget(new QLabel(title(a), this), 0, 0);
  g->addWidget(new QLabel(title(b), this), 0, 1);
  rankA_ = new RankView(a, this);
  rankB_ = new RankView(b, this);
  timeA_ = new TimelineView(a, this);
  timeB_ = new TimelineView(b, this);
  g->addWidget(rankA_, 1, 0);
  g->addWidget(rankB_, 1, 1);
  g->addWidget(timeA_, 2, 0);
  g->addWidget(timeB_, 2, 1);
  g->setRowStretch(1, 3);
  g->setRowStretch(2, 2);
  g->addWidget(new PlaybackBar(playback_, this), 3, 0, 1, 2);
  for (auto* r : {rankA_, rankB_}) r->modelReset();
  for (auto* t : {timeA_, timeB_}) t->modelReset();
  // One playhead for both: the same time since start on each side, same zoom span.
  const qint64 span = std::max(a.endTime() - a.startTime(), b.endTime() - b.startTime());
  timeA_->setVisibleRange(a.startTime(), a.startTime() + span);
  timeB_->setVisibleRange(b.startTime(), b.startTime() + span);
  connect(&playback_, &PlaybackController::timeChanged, this, &CompareWindow::setTime);
  new QShortcut(QKeySequence(Qt::Key_Space), this, [this] { playback_.togglePlay(); });
  new QShortcut(QKeySequence(Qt::Key_Right), this, [this] { playback_.nextEvent(); });
  new QShortcut(QKeySequence(Qt::Key_Left), this, [this] { playback_.previousEvent(); });
  playback_.fitDuration();
  resize(1400, 800);
  // Both runs from their start: the bar reads 0 at the left, not the run's clock.
  playback_.modelReset();
}

void CompareWindow::setTime(qint64 t) {
  const qint64 rel = t - playback_.start();
  rankA_->setTime(a_.startTime() + rel);
  timeA_->setTime(a_.startTime() + rel);
  rankB_->setTime(b_.startTime() + rel);
  timeB_->setTime(b_.startTime() + rel);
}
