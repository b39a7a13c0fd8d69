#include "views/RankView.h"

#include "models/Format.h"
#include "views/CategoryLegend.h"

#include "models/Captions.h"
#include "views/Palette.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <bit>
#include <cmath>

namespace shardlab::app {

namespace st = shardlab::trace;

namespace {
double progressOf(const st::Event& e, qint64 t) {
  if (e.t1 <= e.t0) return 1.0;
  return std::clamp(static_cast<double>(t - e.t0) / static_cast<double>(e.t1 - e.t0), 0.0, 1.0);
}
} // namespace

RankView::RankView(const TraceModel& model, QWidget* parent) : QWidget(parent), model_(model), state_(model) {
  setMinimumSize(320, 200);
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);
}

void RankView::setTime(qint64 t) {
  time_ = t;
  update();
}

void RankView::modelReset() {
  state_.invalidate();
  labelsKey_.clear();
  ++layerEpoch_;
  budget_ = model_.config() ? model_.config()->memoryBudget : 0;
  layoutCards();
  update();
}

void RankView::resizeEvent(QResizeEvent*) { layoutCards(); }

int RankView::unitColumns() const {
  // The column count that gives each owner slot the largest legible size: with
  // 8 ranks × 32 units this picks a wide grid of short cells over a tall one.
  const int units = std::max(1, model_.unitCount());
  if (cards_.empty()) return units;
  const QRectF c = cards_.front();
  const double lh = fontMetrics().height();
  // Asked for every slot of every card: computed once per geometry.
  const ColumnsKey key{units, model_.rankCount(), c.size(), lh, fontMetrics().averageCharWidth()};
  if (key == columnsKey_) return columns_;
  columnsKey_ = key;
  columns_ = bestUnitColumns(c, lh, units);
  return columns_;
}

int RankView::bestUnitColumns(const QRectF& c, double lh, int units) const {
  const double top = c.top() + lh * 2.6 + std::max(10.0, lh * 0.9) + lh * 1.6;
  const double availH = c.bottom() - top - 6, availW = c.width() - 16;
  const int n = model_.slotCount();
  // Full unit names come first (a projector's room reads "embedding", not "emb…"), then
  // the largest slots: a grid where every name fits beats any grid that cuts one.
  double longestName = 0;
  const QFontMetricsF nameMetrics(font());
  for (int u = 0; u < model_.unitCount(); ++u) longestName = std::max(longestName, nameMetrics.horizontalAdvance(model_.unitName(u)));
  int best = 1;
  double bestScore = -1;
  for (int cols = 1; cols <= units; ++cols) {
    const int rows = (units + cols - 1) / cols;
    const double cellW = availW / cols, cellH = std::min(availH / rows, lh * 4.0);
    const double slotW = (cellW - 6) / n, slotH = (cellH - labelHeight(cellH)) * 0.55;
    // Legibility is the smaller side, with a name that still fits in the cell.
    const double score = std::min(slotW * 1.5, slotH) + (cellW >= fontMetrics().averageCharWidth() * 6 ? 0.5 : 0) +
                         (cellW - 6 >= longestName + 1 ? 1000.0 : 0.0);
    if (score > bestScore) bestScore = score, best = cols;
  }
  return best;
}

QString RankView::unitLabel(int unit, const QFont& font, double width) const {
  // Eliding measures text: done once per unit, font and width, not every frame.
  const QString key = font.key() + QLatin1Char('|') + QString::number(width, 'g', 10);
  if (key != labelsKey_ || labels_.size() != static_cast<std::size_t>(model_.unitCount())) {
    labelsKey_ = key;
    labels_.assign(static_cast<std::size_t>(model_.unitCount()), QString());
    const QFontMetricsF fm(font);
    for (int u = 0; u < model_.unitCount(); ++u)
      labels_[static_cast<std::size_t>(u)] = fm.elidedText(model_.unitName(u), Qt::ElideRight, width);
  }
  return unit >= 0 && static_cast<std::size_t>(unit) < labels_.size() ? labels_[static_cast<std::size_t>(unit)] : QString();
}

double RankView::labelHeight(double cellH) const {
  // Unit names take one text line in roomy cells, a small one in tight cells.
  const double lh = fontMetrics().height();
  return cellH >= lh * 2.6 ? lh * 1.05 : smallFont().pointSizeF() / font().pointSizeF() * lh;
}

QFont RankView::smallFont() const {
  QFont f = font();
  f.setPointSizeF(std::max(6.5, f.pointSizeF() * 0.8));
  return f;
}

QString RankView::hybridHeaderText() const {
  // True of both layouts: the grid (a row per group) and the cards in one row under brackets.
  return tr("HYBRID_SHARD: each shard group of %n rank(s) splits every unit; "
            "the ranks that hold the same slice are replicas, kept equal by an all-reduce across the groups",
            nullptr, model_.slotCount());
}

void RankView::layoutCards() {
  const int n = model_.rankCount();
  cards_.clear();
  laidOutSlots_ = model_.slotCount();
  // The legend wraps onto as many rows as it needs: every category stays named.
  const double legendH = legendShown_ ? CategoryLegend::heightFor(font(), width() - 16, model_.imported()) + 4 : 0.0;
  legend_ = QRectF(8, height() - legendH, width() - 16, legendH - 4);
  if (n <= 0) return;
  // Hybrid sharding: a header line says how to read the grid of shard groups and slices.
  // It wraps (the Russian sentence is the longest) rather than losing its end.
  const double headerH = model_.hybridGrid()
                             ? QFontMetricsF(font()).boundingRect(QRectF(0, 0, width() - 20, 1e6), Qt::TextWordWrap,
                                                                  hybridHeaderText()).height() + 4
                             : 0.0;
  header_ = QRectF(10, 6, width() - 20, headerH);
  const QRectF area(6, 6 + headerH, width() - 12, height() - 12 - legendH - headerH);
  // Choose the column count that makes cards closest to 16:10; under hybrid sharding
  // one row per shard group and one column per slice (the 2-D layout of the ranks).
  // The grid is kept only where its cards still have room for the units' cells (at
  // 1280x720 in presentation mode four cards in two rows do not): else the cards go in
  // rank order, a shard group's ranks side by side, each card naming its group and slice.
  const double lh = fontMetrics().height();
  const int gridRows = model_.hybridGrid() ? n / model_.slotCount() : 0;
  const bool grid = gridRows > 0 && area.height() / gridRows >= lh * 9.0;
  // Without the grid, a shard group's cards stay on one row under a label naming the group.
  const bool groupRows = model_.hybridGrid() && !grid;
  const int step = groupRows ? model_.slotCount() : 1;
  const double stripH = groupRows ? lh * 1.2 : 0.0;
  int bestCols = grid ? model_.slotCount() : step;
  double bestScore = 1e18;
  for (int cols = step; cols <= n && !grid; cols += step) {
    const int rows = (n + cols - 1) / cols;
    const double w = area.width() / cols, h = area.height() / rows - stripH;
    const double score = std::abs(std::log((w / h) / 1.6)) + (w < 200 ? 5 : 0);
    if (score < bestScore) bestScore = score, bestCols = cols;
  }
  const int rows = (n + bestCols - 1) / bestCols;
  const double w = area.width() / bestCols, h = area.height() / rows;
  for (int r = 0; r < n; ++r)
    cards_.push_back(QRectF(area.left() + (r % bestCols) * w, area.top() + (r / bestCols) * h + stripH, w, h - stripH)
                         .adjusted(4, 4, -4, -4));
  // Unit rows: where the grid's cards cannot name every unit in full over cells of 16 px
  // (four ranks in half of 1280 px, presenting), the cards stand in one row as columns, and
  // each unit is a row across them, named once at the left (not under hybrid sharding,
  // whose grid says which ranks are a group).
  unitRows_ = false;
  if (!model_.hybridGrid() && n > 1 && !gridLegible(cards_.front())) {
    const double namesW = longestUnitName() + 12;
    const double cw = (area.width() - namesW) / n;
    const int units = std::max(1, model_.unitCount());
    // Two lines of what the rank does and the memory line where the height allows; else one
    // line of it, then no memory line (the bar stays): what is left out is in the tooltip.
    bool fits = false;
    for (const auto& [lines, memory] : {std::pair{2, true}, std::pair{1, true}, std::pair{1, false}}) {
      const double top = 4 + lh * (1 + lines) + 2 + std::max(10.0, lh * 0.9) + (memory ? lh : 0.0) + 4;
      const double rowH = std::min((area.height() - 8 - top - 4) / units, lh * 2.2);
      const double slotW = (cw - 4 - 8) / std::max(1, model_.slotCount()), slotH = (rowH - 2) / 1.35;
      if (std::min(slotW, slotH) >= 16.0) {
        activityLines_ = lines;
        memoryLine_ = memory;
        fits = true;
        break;
      }
    }
    if (fits) {
      unitRows_ = true;
      names_ = QRectF(area.left() + 4, area.top(), namesW - 4, area.height());
      for (int r = 0; r < n; ++r)
        cards_[static_cast<std::size_t>(r)] =
            QRectF(area.left() + namesW + r * cw, area.top(), cw, area.height()).adjusted(2, 4, -2, -4);
    }
  }
  groupLabels_.clear();
  if (groupRows)
    for (int first = 0; first < n; first += step) {
      const QRectF span = cardRect(first).united(cardRect(first + step - 1));
      groupLabels_.push_back(QRectF(span.left(), span.top() - stripH - 2, span.width(), stripH));
    }
}

double RankView::longestUnitName() const {
  double longest = 0;
  const QFontMetricsF fm(font());
  for (int u = 0; u < model_.unitCount(); ++u) longest = std::max(longest, fm.horizontalAdvance(model_.unitName(u)));
  return longest;
}

bool RankView::gridLegible(const QRectF& c) const {
  const double lh = fontMetrics().height();
  const int units = std::max(1, model_.unitCount());
  const int cols = bestUnitColumns(c, lh, units);
  const int rows = (units + cols - 1) / cols;
  const double top = c.top() + lh * 2.6 + std::max(10.0, lh * 0.9) + lh * 1.6;
  const double cellW = (c.width() - 16) / cols, cellH = std::min((c.bottom() - top - 6) / rows, lh * 4.0);
  const double slotW = (cellW - 6) / std::max(1, model_.slotCount());
  const double slotH = std::max(4.0, (cellH - labelHeight(cellH)) * 0.55);
  return slotW >= 16.0 && slotH >= 16.0 && cellW - 6 >= longestUnitName() + 1 && labelHeight(cellH) >= lh;
}

QRectF RankView::cardRect(int rank) const {
  return rank >= 0 && rank < static_cast<int>(cards_.size()) ? cards_[static_cast<std::size_t>(rank)] : QRectF();
}

bool RankView::unitShown(int rank, int unit) const {
  const QRectF cell = slotRect(rank, unit, -1);
  return !cell.isNull() && cell.bottom() <= cardRect(rank).bottom();
}

QRectF RankView::memoryBarRect(int rank) const {
  const QRectF c = cardRect(rank);
  if (c.isNull()) return {};
  const double lh = fontMetrics().height();
  // Unit rows: the title and two lines of what the rank does above the bar.
  if (unitRows_)
    return QRectF(c.left() + 4, c.top() + 4 + lh * (1 + activityLines_) + 2, c.width() - 8, std::max(10.0, lh * 0.9));
  return QRectF(c.left() + 8, c.top() + lh * 2.6, c.width() - 16, std::max(10.0, lh * 0.9));
}

double RankView::cellHeight(int rank) const {
  const QRectF bar = memoryBarRect(rank);
  if (bar.isNull()) return 0;
  const double lh = fontMetrics().height();
  const int cols = unitColumns();
  const int rowsN = (std::max(1, model_.unitCount()) + cols - 1) / cols;
  return std::min((cardRect(rank).bottom() - (bar.bottom() + lh * 1.6) - 6) / rowsN, lh * 4.0);
}

QRectF RankView::slotRect(int rank, int unit, int slot) const {
  const QRectF bar = memoryBarRect(rank);
  if (bar.isNull() || unit < 0) return {};
  const QRectF c = cardRect(rank);
  const double lh = fontMetrics().height();
  if (unitRows_) {
    // A row per unit: the parameter slots, the gradient strip under them (a third as tall).
    const double top = bar.bottom() + (memoryLine_ ? lh : 0.0) + 4;
    const double rowH = std::min((c.bottom() - top - 4) / std::max(1, model_.unitCount()), lh * 2.2);
    const QRectF params(c.left() + 4, top + unit * rowH, c.width() - 8, (rowH - 2) / 1.35);
    const double sw = params.width() / model_.slotCount();
    if (slot < 0) return params;
    return QRectF(params.left() + slot * sw, params.top(), sw, params.height());
  }
  const int cols = unitColumns();
  const int units = std::max(1, model_.unitCount());
  const int rowsN = (units + cols - 1) / cols;
  const double top = bar.bottom() + lh * 1.6;
  const double cellW = (c.width() - 16) / cols;
  const double availH = c.bottom() - top - 6;
  const double cellH = std::min(availH / rowsN, lh * 4.0);
  const double labelH = labelHeight(cellH);
  const QRectF cell(c.left() + 8 + (unit % cols) * cellW, top + (unit / cols) * cellH, cellW, cellH);
  const QRectF params(cell.left() + 3, cell.top() + labelH, cell.width() - 6, std::max(4.0, (cell.height() - labelH) * 0.55));
  const double sw = params.width() / model_.slotCount();
  if (slot < 0) return params;
  return QRectF(params.left() + slot * sw, params.top(), sw, params.height());
}

void RankView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  if (cards_.size() != static_cast<std::size_t>(model_.rankCount()) || laidOutSlots_ != model_.slotCount()) layoutCards();
  if (model_.rankCount() == 0) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(20, 0, -20, 0), Qt::AlignCenter | Qt::TextWordWrap, emptyText());
    return;
  }
  // What does not move with the playhead (cards, titles, unit names, slot outlines,
  // legend) is drawn once into two layers; a frame draws only the state at t between them.
  // Keyed on what the layers show, not on the model's generation: a streaming job
  // appends events every batch without changing cards, titles or units.
  QString look = font().key() + tr("no work at this instant") + QString::number(model_.unitCount());
  for (int r = 0; r < model_.rankCount(); ++r) look += QLatin1Char('|') + model_.rankLabel(r);
  look += QLatin1Char('|') + QString::number(model_.slotCount()); // slots and the hybrid grid follow the job record
  const LayerKey key{layerEpoch_, size(), palette().cacheKey(), look, devicePixelRatioF()};
  if (!(key == layerKey_) || under_.isNull()) {
    const QSize px = (QSizeF(size()) * key.dpr).toSize();
    under_ = QPixmap(px);
    under_.setDevicePixelRatio(key.dpr);
    under_.fill(Qt::transparent);
    over_ = QPixmap(px);
    over_.setDevicePixelRatio(key.dpr);
    over_.fill(Qt::transparent);
    QPainter u(&under_), o(&over_);
    for (QPainter* q : {&u, &o}) {
      q->setRenderHint(QPainter::Antialiasing);
      q->setFont(font());
    }
    titles_.clear();
    for (int r = 0; r < model_.rankCount(); ++r) {
      paintCardUnder(u, r);
      paintCardOver(o, r);
    }
    if (unitRows_) {
      // Each unit named once, at the left of its row of cells.
      u.setPen(palette().color(QPalette::Text));
      for (int unit = 0; unit < model_.unitCount(); ++unit) {
        const QRectF params = slotRect(0, unit, -1);
        u.drawText(QRectF(names_.left(), params.center().y() - names_.width(), names_.width(), 2 * names_.width()),
                   Qt::AlignLeft | Qt::AlignVCenter, unitLabel(unit, font(), names_.width()));
      }
    }
    if (legendShown_) CategoryLegend::paint(u, legend_, font(), palette().color(QPalette::Text), model_.imported());
    if (model_.hybridGrid()) {
      u.setPen(palette().color(QPalette::Text));
      u.drawText(header_, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, hybridHeaderText());
      // Cards in one row: a bracket over each shard group's cards.
      const int g = model_.slotCount();
      for (std::size_t i = 0; i < groupLabels_.size(); ++i) {
        const QRectF b = groupLabels_[i];
        const int first = static_cast<int>(i) * g;
        u.setPen(QPen(palette().color(QPalette::Mid), 1.5));
        u.drawLine(QPointF(b.left() + 2, b.bottom()), QPointF(b.right() - 2, b.bottom()));
        u.drawLine(QPointF(b.left() + 2, b.bottom()), QPointF(b.left() + 2, b.bottom() - 4));
        u.drawLine(QPointF(b.right() - 2, b.bottom()), QPointF(b.right() - 2, b.bottom() - 4));
        u.setPen(palette().color(QPalette::Text));
        u.drawText(b, Qt::AlignCenter, tr("shard group %1: ranks %2–%3").arg(i).arg(first).arg(first + g - 1));
      }
    }
    layerKey_ = key;
  }
  p.drawPixmap(0, 0, under_);
  shown_.assign(static_cast<std::size_t>(model_.rankCount()), {});
  for (int r = 0; r < model_.rankCount(); ++r) paintCard(p, r);
  p.drawPixmap(0, 0, over_);
  for (int r = 0; r < model_.rankCount(); ++r) paintFailureBox(p, r);
  paintTransfers(p);
}

int RankView::failureAt(int rank) const {
  int failure = -1;
  for (int i : model_.failureEvents())
    if (model_.event(i).rank == rank && model_.event(i).t0 <= time_) failure = i;
  return failure;
}

void RankView::paintCardUnder(QPainter& p, int rank) {
  const QRectF c = cardRect(rank);
  const double lh = QFontMetricsF(font()).height();
  p.setPen(QPen(palette().color(QPalette::Mid), 1.0));
  p.setBrush(palette().color(QPalette::AlternateBase));
  p.drawRoundedRect(c, 6, 6);
  QFont bold = font();
  bold.setBold(true);
  p.setFont(bold);
  p.setPen(palette().color(QPalette::Text));
  if (unitRows_) {
    // A narrow column: the device is the run's (its title says it), the rank's number stays.
    const QFontMetricsF bm(bold);
    const double room = c.width() - 8;
    QString title = model_.rankLabel(rank);
    if (bm.horizontalAdvance(title) > room) title = tr("Rank %1").arg(rank);
    title = bm.elidedText(title, Qt::ElideRight, room);
    if (titles_.size() <= static_cast<std::size_t>(rank)) titles_.resize(static_cast<std::size_t>(rank) + 1);
    titles_[static_cast<std::size_t>(rank)] = {model_.rankLabel(rank), title};
    p.drawText(QRectF(c.left() + 4, c.top() + 4, room, lh), Qt::AlignLeft | Qt::AlignVCenter, title);
  } else {
    p.drawText(QRectF(c.left() + 8, c.top() + 4, c.width() - 16, lh), Qt::AlignLeft | Qt::AlignVCenter, model_.rankLabel(rank));
  }
  p.setFont(font());
  if (model_.hybridGrid()) {
    // Where the rank sits in the 2-D layout: its shard group (row) and slice (column).
    p.setPen(palette().color(QPalette::PlaceholderText));
    // Right-aligned, clear of the all-reduce ring drawn in the card's top right corner.
    // The group is named above the cards when they stand in one row (groupLabels_), and a
    // narrow card says the slice only, so that the tag never runs into the title.
    const QRectF room(c.left() + 8, c.top() + 4, c.width() - 16 - lh * 2.4, lh);
    QString tag = tr("group %1 · slice %2").arg(rank / model_.slotCount()).arg(model_.slotOf(rank));
    if (!groupLabels_.empty() ||
        QFontMetricsF(bold).horizontalAdvance(model_.rankLabel(rank)) + QFontMetricsF(font()).horizontalAdvance(tag) + lh >
            room.width())
      tag = tr("slice %1").arg(model_.slotOf(rank));
    p.drawText(room, Qt::AlignRight | Qt::AlignVCenter, tag);
    p.setPen(palette().color(QPalette::Text));
  }
  for (int u = 0; u < model_.unitCount() && !unitRows_; ++u) {
    const QRectF params = slotRect(rank, u, -1);
    if (params.bottom() > c.bottom()) break;
    p.setPen(palette().color(QPalette::Text));
    const double labelH = labelHeight(cellHeight(rank));
    const bool tight = labelH < lh;
    const QFont saved = p.font();
    if (tight) p.setFont(smallFont());
    p.drawText(QRectF(params.left(), params.top() - labelH, params.width(), labelH), Qt::AlignLeft | Qt::AlignVCenter,
               unitLabel(u, p.font(), params.width()));
    p.setFont(saved);
  }
}

void RankView::paintCardOver(QPainter& p, int rank) {
  const QRectF c = cardRect(rank);
  const int n = model_.slotCount();
  for (int u = 0; u < model_.unitCount(); ++u) {
    if (slotRect(rank, u, -1).bottom() > c.bottom()) break;
    p.setPen(QPen(palette().color(QPalette::Mid), 0.8));
    p.setBrush(Qt::NoBrush);
    for (int j = 0; j < n; ++j) p.drawRect(slotRect(rank, u, j));
    // The owner's own slot gets a thicker outline: "this shard is mine".
    if (n > 1) {
      p.setPen(QPen(palette().color(QPalette::Text), 1.6));
      p.drawRect(slotRect(rank, u, model_.slotOf(rank)));
    }
  }
}

std::pair<QString, bool> RankView::activity(int rank, const RankState& s) const {
  QString doing;
  bool idle = false;
  for (int i : s.running) {
    const auto& e = model_.event(i);
    if (e.record == st::Record::Idle) {
      idle = true;
      doing = tr("idle: %1").arg(Format::kindName(e.kind));
    } else if (!idle) {
      const QString what = e.unit >= 0 ? QStringLiteral("%1 %2").arg(Format::kindName(e.kind), model_.unitName(e.unit))
                                       : Format::kindName(e.kind);
      doing = doing.isEmpty() ? what : doing + QStringLiteral(" ‖ ") + what;
    }
  }
  if (doing.isEmpty() && time_ >= model_.endTime()) {
    // At the newest recorded instant (the live edge of a running job, or the end of a
    // run) a rank is between records: events are written when they end. Say what it
    // did last instead of "no work".
    if (const int latest = state_.lastRecordedAt(rank, time_); latest >= 0) {
      const auto& e = model_.event(latest);
      const QString what = e.record == st::Record::Idle ? tr("idle: %1").arg(Format::kindName(e.kind))
                           : e.unit >= 0 ? QStringLiteral("%1 %2").arg(Format::kindName(e.kind), model_.unitName(e.unit))
                                         : Format::kindName(e.kind);
      doing = tr("last recorded: %1").arg(what);
    }
  }
  return {doing, idle};
}

QString RankView::activityText(int rank) const {
  const QString doing = activity(rank, state_.stateAt(rank, time_)).first;
  return doing.isEmpty() ? tr("no work at this instant") : doing;
}

void RankView::paintCard(QPainter& p, int rank) {
  const QRectF c = cardRect(rank);
  const bool dark = Palette::isDark(palette());
  const auto s = state_.stateAt(rank, time_);
  const QFontMetricsF fm(font());
  const double lh = fm.height();

  // Card, title and unit names are in the layer under this (paintCardUnder); a failure
  // reached redraws the card's border. A hung or failed run's culprit (RunEnding) is
  // tinted and framed in the problem colour; a rank waiting in the hung call is framed
  // dashed, and says what it waits in rather than the watchdog's failure.
  const RunEnding& ending = model_.ending();
  const bool culprit = ending.reached(time_) && ending.isCulprit(rank);
  const auto stuck = ending.stuck.find(rank);
  const bool waiting = ending.kind == RunEnding::Kind::Hang && ending.isWaiting(rank) && stuck != ending.stuck.end() &&
                       stuck->second.start <= time_;
  const int failure = waiting ? -1 : failureAt(rank);
  if (culprit) {
    const QColor problem = Palette::problem();
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(problem.red(), problem.green(), problem.blue(), 40));
    p.drawRoundedRect(c, 6, 6);
    p.setPen(QPen(problem, 4.0));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(c, 6, 6);
  } else if (waiting) {
    p.setPen(QPen(Palette::kind(stuck->second.kind), 3.0, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(c, 6, 6);
  } else if (failure >= 0) {
    p.setPen(QPen(Palette::kind(st::Kind::ReduceScatter), 3.0));
    p.setBrush(Qt::NoBrush);
    p.drawRoundedRect(c, 6, 6);
  }

  // What the rank does now, under its title.
  p.setFont(font());
  const QRectF title(c.left() + 8, c.top() + 4, c.width() - 16, lh);
  const auto [doing0, idle] = activity(rank, s);
  QString doing = doing0;
  if (failure >= 0) doing = model_.event(failure).record == st::Record::OutOfMemory ? tr("OUT OF MEMORY") : tr("FAILED");
  if (culprit) doing = ending.kind == RunEnding::Kind::Hang ? tr("MISSING: %1").arg(ending.culpritText(rank))
                                                            : tr("FAILED: %1").arg(ending.culpritText(rank));
  else if (waiting) doing = ending.waitingText(model_.trace(), rank);
  p.setPen(culprit ? Palette::problem()
           : waiting ? palette().color(QPalette::Text)
           : failure >= 0 ? Palette::kind(st::Kind::ReduceScatter)
                          : palette().color(QPalette::PlaceholderText));
  const QString doingText = doing.isEmpty() ? tr("no work at this instant") : doing;
  if (unitRows_ && activityLines_ == 1) {
    const QString shown = fm.elidedText(doingText, Qt::ElideRight, c.width() - 8);
    noteShown(rank, doingText, shown);
    p.drawText(QRectF(c.left() + 4, title.bottom(), c.width() - 8, lh), Qt::AlignLeft | Qt::AlignVCenter, shown);
  } else if (unitRows_) {
    // A narrow column: two lines, broken between words; what still does not fit ends
    // with "…" and is whole in the card's tooltip.
    const QRectF room(c.left() + 4, title.bottom(), c.width() - 8, lh * 2);
    const QStringList words = doingText.split(QLatin1Char(' '));
    QString first;
    int used = 0;
    for (; used < words.size(); ++used) {
      const QString next = first.isEmpty() ? words[used] : first + QLatin1Char(' ') + words[used];
      if (fm.horizontalAdvance(next) > room.width() && !first.isEmpty()) break;
      first = next;
    }
    const QString rest = QStringList(words.mid(used)).join(QLatin1Char(' '));
    first = fm.elidedText(first, Qt::ElideRight, room.width());
    const QString second = fm.elidedText(rest, Qt::ElideRight, room.width());
    noteShown(rank, doingText, rest.isEmpty() ? first : first + QLatin1Char(' ') + second);
    p.drawText(QRectF(room.left(), room.top(), room.width(), lh), Qt::AlignLeft | Qt::AlignVCenter, first);
    p.drawText(QRectF(room.left(), room.top() + lh, room.width(), lh), Qt::AlignLeft | Qt::AlignVCenter, second);
  } else {
    // A narrow card (two runs side by side) ends a long line with "…" rather than cutting a letter.
    const QString shown = fm.elidedText(doingText, Qt::ElideRight, title.width());
    noteShown(rank, doingText, shown);
    p.drawText(QRectF(title.left(), title.bottom(), title.width(), lh), Qt::AlignLeft | Qt::AlignVCenter, shown);
  }
  if (idle || waiting) {
    p.fillRect(QRectF(c.left() + 2, c.top() + 2, c.width() - 4, lh * (unitRows_ ? 1.2 + activityLines_ : 2.2)),
               QBrush(Palette::idle(dark), Qt::BDiagPattern));
  }

  // Memory bar, stacked by category, to the scale of the largest rank (or the budget).
  const QRectF bar = memoryBarRect(rank);
  const double scale = static_cast<double>(std::max<qint64>({model_.peakBytes(), budget_, 1}));
  p.setPen(Qt::NoPen);
  p.setBrush(palette().color(QPalette::Base));
  p.drawRect(bar);
  double x = bar.left();
  for (int cat = 0; cat < st::kCategoryCount; ++cat) {
    const qint64 b = s.byCategory[static_cast<std::size_t>(cat)];
    if (b <= 0) continue;
    const double w = bar.width() * static_cast<double>(b) / scale;
    p.setBrush(Palette::category(static_cast<st::Category>(cat)));
    p.drawRect(QRectF(x, bar.top(), w, bar.height()));
    x += w;
  }
  if (budget_ > 0) {
    const double bx = bar.left() + bar.width() * static_cast<double>(budget_) / scale;
    p.setPen(QPen(Palette::kind(st::Kind::ReduceScatter), 2, Qt::DashLine));
    p.drawLine(QPointF(bx, bar.top() - 3), QPointF(bx, bar.bottom() + 3));
  }
  p.setPen(palette().color(QPalette::Mid));
  p.setBrush(Qt::NoBrush);
  p.drawRect(bar);
  p.setPen(palette().color(QPalette::Text));
  QString memText = tr("%1 held · peak %2").arg(Format::bytes(s.total), Format::bytes(model_.peakBytes(rank)));
  if (budget_ > 0) memText += tr(" · budget %1").arg(Format::bytes(budget_));
  QString memShown = fm.elidedText(memText, Qt::ElideRight, bar.width());
  if (unitRows_ && memShown != memText) {
    // A narrow column: what the rank holds now (the bar's length), the rest in the tooltip.
    memShown = tr("%1 held").arg(Format::bytes(s.total));
    if (fm.horizontalAdvance(memShown) > bar.width()) memShown = Format::bytes(s.total);
    memShown = fm.elidedText(memShown, Qt::ElideRight, bar.width());
  }
  if (unitRows_ && !memoryLine_) memShown.clear(); // no room under the bar: in the tooltip
  noteShown(rank, memText, memShown);
  if (!memShown.isEmpty()) p.drawText(QRectF(bar.left(), bar.bottom() + 1, bar.width(), lh), Qt::AlignLeft | Qt::AlignVCenter, memShown);

  // Units: parameter slots (one per owner rank) and gradient slots under them.
  const int n = model_.slotCount();
  for (int u = 0; u < model_.unitCount(); ++u) {
    const QRectF params = slotRect(rank, u, -1);
    if (params.bottom() > c.bottom()) break;
    const auto pf = state_.parameterSlots(rank, u, time_);
    const auto gf = state_.gradientSlots(rank, u, time_);
    const double gh = std::max(3.0, params.height() * 0.35);
    for (int j = 0; j < n; ++j) {
      const QRectF slot = slotRect(rank, u, j);
      const double f = pf[static_cast<std::size_t>(j)];
      if (f > 0) {
        // Filled in the category's colour, as in the memory bar and the legend: the unit is
        // named above its slots, so its identity needs no colour of its own.
        p.setPen(Qt::NoPen);
        p.setBrush(Palette::category(state_.slotCategory(rank, u, j, time_)));
        p.drawRect(QRectF(slot.left(), slot.bottom() - slot.height() * f, slot.width(), slot.height() * f));
      }
      const double g = gf[static_cast<std::size_t>(j)];
      if (g > 0) {
        p.setPen(Qt::NoPen);
        p.setBrush(Palette::category(st::Category::Grads));
        p.drawRect(QRectF(slot.left(), slot.bottom() + 2, slot.width() * g, gh));
      }
    }
  }
  // Slot outlines: the layer over this (paintCardOver); the OOM box: paintFailureBox.
}

void RankView::paintFailureBox(QPainter& p, int rank) {
  // Unit rows: a column too narrow for a sentence at a legible size; the title says what
  // happened, the tooltip and the caption the whole sentence.
  if (unitRows_) return;
  const int failure = failureAt(rank);

  // A hung or failed run's culprit: what happened, in the box the out-of-memory rank gets.
  const RunEnding& ending = model_.ending();
  if (ending.reached(time_) && ending.isCulprit(rank)) {
    const QString text = ending.kind == RunEnding::Kind::Hang
                             ? tr("Rank %1 %2; rank(s) %3 wait for it.", nullptr, static_cast<int>(ending.waiting.size()))
                                   .arg(rank)
                                   .arg(ending.culpritText(rank),
                                        Format::rankList(QList<int>(ending.waiting.begin(), ending.waiting.end())))
                             : tr("Rank %1 failed: %2.").arg(rank).arg(ending.culpritText(rank));
    // As tall as its words need, up to half the card; a smaller font where even that is short.
    QFont f;
    const QRectF box = failureBoxRect(rank, text, &f);
    if (box.isNull()) return;
    p.setPen(Qt::NoPen);
    p.setBrush(Palette::problem());
    p.drawRoundedRect(box, 4, 4);
    p.setPen(Qt::white);
    const QFont saved = p.font();
    p.setFont(f);
    p.drawText(box.adjusted(6, 2, -6, -2), Qt::AlignCenter | Qt::TextWordWrap, text);
    p.setFont(saved);
    return;
  }
  if (failure >= 0 && model_.event(failure).record == st::Record::OutOfMemory) {
    const QString text = outOfMemoryText(rank);
    QFont f;
    // As tall as its words need, up to half the card, in a smaller font where even that is
    // short: the whole sentence, never "…needed 129.2 KiB more while".
    const QRectF box = failureBoxRect(rank, text, &f);
    if (box.isNull()) return;
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0xD5, 0x5E, 0x00, 230));
    p.drawRoundedRect(box, 4, 4);
    p.setPen(Qt::white);
    const QFont saved = p.font();
    p.setFont(f);
    p.drawText(box.adjusted(6, 2, -6, -2), Qt::AlignCenter | Qt::TextWordWrap, text);
    p.setFont(saved);
  }
}

QString RankView::outOfMemoryText(int rank) const {
  const int failure = failureAt(rank);
  if (failure < 0 || model_.event(failure).record != st::Record::OutOfMemory) return {};
  const auto& e = model_.event(failure);
  return tr("Out of memory: %1 needed %2 more while holding %3; budget %4.")
      .arg(Format::categoryName(e.category) + (e.unit >= 0 ? tr(" of %1").arg(model_.unitName(e.unit)) : QString()),
           Format::bytes(e.bytes), Format::bytes(e.total), Format::bytes(e.value));
}

QRectF RankView::failureBoxRect(int rank, const QString& text, QFont* fitted) const {
  const QRectF c = cardRect(rank);
  if (c.isNull() || text.isEmpty()) return {};
  const double lh = QFontMetricsF(font()).height();
  const double width = c.width() - 20;
  // Under the memory bar's line of text, over the unit cells: never over the title or the bar.
  const double top = memoryBarRect(rank).bottom() + lh + 2;
  const double room = std::min(c.height() * 0.5, c.bottom() - lh * 0.4 - top);
  QFont f = font();
  double needed = 1e9;
  for (int shrink = 0; shrink < 7 && f.pointSizeF() >= 6.0; ++shrink) {
    needed = QFontMetricsF(f).boundingRect(QRectF(0, 0, width - 12, 1e6), Qt::AlignCenter | Qt::TextWordWrap, text).height() + 6;
    if (needed <= room) break;
    f.setPointSizeF(f.pointSizeF() * 0.88);
  }
  // A card too short for the sentence (four cards in a column) keeps its title's "OUT OF
  // MEMORY"; the caption under the views says the whole sentence.
  if (needed > room) return {};
  if (fitted) *fitted = f;
  return QRectF(c.left() + 10, c.bottom() - needed - lh * 0.4, width, needed);
}

void RankView::noteShown(int rank, const QString& full, const QString& shown) const {
  if (rank < 0) return;
  if (shown_.size() <= static_cast<std::size_t>(rank)) shown_.resize(static_cast<std::size_t>(rank) + 1);
  shown_[static_cast<std::size_t>(rank)].push_back({full, shown});
}

std::vector<RankView::ShownText> RankView::shownTexts(int rank) const {
  std::vector<ShownText> texts;
  if (unitRows_ && rank >= 0 && static_cast<std::size_t>(rank) < titles_.size())
    texts.push_back(titles_[static_cast<std::size_t>(rank)]);
  if (rank >= 0 && static_cast<std::size_t>(rank) < shown_.size())
    texts.insert(texts.end(), shown_[static_cast<std::size_t>(rank)].begin(), shown_[static_cast<std::size_t>(rank)].end());
  return texts;
}

QString RankView::toolTipAt(const QPointF& pos) const {
  for (int r = 0; r < static_cast<int>(cards_.size()); ++r) {
    if (!cardRect(r).contains(pos)) continue;
    QStringList lines;
    for (const ShownText& t : shownTexts(r))
      if (!lines.contains(t.full)) lines << t.full;
    if (const QString oom = outOfMemoryText(r); !oom.isEmpty()) lines << oom;
    return lines.join(QLatin1Char('\n'));
  }
  return {};
}

bool RankView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString tip = toolTipAt(help->pos());
    if (tip.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(help->globalPos(), tip, this);
    return true;
  }
  return QWidget::event(e);
}

QRectF RankView::outOfMemoryBoxRect(int rank) const { return failureBoxRect(rank, outOfMemoryText(rank), nullptr); }

bool RankView::outOfMemoryTextFits(int rank) const {
  const QString text = outOfMemoryText(rank);
  QFont f;
  const QRectF box = failureBoxRect(rank, text, &f);
  if (box.isNull()) return false;
  const QRectF room = box.adjusted(6, 2, -6, -2);
  const QRectF used = QFontMetricsF(f).boundingRect(room, Qt::AlignCenter | Qt::TextWordWrap, text);
  return used.height() <= room.height() + 0.5;
}

void RankView::paintTransfers(QPainter& p) {
  // Shards in flight between cards, placed by each collective's recorded progress.
  const int n = model_.rankCount();
  if (n < 2 || n > 16) return;
  for (int r = 0; r < n; ++r) {
    const int i = state_.runningAt(r, TraceModel::Lane::Comm, time_);
    if (i < 0) continue;
    const auto& e = model_.event(i);
    const double prog = progressOf(e, time_);
    // A shard in flight has the colour of what it becomes: gathered parameters, or gradients.
    const QColor uc = Palette::category(e.kind == st::Kind::AllGather ? st::Category::GatheredParams : st::Category::Grads);
    auto fly = [&](const QRectF& from, const QRectF& to, const QColor& color) {
      if (from.isNull() || to.isNull()) return;
      const QPointF a = from.center(), b = to.center();
      const QPointF at = a + (b - a) * prog;
      p.setPen(QPen(QColor(color.red(), color.green(), color.blue(), 70), 1, Qt::DotLine));
      p.drawLine(a, b);
      p.setPen(QPen(palette().color(QPalette::Text), 0.8));
      p.setBrush(color);
      const QSizeF sz(std::max(8.0, from.width() * 0.8), std::max(8.0, from.height() * 0.8));
      p.drawRect(QRectF(at - QPointF(sz.width() / 2, sz.height() / 2), sz));
    };
    switch (e.kind) {
    case st::Kind::AllGather:
      // Every other participant's shard travels into this rank's copy of the unit.
      if (!unitShown(r, e.unit)) break;
      for (int j = 0; j < n; ++j)
        if (j != r && (e.participants & (st::RankMask{1} << j)) && unitShown(j, e.unit))
          fly(slotRect(j, e.unit, model_.slotOf(j)), slotRect(r, e.unit, model_.slotOf(j)), uc);
      break;
    case st::Kind::ReduceScatter:
      // This rank's slice of the gradient owned by rank j travels to j.
      if (!unitShown(r, e.unit)) break;
      for (int j = 0; j < n; ++j)
        if (j != r && (e.participants & (st::RankMask{1} << j)) && unitShown(j, e.unit)) {
          const int slot = model_.slotOf(j);
          QRectF from = slotRect(r, e.unit, slot), to = slotRect(j, e.unit, slot);
          from.translate(0, from.height() * 0.7);
          to.translate(0, to.height() * 0.7);
          fly(from, to, Palette::category(st::Category::Grads));
        }
      break;
    case st::Kind::Send:
      if (e.peer >= 0 && e.peer < n) {
        const QRectF a = memoryBarRect(r), b = memoryBarRect(e.peer);
        fly(QRectF(a.center(), QSizeF(14, 10)), QRectF(b.center(), QSizeF(14, 10)), Palette::kind(st::Kind::Send));
      }
      break;
    case st::Kind::AllReduce: {
      // The buffer is summed everywhere: a ring that fills with the recorded progress.
      const QRectF c = cardRect(r);
      const double d = fontMetrics().height() * 2.0;
      const QRectF ring(c.right() - d - 8, c.top() + 6, d, d);
      p.setPen(QPen(palette().color(QPalette::Mid), 3));
      p.setBrush(Qt::NoBrush);
      p.drawEllipse(ring);
      p.setPen(QPen(Palette::kind(st::Kind::AllReduce), 4));
      p.drawArc(ring, 90 * 16, -static_cast<int>(360 * 16 * prog));
      p.setPen(palette().color(QPalette::Text));
      p.drawText(ring, Qt::AlignCenter, QStringLiteral("Σ"));
      break;
    }
    default: break;
    }
  }
}

void RankView::setAwaitingRun(bool awaiting) {
  if (awaiting == awaitingRun_) return;
  awaitingRun_ = awaiting;
  update();
}

QString RankView::emptyText() const {
  return awaitingRun_ ? tr("No run yet for this lesson: it runs once you have made your prediction (or chosen to run "
                           "without one).")
                      : tr("No run yet. Pick a lesson or run an experiment.");
}

void RankView::setLegendShown(bool shown) {
  if (legendShown_ == shown) return;
  legendShown_ = shown;
  layerKey_ = {};
  layoutCards();
  update();
}

} // namespace shardlab::app
