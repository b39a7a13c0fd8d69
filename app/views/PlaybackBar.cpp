#include "views/PlaybackBar.h"

#include "models/Format.h"
#include "models/Captions.h"
#include "models/PlaybackController.h"

#include <QAction>
#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSlider>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace shardlab::app {

PlaybackBar::PlaybackBar(PlaybackController& playback, QWidget* parent) : QWidget(parent), playback_(playback) {
  auto* rows = new QVBoxLayout(this);
  rows->setContentsMargins(4, 2, 4, 2);
  rows->setSpacing(2);
  auto* top = new QHBoxLayout;
  auto* l = new QHBoxLayout;
  rows->addLayout(top);
  rows->addLayout(l);

  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 10000);
  slider_->setMinimumWidth(kMinimumSliderWidth);
  slider_->setToolTip(tr("Scrub over the recorded time"));
  top->addWidget(slider_, 1);
  time_ = new QLabel(this);
  top->addWidget(time_);
  follow_ = new QCheckBox(tr("Follow live"), this);
  follow_->setToolTip(tr("While a job runs, keep the playhead on the newest event"));
  connect(follow_, &QCheckBox::toggled, &playback_, &PlaybackController::setFollowLive);
  top->addWidget(follow_);

  auto button = [&](QStyle::StandardPixmap icon, const QString& tip, auto slot) {
    auto* b = new QToolButton(this);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    connect(b, &QToolButton::clicked, &playback_, slot);
    l->addWidget(b);
    iconButtons_.append({b, icon});
    return b;
  };
  button(QStyle::SP_MediaSkipBackward, tr("Start (Home)"), &PlaybackController::home);
  button(QStyle::SP_MediaSeekBackward, tr("Previous event (Left)"), &PlaybackController::previousEvent);
  play_ = button(QStyle::SP_MediaPlay, tr("Play / pause (Space)"), &PlaybackController::togglePlay);
  button(QStyle::SP_MediaSeekForward, tr("Next event (Right)"), &PlaybackController::nextEvent);
  button(QStyle::SP_MediaSkipForward, tr("End (End)"), &PlaybackController::toEnd);
  auto* coll = new QToolButton(this);
  coll->setText(tr("Next collective"));
  coll->setToolTip(tr("Next collective (Ctrl+Right)"));
  connect(coll, &QToolButton::clicked, &playback_, &PlaybackController::nextCollective);
  l->addWidget(coll);
  auto* phase = new QToolButton(this);
  phase->setText(tr("Next phase"));
  phase->setToolTip(tr("Next phase: forward, backward, optimizer, then the next step (Shift+Right)"));
  connect(phase, &QToolButton::clicked, &playback_, &PlaybackController::nextPhase);
  l->addWidget(phase);
  l->addStretch(1);
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

  connect(slider_, &QSlider::valueChanged, this, [this](int v) {
    if (!updating_) playback_.setFraction(v / 10000.0);
  });
  connect(&playback_, &PlaybackController::timeChanged, this, &PlaybackBar::refresh);
  connect(&playback_, &PlaybackController::playingChanged, this, &PlaybackBar::refresh);
  connect(&playback_, &PlaybackController::slowdownChanged, this, &PlaybackBar::refresh);
  connect(&playback_, &PlaybackController::followLiveChanged, this, &PlaybackBar::refresh);
  refresh();
}

QIcon PlaybackBar::tintedIcon(const QStyle& style, QStyle::StandardPixmap which, const QColor& color) {
  const QIcon original = style.standardIcon(which);
  QIcon tinted;
  for (int size : {16, 24, 32, 48}) {
    QPixmap pm = original.pixmap(QSize(size, size));
    if (pm.isNull()) continue;
    // Keep the shape (alpha), paint it in `color`.
    QPainter p(&pm);
    p.setCompositionMode(QPainter::CompositionMode_SourceIn);
    p.fillRect(pm.rect(), color);
    p.end();
    tinted.addPixmap(pm);
  }
  return tinted;
}

void PlaybackBar::updateIcons() {
  const QColor ink = palette().color(QPalette::ButtonText);
  // As tall as a line of text: large in presentation mode too.
  const int side = std::max(16, fontMetrics().height());
  iconsShowPlaying_ = playback_.isPlaying() ? 1 : 0;
  for (const auto& [b, icon] : iconButtons_) {
    const auto which = b == play_ && playback_.isPlaying() ? QStyle::SP_MediaPause : icon;
    b->setIcon(tintedIcon(*style(), which, ink));
    b->setIconSize(QSize(side, side));
  }
}

void PlaybackBar::changeEvent(QEvent* e) {
  if (e->type() == QEvent::PaletteChange || e->type() == QEvent::StyleChange || e->type() == QEvent::FontChange)
    updateIcons();
  QWidget::changeEvent(e);
}

void PlaybackBar::refresh() {
  updating_ = true;
  slider_->setValue(static_cast<int>(playback_.fraction() * 10000.0));
  follow_->setChecked(playback_.followsLive());
  updating_ = false;
  if (iconsShowPlaying_ != (playback_.isPlaying() ? 1 : 0)) updateIcons();
  time_->setText(tr("%1 / %2").arg(Format::duration(playback_.time() - playback_.start()),
                                   Format::duration(playback_.end() - playback_.start())));
  speed_->setText(tr("×%1 slower").arg(QLocale().toString(playback_.slowdown(), 'f', QLocale::FloatingPointShortest)));
}

void PlaybackBar::addActions(QMenu& menu, PlaybackController& playback) {
  auto add = [&](const QString& text, const QKeySequence& key, auto slot) {
    auto* a = menu.addAction(text);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WindowShortcut);
    connect(a, &QAction::triggered, &playback, slot);
  };
  add(tr("Play / pause"), QKeySequence(Qt::Key_Space), &PlaybackController::togglePlay);
  add(tr("Next event"), QKeySequence(Qt::Key_Right), &PlaybackController::nextEvent);
  add(tr("Previous event"), QKeySequence(Qt::Key_Left), &PlaybackController::previousEvent);
  add(tr("Next collective"), QKeySequence(Qt::CTRL | Qt::Key_Right), &PlaybackController::nextCollective);
  add(tr("Previous collective"), QKeySequence(Qt::CTRL | Qt::Key_Left), &PlaybackController::previousCollective);
  add(tr("Next phase"), QKeySequence(Qt::SHIFT | Qt::Key_Right), &PlaybackController::nextPhase);
  add(tr("Previous phase"), QKeySequence(Qt::SHIFT | Qt::Key_Left), &PlaybackController::previousPhase);
  add(tr("Start"), QKeySequence(Qt::Key_Home), &PlaybackController::home);
  add(tr("End"), QKeySequence(Qt::Key_End), &PlaybackController::toEnd);
  add(tr("Faster"), QKeySequence(Qt::Key_Plus), &PlaybackController::faster);
  add(tr("Faster"), QKeySequence(Qt::Key_Equal), &PlaybackController::faster);
  add(tr("Slower"), QKeySequence(Qt::Key_Minus), &PlaybackController::slower);
}

} // namespace shardlab::app
