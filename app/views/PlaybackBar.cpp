#include "views/PlaybackBar.h"

#include "models/Captions.h"
#include "models/PlaybackController.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

PlaybackBar::PlaybackBar(PlaybackController& playback, QWidget* parent) : QWidget(parent), playback_(playback) {
  auto* l = new QHBoxLayout(this);
  l->setContentsMargins(4, 2, 4, 2);
  auto button = [&](QStyle::StandardPixmap icon, const QString& tip, auto slot) {
    auto* b = new QToolButton(this);
    b->setIcon(style()->standardIcon(icon));
    b->setToolTip(tip);
    b->setAutoRaise(true);
    connect(b, &QToolButton::clicked, &playback_, slot);
    l->addWidget(b);
    return b;
  };
  button(QStyle::SP_MediaSkipBackward, tr("Start (Home)"), &PlaybackController::home);
  button(QStyle::SP_MediaSeekBackward, tr("Previous event (Left)"), &PlaybackController::previousEvent);
  play_ = button(QStyle::SP_MediaPlay, tr("Play / pause (Space)"), &PlaybackController::togglePlay);
  button(QStyle::SP_MediaSeekForward, tr("Next event (Right)"), &PlaybackController::nextEvent);
  auto* coll = new QToolButton(this);
  coll->setText(tr("Next collective"));
  coll->setToolTip(tr("Next collective (Ctrl+Right)"));
  connect(coll, &QToolButton::clicked, &playback_, &PlaybackController::nextCollective);
  l->addWidget(coll);
  auto* phase = new QToolButton(this);
  phase->setText(tr("Next phase"));
  phase->setToolTip(tr("Next phase: forward, backward, optimizer, step end (Shift+Right)"));
  connect(phase, &QToolButton::clicked, &playback_, &PlaybackController::nextPhase);
  l->addWidget(phase);
  button(QStyle::SP_MediaSkipForward, tr("End (End)"), &PlaybackController::toEnd);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 10000);
  slider_->setToolTip(tr("Scrub over the recorded time"));
  l->addWidget(slider_, 1);
  time_ = new QLabel(this);
  l->addWidget(time_);
  auto* slower = new QToolButton(this);
  slower->setText(QStringLiteral("−"));
  slower->setToolTip(tr("Slower (−)"));
  connect(slower, &QToolButton::clicked, &playback_, &PlaybackController::slower);
  l->addWidget(slower);
  speed_ = new QLabel(this);
  speed_->setToolTip(tr("Slow-down: screen time per recorded time"));
  l->addWidget(speed_);
  auto* faster = new QToolButton(this);
  faster->setText(QStringLiteral("+"));
  faster->setToolTip(tr("Faster (+)"));
  connect(faster, &QToolButton::clicked, &playback_, &PlaybackController::faster);
  l->addWidget(faster);
  follow_ = new QCheckBox(tr("Follow live"), this);
  follow_->setToolTip(tr("While a job runs, keep the playhead on the newest event"));
  connect(follow_, &QCheckBox::toggled, &playback_, &PlaybackController::setFollowLive);
  l->addWidget(follow_);

  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (!updating_) playback_.setFraction(v / 10000.0);
  });
  connect(&playback_, &PlaybackController::timeChanged, this, &PlaybackBar::refresh);
  connect(&playback_, &PlaybackController::playingChanged, this, &PlaybackBar::refresh);
  connect(&playback_, &PlaybackController::slowdownChanged, this, &PlaybackBar::refresh);
  connect(&playback_, &PlaybackController::followLiveChanged, this, &PlaybackBar::refresh);
  refresh();
}

void PlaybackBar::refresh() {
  updating_ = true;
  slider_->setValue(static_cast<int>(playback_.fraction() * 10000.0));
  follow_->setChecked(playback_.followsLive());
  updating_ = false;
  play_->setIcon(style()->standardIcon(playback_.isPlaying() ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  time_->setText(tr("%1 / %2").arg(Captions::duration(playback_.time() - playback_.start()),
                                   Captions::duration(playback_.end() - playback_.start())));
  speed_->setText(tr("×%1 slower").arg(playback_.slowdown(), 0, 'g', 4));
}
