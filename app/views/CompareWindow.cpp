#include "views/CompareWindow.h"

#include "views/CompareView.h"
#include "views/PlaybackBar.h"

#include <QShortcut>
#include <QVBoxLayout>

namespace shardlab::app {

CompareWindow::CompareWindow(const TraceModel& a, const TraceModel& b, QWidget* parent)
    : QWidget(parent, Qt::Window), playback_(a) {
  setWindowTitle(tr("ShardLab — compare two runs"));
  auto* l = new QVBoxLayout(this);
  view_ = new CompareView(a, b, this);
  l->addWidget(view_, 1);
  l->addWidget(new PlaybackBar(playback_, this));
  view_->modelReset();
  connect(&playback_, &PlaybackController::timeChanged, view_, &CompareView::setTime);
  connect(view_, &CompareView::timeRequested, &playback_, &PlaybackController::setTime);
  new QShortcut(QKeySequence(Qt::Key_Space), this, [this] { playback_.togglePlay(); });
  new QShortcut(QKeySequence(Qt::Key_Right), this, [this] { playback_.nextEvent(); });
  new QShortcut(QKeySequence(Qt::Key_Left), this, [this] { playback_.previousEvent(); });
  playback_.setFollower(&view_->follower()); // the playhead plays both runs to their ends
  playback_.fitDuration();
  resize(1400, 800);
  // From the first run's start: the bar reads 0 at the left, not the run's clock.
  playback_.modelReset();
  view_->setTime(playback_.time());
}

} // namespace shardlab::app
