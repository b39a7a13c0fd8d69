// PlaybackBar: the transport controls of the PlaybackController: play/pause, step
// buttons, a scrub slider over recorded time, the slow-down factor, follow live.
// Two rows, so that the longest translation (Russian) fits at 1280 px: the slider, the
// time and "Follow live" above, the buttons and the speed below. Icons are drawn in the palette's text colour, so
// they stay visible in the dark theme.
#pragma once

#include <QStyle>
#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;
class QCheckBox;
class QMenu;

namespace shardlab::app {

class PlaybackController;

class PlaybackBar : public QWidget {
  Q_OBJECT
public:
  explicit PlaybackBar(PlaybackController& playback, QWidget* parent = nullptr);
  void refresh();
  // The style's icon re-tinted with `color` (the standard ones are dark on any theme).
  static QIcon tintedIcon(const QStyle& style, QStyle::StandardPixmap which, const QColor& color);
  // Below this the slider would no longer be usable to scrub.
  static constexpr int kMinimumSliderWidth = 240;
  // The Playback menu: play, step by event, collective or phase, start, end, speed. Its
  // keys work wherever the focus is in the window (Qt::WindowShortcut).
  static void addActions(QMenu& menu, PlaybackController& playback);

protected:
  void changeEvent(QEvent* e) override;

private:
  void updateIcons();
  PlaybackController& playback_;
  QList<QPair<QToolButton*, QStyle::StandardPixmap>> iconButtons_;
  QToolButton* play_;
  QSlider* slider_;
  QLabel* time_;
  QLabel* speed_;
  QCheckBox* follow_;
  bool updating_ = false;
  int iconsShowPlaying_ = -1; // the play button's icon: 0 play, 1 pause, -1 not drawn yet
};

} // namespace shardlab::app
