// PipelineView: the stage × time diagram of one pipeline step: F/B blocks labelled by
// micro-batch, the bubble (recorded idle) hatched, each op's wait for a CPU core
// dotted, and a header: the run's bubble (the summary's one figure), the theory
// (p-1)/(V·m+p-1) and their difference taken apart by replays of the trace
// (trace::BubbleBreakdown); the whole breakdown in its tooltip.
#pragma once

#include "models/TraceModel.h"

#include <QFontMetricsF>
#include <QStringList>
#include <QWidget>

#include <utility>
#include <vector>

namespace shardlab::app {

class PipelineView : public QWidget {
  Q_OBJECT
public:
  explicit PipelineView(const TraceModel& model, QWidget* parent = nullptr);
  // The step drawn: the step under the playhead (or the first steady step).
  int shownStep() const { return step_; }
  // The header's first line: the bubble measured, the theory and the parts of their
  // difference, as many as fit `width` (the rest summed as "other").
  QString bubbleLine(const QFontMetricsF& fm, double width) const;
  // The whole breakdown (the header's tooltip): measured = theory + schedule as run +
  // hand-offs + slower ops + core waits + unexplained, and "not computing" beside it.
  QString breakdownText() const;
  struct Part {
    QString name;
    double value;
  };
  static std::vector<Part> parts(const shardlab::trace::BubbleBreakdown& d);
  QSize sizeHint() const override { return {900, 300}; }

  // The time the width stands for (ns): 0 draws the step across the whole width; a
  // comparison gives both runs the longer step's span, so lengths compare.
  void setTimeSpan(qint64 ns);
  // The step the diagram draws at t (the step of the latest compute op or pipeline wait
  // started at or before t; the first steady step before any), and where that step's ops
  // and waits begin and end: a comparison spans both diagrams by the longer of the two.
  int stepAt(qint64 t) const;
  std::pair<qint64, qint64> stepExtent(int step) const;
  // What the last paint wrote (tests): the header's bubble line(s), as wrapped over one or
  // two lines so that nothing of it is cut; the legend's entries; the blocks labelled with
  // their micro-batch.
  QStringList shownHeader() const { return header_; }
  QStringList legendEntries() const { return legend_; }
  int labelledBlocks() const { return labelled_; }
  int drawnBlocks() const { return blocks_; }
  // The blocks of a micro-batch wide enough for its number.
  int roomyBlocks() const { return roomy_; }
  // Where the rows are drawn, and the share of their width the shown step takes.
  QRectF diagramRect() const { return diagram_; }
  double stepWidthShare() const { return stepShare_; }

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
  QStringList header_, legend_;
  int labelled_ = 0, blocks_ = 0, roomy_ = 0;
  QRectF diagram_;
  double stepShare_ = 0;
};

} // namespace shardlab::app
