// PlotsView: QCustomPlot charts of the run: memory over time of one rank stacked by
// category, loss per step, bytes per step by collective, and, when a second run is
// set, the comparison: what each comparison lesson is about for both runs (step time,
// exposed communication, bubble measured and for the schedule alone, peak and persistent
// memory: RunFigures) as a table, and peak and persistent memory per rank of both runs
// with the memory budget drawn as a line.
#pragma once

#include "models/RunFigures.h"
#include "models/TraceModel.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QScrollArea;
class QCustomPlot;
class QTabWidget;
class QTableWidget;

namespace shardlab::app {

class PlotsView : public QWidget {
  Q_OBJECT
public:
  explicit PlotsView(const TraceModel& model, QWidget* parent = nullptr);
  void setComparison(const TraceModel* other, const QString& labelA, const QString& labelB);
  QCustomPlot* memoryPlot() const { return memory_; }
  // The comparison: a row per figure, a column per run (tests read it).
  QTableWidget* compareTable() const { return compareTable_; }
  QCustomPlot* comparePlot() const { return compare_; }
  // Compare runs scrolls where the page is shorter than the table and the chart's least
  // height (kCompareChartLines lines of text).
  QScrollArea* compareScroll() const { return compareScroll_; }
  static constexpr int kCompareChartLines = 14;
  // Shows the Compare runs tab.
  void showComparison();
  // A lesson waits for the learner's prediction before its run: the pages say there is no
  // run yet for it (rather than an empty chart).
  void setAwaitingRun(bool awaiting);
  // Compare runs' text when there is nothing to compare (tests).
  QLabel* compareEmptyLabel() const { return compareEmpty_; }

public Q_SLOTS:
  void rebuild();
  void setTime(qint64 t);

private:
  void buildMemory();
  void buildLoss();
  void buildBytes();
  void buildCompare();
  void styleplot(QCustomPlot* plot);
  const TraceModel& model_;
  const TraceModel* other_ = nullptr;
  QString labelA_, labelB_;
  QTabWidget* tabs_;
  QComboBox* rank_;
  QCustomPlot *memory_, *loss_, *bytes_, *compare_;
  QWidget* comparePage_;
  QTableWidget* compareTable_;
  QScrollArea* compareScroll_ = nullptr;
  QLabel* compareEmpty_ = nullptr;
  bool awaitingRun_ = false;
  // The figures cost a replay of each run: kept until the run changes.
  const RunFigures& figures(int run);
  quint64 figuresGeneration_[2] = {~0ull, ~0ull};
  const TraceModel* figuresModel_[2] = {nullptr, nullptr};
  RunFigures figures_[2];
  qint64 time_ = 0;
};

} // namespace shardlab::app
