#include "views/TimelineView.h"

#include "models/Format.h"
#include "models/Captions.h"
#include "views/Palette.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace shardlab::app {

namespace st = shardlab::trace;

TimelineView::TimelineView(const TraceModel& model, QWidget* parent) : QWidget(parent), model_(model) {
  setMouseTracking(true);
  setMinimumHeight(120);
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
}

double TimelineView::labelWidth() const {
  if (labelWidth_ < 0) labelWidth_ = fontMetrics().horizontalAdvance(tr("CPU rank 00")) + 16.0;
  return labelWidth_;
}

void TimelineView::changeEvent(QEvent* e) {
  if (e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange || e->type() == QEvent::StyleChange) {
    labelWidth_ = -1;
    layerKey_ = {};
  }
  QWidget::changeEvent(e);
}

double TimelineView::xOf(qint64 t) const {
  const double w = width() - labelWidth() - 8;
  return labelWidth() + w * static_cast<double>(t - v0_) / static_cast<double>(std::max<qint64>(1, v1_ - v0_));
}

qint64 TimelineView::timeAt(double x) const {
  const double w = width() - labelWidth() - 8;
  return v0_ + static_cast<qint64>((x - labelWidth()) / std::max(1.0, w) * static_cast<double>(v1_ - v0_));
}

QRectF TimelineView::laneRect(int rank, TraceModel::Lane lane) const {
  const int n = std::max(1, model_.rankCount());
  const double top = fontMetrics().height() * 1.5;
  const double rowH = std::clamp((height() - top - 4) / n, 12.0, fontMetrics().height() * 4.0);
  const double y = top + rank * rowH;
  const double half = (rowH - 4) / 2;
  const double l = labelWidth(), w = width() - l - 8;
  switch (lane) {
  case TraceModel::Lane::Compute: return QRectF(l, y + 1, w, half);
  case TraceModel::Lane::Comm: return QRectF(l, y + 1 + half + 1, w, half);
  case TraceModel::Lane::Idle: return QRectF(l, y + 1, w, rowH - 3);
  }
  return {};
}

void TimelineView::setVisibleRange(qint64 t0, qint64 t1) {
  if (t1 <= t0) t1 = t0 + 1;
  v0_ = t0;
  v1_ = t1;
  fitted_ = false;
  update();
}

void TimelineView::zoomToFit() {
  v0_ = model_.startTime();
  v1_ = std::max(model_.endTime(), v0_ + 1);
  fitted_ = true;
  update();
}

void TimelineView::setTime(qint64 t) {
  time_ = t;
  update();
}

void TimelineView::modelReset() { zoomToFit(); }

void TimelineView::modelChanged() {
  if (fitted_) zoomToFit();
  else update();
}

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const bool dark = Palette::isDark(palette());
  if (model_.rankCount() == 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter, tr("The timeline fills in as the job runs."));
    return;
  }
  const LayerKey key{model_.generation(), v0_, v1_, size(), palette().cacheKey(), font().key() + tr("CPU rank %1"),
                     devicePixelRatioF()};
  if (!(key == layerKey_) || layer_.isNull()) {
    labelWidth_ = -1;
    layer_ = QPixmap((QSizeF(size()) * key.dpr).toSize());
    layer_.setDevicePixelRatio(key.dpr);
    layer_.fill(palette().color(QPalette::Base));
    QPainter lp(&layer_);
    lp.setFont(font());
    paintLayer(lp);
    layerKey_ = key;
  }
  p.drawPixmap(0, 0, layer_);
  // Playhead.
  const double px = xOf(time_);
  if (px >= labelWidth()) {
    p.setPen(QPen(dark ? Qt::white : Qt::black, 2));
    p.drawLine(QPointF(px, 0), QPointF(px, height()));
  }
}

void TimelineView::paintLayer(QPainter& p) {
  const bool dark = Palette::isDark(palette());
  const QFontMetricsF fm(font());
  // Time axis.
  p.setPen(palette().color(QPalette::Text));
  const double span = static_cast<double>(v1_ - v0_);
  // Ticks at least a label's width apart at any width (a comparison's half-width timeline too).
  const double plotWidth = std::max(1.0, width() - labelWidth());
  const double rawTick = span * (fm.horizontalAdvance(QStringLiteral("000.00 ms")) + 16) / plotWidth;
  const double mag = std::pow(10.0, std::floor(std::log10(std::max(1.0, rawTick))));
  double tick = 10.0 * mag;
  for (double m : {5.0, 2.0, 1.0})
    if (m * mag >= rawTick) tick = m * mag;
  const double first = std::ceil(static_cast<double>(v0_ - model_.startTime()) / tick) * tick;
  double lastRight = -1e9;
  for (double rel = first; rel <= static_cast<double>(v1_ - model_.startTime()); rel += tick) {
    const double x = xOf(model_.startTime() + static_cast<qint64>(rel));
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(QPointF(x, fm.height() * 1.2), QPointF(x, height()));
    p.setPen(palette().color(QPalette::Text));
    const QString text = Format::duration(static_cast<qint64>(rel));
    if (x + 2 < lastRight || x + 2 + fm.horizontalAdvance(text) > width()) continue; // never over another label or cut
    p.drawText(QPointF(x + 2, fm.ascent()), text);
    lastRight = x + 2 + fm.horizontalAdvance(text) + 6;
  }

  const RunEnding& ending = model_.ending();
  for (int r = 0; r < model_.rankCount(); ++r) {
    const QRectF row = laneRect(r, TraceModel::Lane::Idle);
    // A hung or failed run's culprit: its name on the problem colour.
    const QRectF label(2, row.top(), labelWidth() - 4, row.height());
    if (ending.isCulprit(r)) p.fillRect(label, Palette::problem());
    p.setPen(ending.isCulprit(r) ? QColor(Qt::white) : palette().color(QPalette::Text));
    p.drawText(label.adjusted(2, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter,
               model_.rankIsCpu(r) ? tr("CPU rank %1").arg(r) : tr("GPU rank %1").arg(r));
    p.fillRect(row, r % 2 ? palette().color(QPalette::AlternateBase) : palette().color(QPalette::Base));
    p.setClipRect(QRectF(labelWidth(), 0, width() - labelWidth(), height()));
    for (auto lane : {TraceModel::Lane::Idle, TraceModel::Lane::Compute, TraceModel::Lane::Comm}) paintLane(p, r, lane, dark, fm);
    paintEnding(p, r, fm);
    for (int i : model_.failureEvents()) {
      const auto& e = model_.event(i);
      if (e.rank != r) continue;
      const double x = xOf(e.t0);
      p.setPen(QPen(Palette::kind(st::Kind::ReduceScatter), 3));
      p.drawLine(QPointF(x, row.top()), QPointF(x, row.bottom()));
      p.drawText(QPointF(x + 4, row.center().y()), e.record == st::Record::OutOfMemory ? tr("OOM") : tr("failed"));
    }
    p.setClipping(false);
  }
}

void TimelineView::paintEnding(QPainter& p, int r, const QFontMetricsF& fm) {
  const RunEnding& ending = model_.ending();
  if (ending.kind != RunEnding::Kind::Hang) return;
  // The call a waiting rank never got out of: from when it entered to when its watchdog
  // wrote it down, hatched (no `coll` record exists for it: those are written at the end).
  if (const auto it = ending.stuck.find(r); it != ending.stuck.end()) {
    const auto& s = it->second;
    const QRectF lr = laneRect(r, TraceModel::Lane::Comm);
    const double x0 = xOf(s.start), x1 = std::max(xOf(s.seenAt), x0 + 2.0);
    const QRectF b(x0, lr.top(), x1 - x0, lr.height());
    const QColor c = Palette::kind(s.kind);
    p.fillRect(b, QColor(c.red(), c.green(), c.blue(), 70));
    p.fillRect(b, QBrush(QColor(c.red(), c.green(), c.blue(), 160), Qt::BDiagPattern));
    p.setPen(QPen(c, 1.0, Qt::DashLine));
    p.drawRect(b);
    if (b.width() > 40) {
      // The words over the rank's whole row, on its own background, so the hatching does
      // not cross them; in a font that fits the row (presentation mode's text is large).
      const QRectF row = laneRect(r, TraceModel::Lane::Idle);
      QFont small = p.font();
      if (fm.height() > row.height()) small.setPixelSize(std::max(6, static_cast<int>(row.height() * 0.8)));
      const QFont saved = p.font();
      p.setFont(small);
      const QFontMetricsF sm(small);
      const QString text = sm.elidedText(ending.waitingText(model_.trace(), r), Qt::ElideRight, b.width() - 12);
      const QRectF words(b.left() + 4, row.center().y() - sm.height() / 2, sm.horizontalAdvance(text) + 6, sm.height());
      QColor base = palette().color(QPalette::Base);
      base.setAlpha(220);
      p.fillRect(words, base);
      p.setPen(palette().color(QPalette::Text));
      p.drawText(words.adjusted(3, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
      p.setFont(saved);
    }
  }
  // The rank the others wait for: a mark where they began waiting, and what it never did.
  if (ending.isCulprit(r)) {
    const QRectF row = laneRect(r, TraceModel::Lane::Idle);
    const double x = xOf(ending.hangSince);
    p.setPen(QPen(Palette::problem(), 3));
    p.drawLine(QPointF(x, row.top()), QPointF(x, row.bottom()));
    p.drawText(QRectF(x + 6, row.top(), std::max(0.0, width() - x - 14), row.height()), Qt::AlignLeft | Qt::AlignVCenter,
               fm.elidedText(ending.culpritText(r), Qt::ElideRight, std::max(0.0, width() - x - 14)));
  }
}

void TimelineView::paintLane(QPainter& p, int r, TraceModel::Lane lane, bool dark, const QFontMetricsF& fm) {
  const QRectF lr = laneRect(r, lane);
  const auto& v = model_.lane(r, lane);
  const auto& starts = model_.laneStarts(r, lane);
  // Only the blocks that overlap [v0, v1], found by binary search.
  const auto [first, last] = model_.laneRange(r, lane, v0_, v1_);
  const auto startsEnd = starts.begin() + static_cast<std::ptrdiff_t>(last);
  const double left = labelWidth(), w = std::max(1.0, width() - left - 8);
  const double nsPerPx = static_cast<double>(v1_ - v0_) / w;
  double lastX = -1e9;
  for (std::size_t k = first; k < last;) {
    const auto& e = model_.event(v[k]);
    ++k;
    if (e.t1 < v0_) continue;
    const double x0 = xOf(e.t0), x1 = std::max(xOf(e.t1), x0 + 1.0);
    if (x1 < lastX + 0.5 && lane != TraceModel::Lane::Idle) continue; // sub-pixel crowd: one pixel is enough
    lastX = x1;
    const QRectF b(x0, lr.top(), x1 - x0, lr.height());
    if (lane == TraceModel::Lane::Idle) {
      p.fillRect(b, Palette::idle(dark));
      p.fillRect(b, QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
    } else {
      p.fillRect(b, Palette::kind(e.kind));
      if (lane == TraceModel::Lane::Compute) p.fillRect(Palette::coreWaitPart(e, b), Palette::coreWait(dark));
      if (b.width() > 24) {
        QString label = model_.unitName(e.unit);
        if (e.micro >= 0) label += QStringLiteral("/m%1").arg(e.micro);
        if (e.kind == st::Kind::Forward) label = QStringLiteral("F ") + label;
        else if (e.kind == st::Kind::Backward) label = QStringLiteral("B ") + label;
        p.setPen(Qt::black);
        p.drawText(b.adjusted(2, 0, -1, 0), Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(label, Qt::ElideRight, b.width() - 3));
      }
    }
    // One rect per pixel column: the blocks that start and end within the pixel column
    // this block ends in are covered by it; jump past them by binary search. (Only when
    // no earlier block reaches past that column, which keeps overlapping lanes exact.)
    if (nsPerPx > 1.0 && k < last) {
      const qint64 edge = v0_ + static_cast<qint64>(std::ceil((std::floor(x1) + 1.0 - left) * nsPerPx));
      if (starts[k] < edge) {
        const auto j = static_cast<std::size_t>(std::lower_bound(starts.begin() + static_cast<std::ptrdiff_t>(k), startsEnd, edge) - starts.begin());
        if (model_.laneMaxEnd(r, lane, j - 1) < edge) k = j;
      }
    }
  }
}

int TimelineView::eventAt(const QPoint& pos) const {
  const qint64 t = timeAt(pos.x());
  const qint64 slack = static_cast<qint64>(2.0 * static_cast<double>(v1_ - v0_) / std::max(1, width()));
  for (int r = 0; r < model_.rankCount(); ++r)
    for (auto lane : {TraceModel::Lane::Compute, TraceModel::Lane::Comm, TraceModel::Lane::Idle}) {
      const QRectF lr = laneRect(r, lane);
      if (!lr.contains(pos)) continue;
      const auto& v = model_.lane(r, lane);
      auto it = std::upper_bound(v.begin(), v.end(), t + slack, [&](qint64 time, int idx) { return time < model_.event(idx).t0; });
      for (int k = 0; k < 16 && it != v.begin(); ++k) {
        --it;
        const auto& e = model_.event(*it);
        if (e.t0 - slack <= t && t <= e.t1 + slack) return *it;
      }
    }
  return -1;
}

bool TimelineView::event(QEvent* ev) {
  if (ev->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(ev);
    const int i = eventAt(he->pos());
    if (i >= 0) QToolTip::showText(he->globalPos(), Captions::describe(model_, i), this);
    else QToolTip::hideText();
    return true;
  }
  return QWidget::event(ev);
}

void TimelineView::wheelEvent(QWheelEvent* e) {
  const double factor = std::pow(0.8, e->angleDelta().y() / 120.0);
  const qint64 anchor = timeAt(e->position().x());
  const qint64 n0 = anchor - static_cast<qint64>(static_cast<double>(anchor - v0_) * factor);
  const qint64 n1 = anchor + static_cast<qint64>(static_cast<double>(v1_ - anchor) * factor);
  setVisibleRange(std::max(n0, model_.startTime() - (n1 - n0) / 2), n1);
  e->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* e) {
  pressPos_ = e->pos();
  pressV0_ = v0_;
  dragging_ = false;
}

void TimelineView::mouseMoveEvent(QMouseEvent* e) {
  if (!(e->buttons() & Qt::LeftButton)) return;
  const int dx = e->pos().x() - pressPos_.x();
  if (std::abs(dx) > 3) dragging_ = true;
  if (!dragging_) return;
  const qint64 span = v1_ - v0_;
  const qint64 shift = static_cast<qint64>(static_cast<double>(dx) / std::max(1.0, width() - labelWidth() - 8) * static_cast<double>(span));
  setVisibleRange(pressV0_ - shift, pressV0_ - shift + span);
}

void TimelineView::mouseReleaseEvent(QMouseEvent* e) {
  if (!dragging_ && e->pos().x() >= labelWidth()) {
    const int i = eventAt(e->pos());
    Q_EMIT timeRequested(i >= 0 ? model_.event(i).t0 : timeAt(e->pos().x()));
  }
  dragging_ = false;
}

} // namespace shardlab::app
