// CaptionBar: one sentence narrating the event at the playhead, from the trace,
// after the training phase it belongs to ("Step 2 · backward pass — ...", Phases).
#pragma once

#include "models/Phases.h"
#include "models/TraceModel.h"

#include <QLabel>

namespace shardlab::app {

class CaptionBar : public QLabel {
  Q_OBJECT
public:
  explicit CaptionBar(const TraceModel& model, QWidget* parent = nullptr);
  // The event the sentence is about; kEndingShown while it says how the run ended.
  static constexpr int kEndingShown = -3;
  int shownEvent() const { return shown_; }
  // The phase named in front of the sentence ("" before the first op).
  QString shownPhase() const { return phase_; }

public Q_SLOTS:
  void setTime(qint64 t);

private:
  const TraceModel& model_;
  PhaseIndex phases_;
  int shown_ = -2;
  QString phase_;
};

} // namespace shardlab::app
