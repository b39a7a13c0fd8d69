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
  // The step under the playhead: the step of the latest compute op or pipeline wait
  // started at or before it (a step may begin with a wait: "Show me" puts the playhead
  // on one, and the diagram must show the step the caption names).
  step_ = -1;
  for (int r = 0; r < model_.rankCount(); ++r)
    for (auto lane : {TraceModel::Lane::Compute, TraceModel::Lane::Idle})
      for (int i : model_.lane(r, lane)) {
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
  p.setPen(palette().color(QPalette::Text));
  const double lineH = fm.height() * 1.3;
  // Line 1: the bubble (one figure, the summary's), the theory and the parts of the
  // difference, fitted to the width by folding the smallest parts into "other".
  p.drawText(QRectF(8, 2, width() - 16, lineH), Qt::AlignLeft | Qt::AlignVCenter, bubbleLine(fm, width() - 16));
  const QString schedule = tr("Step %1 · %2 · %3 · %4")
                               .arg(step_)
                               .arg(QString::fromStdString(b.schedule), tr("%n stage(s)", nullptr, b.stages),
                                    tr("%n micro-batch(es)", nullptr, b.microbatches));
  p.setPen(palette().color(QPalette::PlaceholderText));
  p.drawText(QRectF(8, 2 + lineH, width() - 16, lineH), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(schedule, Qt::ElideRight, width() - 16));
  if (const QString tip = breakdownText(); tip != toolTip()) setToolTip(tip);
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

namespace {
QString percent(double f) { return QLocale().toString(f * 100.0, 'f', 1) + QStringLiteral("%"); }
// A difference in percentage points, its sign always shown: "+4.0", "−1.0".
QString points(double f) {
  const QString n = QLocale().toString(std::abs(f) * 100.0, 'f', 1);
  return (f < 0 ? QStringLiteral("\u2212") : QStringLiteral("+")) + n;
}
} // namespace

// The parts of measured − theory, largest first (BubbleBreakdown; docs/replay.md).
std::vector<PipelineView::Part> PipelineView::parts(const st::BubbleBreakdown& d) {
  std::vector<Part> list = {{tr("schedule as run"), d.scheduleAsRun},
                            {tr("hand-offs"), d.handoffs},
                            {tr("slower ops"), d.slowerOps}};
  if (d.cpuTimes) list.push_back({tr("waiting for cores"), d.coreWaits});
  list.push_back({tr("unexplained"), d.unexplained});
  std::stable_sort(list.begin(), list.end(), [](const Part& a, const Part& b) { return std::abs(a.value) > std::abs(b.value); });
  return list;
}

QString PipelineView::bubbleLine(const QFontMetricsF& fm, double width) const {
  const auto& summary = model_.recentSummary();
  const auto& b = summary.bubble;
  if (model_.replayMode())
    return fm.elidedText(tr("REPLAY (%1) · bubble in this replay %2 · theory %3")
                             .arg(TraceModel::replayName(*model_.replayMode()), percent(b.measured), percent(b.theory)),
                         Qt::ElideRight, width);
  const QString head = tr("Bubble %1 measured · theory %2").arg(percent(b.measured), percent(b.theory));
  const auto& breakdown = model_.breakdown();
  if (!breakdown) return fm.elidedText(head, Qt::ElideRight, width);
  const auto& d = *breakdown;
  // The breakdown may lag the summary by a redraw while a job streams: the line uses
  // its own measured value then, so its parts add up to what it says.
  const QString measured = tr("Bubble %1 measured · theory %2").arg(percent(d.measured), percent(d.theory));
  auto list = parts(d);
  for (std::size_t shown = list.size(); ; --shown) {
    QStringList items;
    double other = 0.0;
    for (std::size_t i = 0; i < list.size(); ++i)
      if (i < shown) items << tr("%1 %2").arg(list[i].name, points(list[i].value));
      else other += list[i].value;
    if (shown < list.size()) items << tr("other %1").arg(points(other));
    const QString line = tr("%1 · difference %2 = %3").arg(measured, points(d.measured - d.theory), items.join(QStringLiteral(", ")));
    if (fm.horizontalAdvance(line) <= width || shown == 0) return fm.elidedText(line, Qt::ElideRight, width);
  }
}

// The whole breakdown, for the tooltip and the tests: the bubble and every part of its
// difference from the theory, then the related "not computing" figure and how the two
// relate (the same trace, the same unit: a share of stage time).
QString PipelineView::breakdownText() const {
  const auto& breakdown = model_.breakdown();
  const auto& s = model_.recentSummary();
  if (!breakdown)
    return tr("Bubble: the recorded pipeline idle over the steady steps' stage time, %1 (theory %2). "
              "Its parts come from replays of the trace once a step has completed.")
        .arg(percent(s.bubble.measured), percent(s.bubble.theory));
  const auto& d = *breakdown;
  QString text = tr("Bubble (recorded pipeline idle over the steady steps' stage time): measured %1, theory %2 "
                    "((p−1)/(V·m+p−1)).")
                     .arg(percent(d.measured), percent(d.theory));
  text += QLatin1Char('\n') + tr("Difference %1 points, each part a replay of this trace:").arg(points(d.measured - d.theory));
  text += QLatin1Char('\n') + tr("  schedule as run %1: the schedule-alone replay (%2) minus the theory; the formula leaves "
                                  "out the optimizer step, which counts as stage time, and unequal stages")
                                   .arg(points(d.scheduleAsRun), percent(d.scheduleAlone));
  text += QLatin1Char('\n') + tr("  hand-offs %1: every message at its measured duration").arg(points(d.handoffs));
  text += QLatin1Char('\n') + (d.cpuTimes ? tr("  slower ops %1: every op at its own CPU time, not its fastest").arg(points(d.slowerOps))
                                           : tr("  slower ops %1: every op at its own wall time (no CPU times recorded, so "
                                                "core waits are in it)").arg(points(d.slowerOps)));
  if (d.cpuTimes) text += QLatin1Char('\n') + tr("  waiting for cores %1: every op at its wall time").arg(points(d.coreWaits));
  text += QLatin1Char('\n') + tr("  unexplained %1: what the last replay misses (±%2 expected)")
                                   .arg(points(d.unexplained), percent(st::kBreakdownTolerance));
  if (std::abs(d.unexplained) > st::kBreakdownTolerance)
    text += tr("; the replay misses more than that here: read the parts as rough");
  text += QLatin1Char('\n') + tr("A different figure: %1 of stage time was not spent computing at the ops' fastest pace = "
                                  "bubble %2 + ops slower than their fastest %3 + time under no record %4.")
                                   .arg(percent(d.notComputing), percent(d.measured), percent(d.opsAboveFastest),
                                        percent(d.untracked));
  return text;
}
