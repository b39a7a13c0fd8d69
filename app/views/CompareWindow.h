// CompareWindow: File → Compare with trace — the run on screen and a trace file side by
// side in a window of their own (CompareView), with their own playhead over the first
// run, measured as time since its start.
#pragma once

#include "models/PlaybackController.h"
#include "models/TraceModel.h"

#include <QWidget>

namespace shardlab::app {

class CompareView;

class CompareWindow : public QWidget {
  Q_OBJECT
public:
  CompareWindow(const TraceModel& a, const TraceModel& b, QWidget* parent = nullptr);
  PlaybackController& playback() { return playback_; }
  CompareView* view() const { return view_; }

private:
  PlaybackController playback_;
  CompareView* view_;
};

} // namespace shardlab::app
