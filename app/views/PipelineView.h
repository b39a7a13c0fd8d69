// PipelineView: the stage × time diagram of one measured pipeline step: F/B blocks
// labelled by micro-batch, the bubble (recorded idle) highlighted, and the measured
// bubble fraction from summarize() next to the theoretical (p-1)/(V·m+p-1).
#pragma once

#include "models/TraceModel.h"

#include <QWidget>

class PipelineView : public QWidget {
  Q_OBJECT
public:
  explicit PipelineView(const TraceModel& model, QWidget* parent = nullptr);
  // The step drawn: the step under the playhead (or the first steady step).
  int shownStep() const { return step_; }
  QSize sizeHint() const override { return {900, 300}; }

public Q_SLOTS:
  void setTime(qint64 t);
  void modelReset() { update(); }

protected:
  void paintEvent(QPaintEvent*) override;

private:
  const TraceModel& model_;
  qint64 time_ = 0;
  int step_ = -1;
};
