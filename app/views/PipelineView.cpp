#include "views/PipelineView.h"

#include "models/Format.h"
#include "models/Captions.h"
#include "models/JobText.h"
#include "views/Palette.h"

#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace shardlab::app {

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

int PipelineView::stepAt(qint64 t) const {
  int step = -1;
  for (int r = 0; r < model_.rankCount(); ++r)
    for (auto lane : {TraceModel::Lane::Compute, TraceModel::Lane::Idle})
      for (int i : model_.lane(r, lane)) {
        const auto& e = model_.event(i);
        if (e.t0 > t) break;
        step = std::max(step, e.step);
      }
  if (step < 0) step = model_.stepsDone() > 1 ? 1 : 0;
  return step;
}

std::pair<qint64, qint64> PipelineView::stepExtent(int step) const {
  qint64 t0 = INT64_MAX, t1 = INT64_MIN;
  for (int r = 0; r < model_.rankCount(); ++r)
    for (auto lane : {TraceModel::Lane::Compute, TraceModel::Lane::Idle})
      for (int i : model_.lane(r, lane)) {
        const auto& e = model_.event(i);
        if (e.step != step) continue;
        t0 = std::min<qint64>(t0, e.t0);
        t1 = std::max<qint64>(t1, e.t1);
      }
  return {t0, t1};
}

void PipelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const QFontMetricsF fm(font());
  const bool dark = Palette::isDark(palette());
  const auto& config = model_.config();
  header_.clear();
  legend_.clear();
  labelled_ = blocks_ = roomy_ = 0;
  diagram_ = {};
  stepShare_ = 0;
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
  step_ = stepAt(time_);
  const auto [t0, t1] = stepExtent(step_);
  // summarize() walks the whole run: while a job streams, at most twice a second.
  const auto& s = model_.recentSummary();
  const auto& b = s.bubble;
  p.setPen(palette().color(QPalette::Text));
  const double lineH = fm.height() * 1.3;
  const double textW = width() - 16;
  // Line 1: the bubble (one figure, the summary's), the theory and the parts of the
  // difference, fitted to the width by folding the smallest parts into "other". Where even
  // the shortest form would be cut (half of 1280 px, presenting, in Russian), the same line
  // is fitted to two lines' width and wrapped between words, so nothing of it is cut.
  const QString one = bubbleLine(fm, textW);
  if (!one.endsWith(QChar(0x2026))) {
    header_ << one;
  } else {
    for (double room = 2 * textW - fm.averageCharWidth() * 4; room > textW; room -= fm.averageCharWidth() * 4) {
      const QString line = bubbleLine(fm, room);
      if (line.endsWith(QChar(0x2026))) continue;
      // Greedy breaks between words, as the painter wraps.
      QStringList lines{QString()};
      for (const QString& word : line.split(QLatin1Char(' '))) {
        const QString next = lines.back().isEmpty() ? word : lines.back() + QLatin1Char(' ') + word;
        if (fm.horizontalAdvance(next) > textW && !lines.back().isEmpty()) lines << word;
        else lines.back() = next;
      }
      if (lines.size() <= 2) {
        header_ = lines;
        break;
      }
    }
    if (header_.isEmpty()) header_ << one; // not even two lines: the one line, ended with "…"
  }
  for (int i = 0; i < header_.size(); ++i)
    p.drawText(QRectF(8, 2 + i * lineH, textW, lineH), Qt::AlignLeft | Qt::AlignVCenter, header_[i]);
  const double headerH = static_cast<double>(header_.size()) * lineH;
  const QString schedule = tr("Step %1 · %2 · %3 · %4")
                               .arg(step_)
                               .arg(QString::fromStdString(b.schedule), tr("%n stage(s)", nullptr, b.stages),
                                    tr("%n micro-batch(es)", nullptr, b.microbatches));
  p.setPen(palette().color(QPalette::PlaceholderText));
  p.drawText(QRectF(8, 2 + headerH, textW, lineH), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(schedule, Qt::ElideRight, textW));
  if (const QString tip = breakdownText() + QStringLiteral("\n\n") + schedule; tip != toolTip()) setToolTip(tip);
  if (t0 >= t1) return;
  const double label = fm.horizontalAdvance(tr("Stage 00")) + 16;
  const double top = 2 + headerH + lineH + fm.height() * 0.4;
  const int n = std::max(1, model_.rankCount());
  const double w = width() - label - 8;
  const qint64 span = std::max(span_, t1 - t0);
  auto x = [&](qint64 t) { return label + w * static_cast<double>(t - t0) / static_cast<double>(span); };
  // What the step draws, for the legend under it: only what is there.
  std::vector<st::Kind> kinds;
  bool idleDrawn = false, coreWaitDrawn = false;
  // The legend's entries and their rows, fitted to the width (drawn after the rows).
  struct Entry {
    QString text;
    int what; // 0: an op kind, 1: recorded idle, 2: waiting for a CPU core
    st::Kind kind;
  };
  std::vector<Entry> entries;
  auto legendRows = [&](const std::vector<Entry>& list) {
    const double sw = fm.height() * 1.2;
    int rows = list.empty() ? 0 : 1;
    double cx = label;
    for (const Entry& e : list) {
      const double ew = sw + 6 + fm.horizontalAdvance(e.text) + 18;
      if (cx > label && cx + ew > label + w) ++rows, cx = label;
      cx += ew;
    }
    return rows;
  };
  // First pass: what is drawn (the legend takes its rows from the diagram's height).
  for (int r = 0; r < model_.rankCount(); ++r) {
    for (int i : model_.lane(r, TraceModel::Lane::Idle))
      if (model_.event(i).step == step_) idleDrawn = true;
    for (int i : model_.lane(r, TraceModel::Lane::Compute)) {
      const auto& e = model_.event(i);
      if (e.step != step_) continue;
      if (std::find(kinds.begin(), kinds.end(), e.kind) == kinds.end()) kinds.push_back(e.kind);
      if (!Palette::coreWaitPart(e, QRectF(0, 0, 1000, 10)).isEmpty()) coreWaitDrawn = true;
    }
  }
  std::sort(kinds.begin(), kinds.end());
  // What the blocks' letters and colours do not say first: the hatched and dotted parts.
  if (idleDrawn) entries.push_back({tr("recorded idle (hatched)"), 1, st::Kind::Forward});
  if (coreWaitDrawn) entries.push_back({tr("waiting for a CPU core (dotted)"), 2, st::Kind::Forward});
  for (st::Kind k : kinds) {
    entries.push_back({tr("%1 %2").arg(Format::kindLetter(k), Format::kindName(k)), 0, k});
  }
  const QString footer = tr("Step %1 lasted %2").arg(step_).arg(Format::duration(t1 - t0));
  // The rows keep a legible height (a line and a half of text); the legend takes the rows of
  // text left under them, its last entries (the op colours, which the letters F/B/O name)
  // left out where there are none.
  const double minRowH = fm.height() * 1.6;
  while (!entries.empty() && top + n * minRowH + fm.height() * 1.4 * (1 + legendRows(entries)) > height())
    entries.pop_back();
  const int legendN = legendRows(entries);
  const double footerH = fm.height() * 1.4 * (1 + legendN);
  const double rowH = std::max(minRowH, std::min((height() - top - footerH) / n, fm.height() * 3.0));
  diagram_ = QRectF(label, top, w, n * rowH);
  stepShare_ = static_cast<double>(t1 - t0) / static_cast<double>(span);
  // Micro-batch labels: "F3" where the block has room, the number alone where only it fits
  // (the colour says forward or backward, as the legend does).
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
      ++blocks_;
      QString text = Format::kindLetter(e.kind);
      const QString number = e.micro >= 0 ? QString::number(e.micro) : QString();
      text += number;
      p.setPen(Qt::black);
      if (!number.isEmpty() && bb.width() > fm.horizontalAdvance(number) + 2) ++roomy_;
      if (bb.width() > fm.horizontalAdvance(text) + 2) {
        p.drawText(bb, Qt::AlignCenter, text);
        if (!number.isEmpty()) ++labelled_;
      } else if (!number.isEmpty() && bb.width() > fm.horizontalAdvance(number) + 2) {
        p.drawText(bb, Qt::AlignCenter, number);
        ++labelled_;
      }
    }
  }
  if (time_ >= t0 && time_ <= t1) {
    p.setPen(QPen(dark ? Qt::white : Qt::black, 2));
    p.drawLine(QPointF(x(time_), top), QPointF(x(time_), top + n * rowH));
  }
  p.setPen(palette().color(QPalette::Text));
  double y = top + n * rowH;
  p.drawText(QRectF(label, y, w, fm.height() * 1.4), Qt::AlignLeft | Qt::AlignVCenter, fm.elidedText(footer, Qt::ElideRight, w));
  // The legend: a swatch drawn as the diagram draws it, then its words; rows as needed.
  const double sw = fm.height() * 1.2, sh = fm.height() * 0.8;
  double cx = label;
  y += fm.height() * 1.4;
  for (const Entry& e : entries) {
    const double ew = sw + 6 + fm.horizontalAdvance(e.text) + 18;
    if (cx > label && cx + ew > label + w) cx = label, y += fm.height() * 1.4;
    const QRectF swatch(cx, y + (fm.height() * 1.4 - sh) / 2, sw, sh);
    if (e.what == 0) {
      p.fillRect(swatch, Palette::kind(e.kind));
    } else if (e.what == 1) {
      p.fillRect(swatch, Palette::idle(dark));
      p.fillRect(swatch, QBrush(Palette::kind(st::Kind::ReduceScatter), Qt::BDiagPattern));
    } else {
      p.fillRect(swatch, Palette::kind(st::Kind::Forward));
      p.fillRect(swatch, Palette::coreWait(dark));
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(swatch);
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(swatch.right() + 6, y, ew - sw - 6, fm.height() * 1.4), Qt::AlignLeft | Qt::AlignVCenter, e.text);
    legend_ << e.text;
    cx += ew;
  }
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
    // No part fits beside the figures (a narrow diagram): the difference alone, its
    // parts in the tooltip, rather than one "other" that says nothing.
    const QString line = shown == 0 ? tr("%1 · difference %2 (its parts: hover)").arg(measured, points(d.measured - d.theory))
                                    : tr("%1 · difference %2 = %3").arg(measured, points(d.measured - d.theory), items.join(QStringLiteral(", ")));
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

} // namespace shardlab::app
