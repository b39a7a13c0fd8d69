#include "views/PipelineView.h"

#include "models/Captions.h"
#include "models/JobText.h"
#include "views/Palette.h"

#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace st = shardlab::trace;

PipelineView::PipelineView(const TraceModel& model, QWidget* parent) : QWidget(parent), model_(model) {
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
}

void PipelineView::setTime(qint64 t) {
  time_ = t;
  if (isVisible()) update();
}

void PipelineView::setTimeSpan(qint64 ns) {
  if (ns == span_) return;
  span_ = std::max<qint64>(0, ns);
  update();
}

void PipelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QFontMetricsF fm(font());
  const bool dark = Palette::isDark(palette());
  const auto& config = model_.config();
  if (!config || config->strategy != shardlab::StrategyKind::Pipeline) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
               tr("The pipeline diagram shows pipeline runs. This run uses %1.")
                   .arg(config ? strategyLabel(config->strategy) : tr("no strategy yet")));
    return;
  }
  // The step under the playhead: the step of the latest compute op started before it.
  step_ = -1;
  for (int r = 0; r < model_.rankCount(); ++r)
    for (int i : model_.lane(r, TraceModel::Lane::Compute)) {
      const auto& e = model_.event(i);
      if (e.t0 > time_) break;
      step_ = std::max(step_, e.step);
    }
  if (step_ < 0) step_ = model_.stepsDone() > 1 ? 1 : 0;
  qint64 t0 = INT64_MAX, t1 = INT64_MIN;
  for (int r = 0; r < model_.rankCount(); ++r)
    for (auto lane : {TraceModel::Lane::Compute, TraceModel::Lane::Idle})
      for (int i : model_.lane(r, lane)) {
        const auto& e = model_.event(i);
        if (e.step != step_) continue;
        t0 = std::min<qint64>(t0, e.t0);
        t1 = std::max<qint64>(t1, e.t1);
      }
  // summarize() walks the whole run: while a job streams, at most twice a second.
  const auto& s = model_.recentSummary();
  const auto& b = s.bubble;
  const QLocale locale;
  const auto pct = [&](double f) { return locale.toString(f * 100.0, 'f', 1); };
  QString head = tr("Step %1 · schedule %2 · %3 · %4 · theory %5%")
                     .arg(step_)
                     .arg(QString::fromStdString(b.schedule), tr("%n stage(s)", nullptr, b.stages),
                          tr("%n micro-batch(es)", nullptr, b.microbatches))
                     .arg(pct(b.theory));
  if (model_.replayMode())
    head = tr("REPLAY (%1) · bubble in this replay %2% · %3")
               .arg(TraceModel::replayName(*model_.replayMode()), pct(b.measured), head);
  p.setPen(palette().color(QPalette::Text));
  const double lineH = fm.height() * 1.3;
  p.drawText(QRectF(8, 2, width() - 16, lineH), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(head, Qt::ElideRight, width() - 16));
  p.drawText(QRectF(8, 2 + lineH, width() - 16, lineH), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(breakdownText(), Qt::ElideRight, width() - 16));
  if (t0 >= t1) return;
  const double label = fm.horizontalAdvance(tr("Stage 00")) + 16;
  const double top = fm.height() * 3.0;
  const int n = std::max(1, model_.rankCount());
  const double rowH = std::min((height() - top - fm.height() * 1.5) / n, fm.height() * 3.0);
  const double w = width() - label - 8;
  const qint64 span = std::max(span_, t1 - t0);
  auto x = [&](qint64 t) { return label + w * static_cast<double>(t - t0) / static_cast<double>(span); };
  for (int r = 0; r < model_.rankCount(); ++r) {
    const QRectF row(label, top + r * rowH, w, rowH - 4);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(4, row.top(), label - 8, row.height()), Qt::AlignLeft | Qt::AlignVCenter, tr("Stage %1").arg(r));
    p.fillRect(row, palette().color(QPalette::AlternateBase));
    for (int i : model_.lane(r, TraceModel::Lane::Idle)) {
      const auto& e = model_.event(i);
      if (e.step != step_) continue;
      const QRectF bb(x(e.t0), row.top(), std::max(1.0, x(e.t1) - x(e.t0)), row.height());
      p.fillRect(bb, Palette::idle(dark));
      p.fillRect(bb, QBrush(Palette::kind(st::Kind::ReduceScatter), Qt::BDiagPattern));
    }
    for (int i : model_.lane(r, TraceModel::Lane::Compute)) {
      const auto& e = model_.event(i);
      if (e.step != step_) continue;
      const QRectF bb(x(e.t0), row.top() + 2, std::max(1.0, x(e.t1) - x(e.t0)), row.height() - 4);
      p.fillRect(bb, Palette::kind(e.kind));
      p.fillRect(Palette::coreWaitPart(e, bb), Palette::coreWait(dark));
      p.setPen(QPen(palette().color(QPalette::Base), 1));
      p.drawRect(bb);
      QString text = e.kind == st::Kind::Forward ? QStringLiteral("F") : e.kind == st::Kind::Backward ? QStringLiteral("B") : QStringLiteral("O");
      if (e.micro >= 0) text += QString::number(e.micro);
      p.setPen(Qt::black);
      if (bb.width() > fm.horizontalAdvance(text) + 2) p.drawText(bb, Qt::AlignCenter, text);
    }
  }
  if (time_ >= t0 && time_ <= t1) {
    p.setPen(QPen(dark ? Qt::white : Qt::black, 2));
    p.drawLine(QPointF(x(time_), top), QPointF(x(time_), top + n * rowH));
  }
  p.setPen(palette().color(QPalette::Text));
  const QString footer = tr("Step %1 lasted %2 · hatched: recorded idle · dotted: waiting for a CPU core inside the op")
                             .arg(step_)
                             .arg(Captions::duration(t1 - t0));
  p.drawText(QRectF(label, top + n * rowH, w, fm.height() * 1.4), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(footer, Qt::ElideRight, w));
}

// The measured run's lost stage time and its parts, every part a replay of this trace
// (BubbleBreakdown, docs/replay.md); before a step completed, the recorded idle alone.
QString PipelineView::breakdownText() const {
  const QLocale locale;
  const auto pct = [&](double f) { return locale.toString(f * 100.0, 'f', 1); };
  const auto& breakdown = model_.breakdown();
  const double idle = model_.replayMode() ? shardlab::trace::summarizeMeasured(model_.measured()).bubble.measured
                                          : model_.recentSummary().bubble.measured;
  if (!breakdown) return tr("Measured: recorded idle %1% of stage time (whole run)").arg(pct(idle));
  const auto& d = *breakdown;
  QString text = tr("Measured: %1% of stage time not computing = schedule %2% + hand-offs %3% + slower ops %4%")
                     .arg(pct(d.notComputing), pct(d.schedule), pct(d.handoffs), pct(d.slowerOps));
  if (d.cpuTimes) text += tr(" + waiting for cores %1%").arg(pct(d.coreWaits));
  text += tr(" + unexplained %1%").arg((d.unexplained >= 0 ? QStringLiteral("+") : QString()) + pct(d.unexplained));
  text += tr(" (parts from replays of this trace, ±%1%)").arg(pct(shardlab::trace::kBreakdownTolerance));
  if (std::abs(d.unexplained) > shardlab::trace::kBreakdownTolerance)
    text += tr(" · the replay misses more than that here: read the parts as rough");
  return text;
}
