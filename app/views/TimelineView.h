// TimelineView: a row per rank with a compute lane and a comm lane; one block per
// recorded op or collective, coloured by kind and labelled unit/micro-batch; idle
// time shaded as bubble. Wheel zooms, drag pans, hover shows the event, click moves
// the playhead there.
#pragma once

#include "models/TraceModel.h"

#include <QPixmap>
#include <QWidget>

namespace shardlab::app {

class TimelineView : public QWidget {
  Q_OBJECT
public:
  explicit TimelineView(const TraceModel& model, QWidget* parent = nullptr);

  void setVisibleRange(qint64 t0, qint64 t1);
  qint64 visibleStart() const { return v0_; }
  qint64 visibleEnd() const { return v1_; }
  // Event drawn at a widget position, or -1.
  int eventAt(const QPoint& pos) const;
  double xOf(qint64 t) const;
  qint64 timeAt(double x) const;
  QRectF laneRect(int rank, TraceModel::Lane lane) const;
  QSize sizeHint() const override { return {900, 300}; }

public Q_SLOTS:
  void setTime(qint64 t);
  void modelReset();
  void modelChanged();
  void zoomToFit();

Q_SIGNALS:
  void timeRequested(qint64 t);

protected:
  void paintEvent(QPaintEvent*) override;
  void wheelEvent(QWheelEvent*) override;
  void mousePressEvent(QMouseEvent*) override;
  void mouseMoveEvent(QMouseEvent*) override;
  void mouseReleaseEvent(QMouseEvent*) override;
  bool event(QEvent*) override;
  void changeEvent(QEvent*) override;

private:
  double labelWidth() const;
  void paintLayer(QPainter& p);
  void paintLane(QPainter& p, int rank, TraceModel::Lane lane, bool dark, const QFontMetricsF& fm);
  void paintEnding(QPainter& p, int rank, const QFontMetricsF& fm);
  const TraceModel& model_;
  qint64 time_ = 0, v0_ = 0, v1_ = 1;
  bool fitted_ = true;
  QPoint pressPos_;
  qint64 pressV0_ = 0;
  bool dragging_ = false;
  // Everything but the playhead, drawn once per (model generation, range, size, look):
  // while only the playhead moves a frame is one blit and a line.
  QPixmap layer_;
  struct LayerKey {
    quint64 generation = ~0ull;
    qint64 v0 = 0, v1 = 0;
    QSize size;
    qint64 paletteKey = 0;
    QString font;
    double dpr = 0;
    bool operator==(const LayerKey&) const = default;
  } layerKey_;
  mutable double labelWidth_ = -1; // cached: text measuring is not free
};

} // namespace shardlab::app
