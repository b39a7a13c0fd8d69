// PipelineView: the stage × time diagram of one pipeline step: F/B blocks labelled by
// micro-batch, the bubble (recorded idle) hatched, each op's wait for a CPU core
// dotted, and a header with the theoretical (p-1)/(V·m+p-1) and the measured lost
// stage time taken apart by replays of the trace (trace::BubbleBreakdown).
#pragma once

#include "models/TraceModel.h"

#include <QWidget>

class PipelineView : public QWidget {
  Q_OBJECT
public:
  explicit PipelineView(const TraceModel& model, QWidget* parent = nullptr);
  // The step drawn: the step under the playhead (or the first steady step).
  int shownStep() const { return step_; }
  // The header's second line: measured = schedule + hand-offs + slower ops + core waits + unexplained.
  QString breakdownText() const;
  QSize sizeHint() const override { return {900, 300}; }

  // The time the width stands for (ns): 0 draws the step across the whole width; a
  // comparison gives both runs the longer step's span, so lengths compare.
  void setTimeSpan(qint64 ns);

public Q_SLOTS:
  void setTime(qint64 t);
  void modelReset() { update(); }

protected:
  void paintEvent(QPaintEvent*) override;

private:
  const TraceModel& model_;
  qint64 time_ = 0;
  int step_ = -1;
  qint64 span_ = 0;
};
