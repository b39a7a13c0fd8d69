// PlaybackBar: the transport controls of the PlaybackController: play/pause, step
// buttons, a scrub slider over recorded time, the slow-down factor, follow live.
#pragma once

#include <QWidget>

class PlaybackController;
class QLabel;
class QSlider;
class QToolButton;
class QCheckBox;

class PlaybackBar : public QWidget {
  Q_OBJECT
public:
  explicit PlaybackBar(PlaybackController& playback, QWidget* parent = nullptr);
  void refresh();

private:
  PlaybackController& playback_;
  QToolButton* play_;
  QSlider* slider_;
  QLabel* time_;
  QLabel* speed_;
  QCheckBox* follow_;
  bool updating_ = false;
};
