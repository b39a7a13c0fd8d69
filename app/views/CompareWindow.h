// CompareWindow: two runs side by side (rank view over timeline for each) with one
// shared playhead, measured as time since each run's start.
#pragma once

#include "models/PlaybackController.h"
#include "models/TraceModel.h"

#include <QWidget>

class RankView;
class TimelineView;

class CompareWindow : public QWidget {
  Q_OBJECT
public:
  CompareWindow(const TraceModel& a, const TraceModel& b, QWidget* parent = nullptr);
  PlaybackController& playback() { return playback_; }

private:
  void setTime(qint64 t);
  const TraceModel& a_;
  const TraceModel& b_;
  PlaybackController playback_;
  RankView *rankA_, *rankB_;
  TimelineView *timeA_, *timeB_;
};
