// PlotsView: QCustomPlot charts of the run: memory over time of one rank stacked by
// category, loss per step, bytes per step by collective, and, when a second run is
// set, comparison charts (loss of both, peak memory per rank of both).
#pragma once

#include "models/TraceModel.h"

#include <QWidget>

class QComboBox;
class QCustomPlot;
class QTabWidget;

class PlotsView : public QWidget {
  Q_OBJECT
public:
  explicit PlotsView(const TraceModel& model, QWidget* parent = nullptr);
  void setComparison(const TraceModel* other, const QString& labelA, const QString& labelB);
  QCustomPlot* memoryPlot() const { return memory_; }

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
  qint64 time_ = 0;
};
