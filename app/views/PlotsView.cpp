#include "views/PlotsView.h"

#include "models/Format.h"
#include "models/Captions.h"
#include "views/Palette.h"

#include <QComboBox>
#include <QHeaderView>
#include <QLocale>
#include <QTableWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <map>

namespace shardlab::app {

namespace st = shardlab::trace;

PlotsView::PlotsView(const TraceModel& model, QWidget* parent) : QWidget(parent), model_(model) {
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  tabs_ = new QTabWidget(this);
  l->addWidget(tabs_);
  auto* memPage = new QWidget(this);
  auto* ml = new QVBoxLayout(memPage);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Rank:"), memPage));
  rank_ = new QComboBox(memPage);
  row->addWidget(rank_);
  row->addStretch();
  ml->addLayout(row);
  memory_ = new QCustomPlot(memPage);
  ml->addWidget(memory_, 1);
  tabs_->addTab(memPage, tr("Memory over time"));
  loss_ = new QCustomPlot(this);
  tabs_->addTab(loss_, tr("Loss per step"));
  bytes_ = new QCustomPlot(this);
  tabs_->addTab(bytes_, tr("Bytes per step"));
  comparePage_ = new QWidget(this);
  auto* pageLayout = new QVBoxLayout(comparePage_);
  pageLayout->setContentsMargins(0, 0, 0, 0);
  // The whole table and a chart of a usable height on any screen: where the page is shorter
  // than both (1280x720, presenting, the timeline below), it scrolls rather than squashing
  // the chart into a strip.
  compareScroll_ = new QScrollArea(comparePage_);
  compareScroll_->setObjectName(QStringLiteral("compareScroll"));
  compareScroll_->setWidgetResizable(true);
  compareScroll_->setFrameShape(QFrame::NoFrame);
  compareScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  pageLayout->addWidget(compareScroll_);
  auto* content = new QWidget(compareScroll_);
  compareScroll_->setWidget(content);
  auto* cl = new QVBoxLayout(content);
  compareTable_ = new QTableWidget(content);
  compareTable_->setObjectName(QStringLiteral("compareTable"));
  compareTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  compareTable_->setSelectionMode(QAbstractItemView::NoSelection);
  compareTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  compareTable_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  cl->addWidget(compareTable_);
  compare_ = new QCustomPlot(content);
  // The legend in a row under the chart, so it never hides a bar or the budget line.
  auto* legendRow = new QCPLayoutGrid;
  compare_->plotLayout()->addElement(1, 0, legendRow);
  legendRow->setMargins(QMargins(5, 0, 5, 5));
  legendRow->addElement(0, 0, compare_->legend);
  compare_->plotLayout()->setRowStretchFactor(1, 0.001);
  cl->addWidget(compare_, 1);
  // Without a second run the page says so, rather than an empty chart whose axes collapse.
  compareEmpty_ = new QLabel(content);
  compareEmpty_->setObjectName(QStringLiteral("compareEmpty"));
  compareEmpty_->setAlignment(Qt::AlignCenter);
  compareEmpty_->setWordWrap(true);
  compareEmpty_->setForegroundRole(QPalette::PlaceholderText);
  cl->addWidget(compareEmpty_, 1);
  tabs_->addTab(comparePage_, tr("Compare runs"));
  connect(rank_, &QComboBox::currentIndexChanged, this, [this] { buildMemory(); });
  for (auto* p : {memory_, loss_, bytes_, compare_}) p->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

void PlotsView::setComparison(const TraceModel* other, const QString& a, const QString& b) {
  other_ = other;
  labelA_ = a;
  labelB_ = b;
  buildCompare();
}

void PlotsView::styleplot(QCustomPlot* plot) {
  const QPalette pal = palette();
  plot->setBackground(pal.color(QPalette::Base));
  for (auto* axis : {plot->xAxis, plot->yAxis}) {
    axis->setBasePen(QPen(pal.color(QPalette::Text)));
    axis->setTickPen(QPen(pal.color(QPalette::Text)));
    axis->setSubTickPen(QPen(pal.color(QPalette::Text)));
    axis->setTickLabelColor(pal.color(QPalette::Text));
    axis->setLabelColor(pal.color(QPalette::Text));
    axis->grid()->setPen(QPen(pal.color(QPalette::Mid), 0, Qt::DotLine));
    axis->setTickLabelFont(font());
    axis->setLabelFont(font());
  }
  plot->legend->setBrush(pal.color(QPalette::Base));
  plot->legend->setTextColor(pal.color(QPalette::Text));
  plot->legend->setFont(font());
}

void PlotsView::rebuild() {
  const int keep = rank_->currentIndex();
  rank_->blockSignals(true);
  rank_->clear();
  for (int r = 0; r < model_.rankCount(); ++r) rank_->addItem(model_.rankLabel(r));
  rank_->setCurrentIndex(std::clamp(keep, 0, std::max(0, model_.rankCount() - 1)));
  rank_->blockSignals(false);
  buildMemory();
  buildLoss();
  buildBytes();
  buildCompare();
}

void PlotsView::setTime(qint64 t) {
  time_ = t;
  if (memory_->itemCount() > 0) {
    if (auto* line = qobject_cast<QCPItemStraightLine*>(memory_->item(0))) {
      const double x = static_cast<double>(t - model_.startTime()) * 1e-6;
      line->point1->setCoords(x, 0);
      line->point2->setCoords(x, 1);
      if (memory_->isVisible()) memory_->replot(QCustomPlot::rpQueuedReplot);
    }
  }
}

void PlotsView::buildMemory() {
  memory_->clearPlottables();
  memory_->clearItems();
  styleplot(memory_);
  const int rank = rank_->currentIndex();
  const auto& recs = model_.memoryRecords(rank);
  // Stacked areas: graph k is the sum of categories 0..k; each fills down to k-1.
  std::array<qint64, st::kCategoryCount> cur{};
  std::vector<std::array<double, st::kCategoryCount>> ys;
  QVector<double> xs;
  for (int i : recs) {
    const auto& e = model_.event(i);
    const auto c = static_cast<std::size_t>(e.category);
    if (c < cur.size()) cur[c] = e.value;
    std::array<double, st::kCategoryCount> y{};
    double acc = 0;
    for (std::size_t k = 0; k < cur.size(); ++k) y[k] = (acc += static_cast<double>(cur[k]) / (1024.0 * 1024.0));
    xs << static_cast<double>(e.t0 - model_.startTime()) * 1e-6;
    ys.push_back(y);
  }
  QCPGraph* below = nullptr;
  for (int k = 0; k < st::kCategoryCount; ++k) {
    // An imported run's memory is all in Unknown, a ShardLab run's never is: one legend each.
    if ((static_cast<st::Category>(k) == st::Category::Unknown) != model_.imported()) continue;
    auto* g = memory_->addGraph();
    QVector<double> y;
    y.reserve(xs.size());
    for (const auto& row : ys) y << row[static_cast<std::size_t>(k)];
    g->setData(xs, y, true);
    g->setLineStyle(QCPGraph::lsStepLeft);
    const QColor c = Palette::category(static_cast<st::Category>(k));
    g->setPen(QPen(c.darker(120)));
    g->setBrush(c);
    g->setName(Format::categoryName(static_cast<st::Category>(k)));
    if (below) g->setChannelFillGraph(below);
    below = g;
  }
  memory_->xAxis->setLabel(tr("time since start (ms)"));
  memory_->yAxis->setLabel(tr("held (MiB), stacked by category"));
  memory_->legend->setVisible(true);
  memory_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
  auto* line = new QCPItemStraightLine(memory_);
  line->setPen(QPen(palette().color(QPalette::Text), 1.5));
  memory_->rescaleAxes();
  memory_->yAxis->setRangeLower(0);
  memory_->yAxis->setRangeUpper(memory_->yAxis->range().upper * 1.25 + 1e-6);
  setTime(time_);
  memory_->replot();
}

void PlotsView::buildLoss() {
  loss_->clearPlottables();
  styleplot(loss_);
  const auto& s = model_.summary();
  QVector<double> x, y;
  for (std::size_t i = 0; i < s.lossPerStep.size(); ++i) x << static_cast<double>(i), y << s.lossPerStep[i];
  auto* g = loss_->addGraph();
  g->setData(x, y);
  g->setPen(QPen(Palette::kind(st::Kind::AllGather), 2));
  g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
  g->setName(tr("loss (this run)"));
  loss_->xAxis->setLabel(tr("step"));
  loss_->yAxis->setLabel(tr("mean loss per token"));
  loss_->rescaleAxes();
  loss_->xAxis->setRange(-0.5, std::max<double>(1.0, static_cast<double>(x.size()) - 0.5));
  loss_->replot();
}

void PlotsView::buildBytes() {
  bytes_->clearPlottables();
  styleplot(bytes_);
  // Rank 0's collectives summed per step and kind (buffer bytes as recorded).
  std::map<st::Kind, std::map<int, double>> perKind;
  int steps = 0;
  for (int i : model_.lane(0, TraceModel::Lane::Comm)) {
    const auto& e = model_.event(i);
    perKind[e.kind][e.step] += static_cast<double>(e.bytes) / 1024.0;
    steps = std::max(steps, e.step + 1);
  }
  const int kinds = static_cast<int>(perKind.size());
  int k = 0;
  for (const auto& [kind, bySteps] : perKind) {
    auto* bars = new QCPBars(bytes_->xAxis, bytes_->yAxis);
    const double width = 0.8 / std::max(1, kinds);
    bars->setWidth(width);
    QVector<double> x, y;
    for (const auto& [step, kib] : bySteps) x << step - 0.4 + width * (k + 0.5), y << kib;
    bars->setData(x, y);
    bars->setBrush(Palette::kind(kind));
    bars->setPen(Qt::NoPen);
    bars->setName(Format::kindName(kind));
    ++k;
  }
  bytes_->xAxis->setLabel(tr("step (rank 0)"));
  bytes_->yAxis->setLabel(tr("collective buffer bytes (KiB)"));
  bytes_->legend->setVisible(kinds > 0);
  bytes_->rescaleAxes();
  bytes_->xAxis->setRange(-0.6, std::max(1, steps) - 0.4);
  bytes_->yAxis->setRangeLower(0);
  bytes_->yAxis->setRangeUpper(bytes_->yAxis->range().upper * 1.2 + 1e-6);
  bytes_->replot();
}

void PlotsView::showComparison() { tabs_->setCurrentWidget(comparePage_); }

void PlotsView::setAwaitingRun(bool awaiting) {
  if (awaiting == awaitingRun_) return;
  awaitingRun_ = awaiting;
  buildCompare();
}

const RunFigures& PlotsView::figures(int run) {
  const TraceModel& m = run == 0 ? model_ : *other_;
  if (figuresModel_[run] != &m || figuresGeneration_[run] != m.generation()) {
    figures_[run] = runFigures(m);
    figuresModel_[run] = &m;
    figuresGeneration_[run] = m.generation();
  }
  return figures_[run];
}

void PlotsView::buildCompare() {
  compare_->clearPlottables();
  compare_->clearItems();
  styleplot(compare_);
  const bool shown = other_ && !(model_.isEmpty() && other_->isEmpty());
  compareEmpty_->setVisible(!shown);
  compare_->setVisible(shown);
  if (!shown) {
    compareTable_->clear();
    compareTable_->setRowCount(0);
    compareTable_->setColumnCount(0);
    compareTable_->hide();
    compare_->legend->setVisible(false);
    compareEmpty_->setText(awaitingRun_ ? tr("No run yet for this lesson: it runs once you have made your prediction "
                                             "(or chosen to run without one).")
                                        : tr("No comparison: run a comparison lesson or use File → Compare with trace…"));
    return;
  }
  // What the comparison lessons are about, measured, and replayed with communication free.
  const RunFigures* f[2] = {&figures(0), &figures(1)};
  const QLocale locale;
  const QString none = QStringLiteral("—");
  const auto seconds = [&](std::optional<double> s) { return s ? Format::duration(static_cast<qint64>(*s * 1e9)) : none; };
  const auto percent = [&](std::optional<double> v) { return v ? locale.toString(*v * 100.0, 'f', 1) + QStringLiteral(" %") : none; };
  const auto bytes = [&](qint64 b) { return b > 0 ? Format::bytes(b) : none; };
  struct Row {
    QString name;
    QString value[2];
  };
  std::vector<Row> rows;
  const auto add = [&](const QString& name, auto value) { rows.push_back({name, {value(*f[0]), value(*f[1])}}); };
  add(tr("Step time (steady steps, slowest rank)"), [&](const RunFigures& r) { return seconds(r.stepS > 0 ? std::optional(r.stepS) : std::nullopt); });
  add(tr("Step time, schedule alone (replay, communication free)"), [&](const RunFigures& r) { return seconds(r.scheduleAloneStepS); });
  // A run that completed no step (out of memory in step 0) has no step time to split: no figure, not 0.
  add(tr("Exposed communication (whole run, per rank)"),
      [&](const RunFigures& r) { return seconds(r.stepS > 0 ? std::optional(r.exposedCommS) : std::nullopt); });
  add(tr("Bubble, measured (share of stage time idle)"), [&](const RunFigures& r) { return percent(r.bubble); });
  add(tr("Bubble, schedule alone (replay)"), [&](const RunFigures& r) { return percent(r.scheduleAloneBubble); });
  add(tr("Peak memory (highest rank)"), [&](const RunFigures& r) {
    return r.outOfMemory ? tr("%1 — out of memory").arg(bytes(r.peakBytes)) : bytes(r.peakBytes);
  });
  // What the run that ran out of memory needed: held plus the allocation it was refused.
  if (f[0]->refusedBytes > 0 || f[1]->refusedBytes > 0)
    add(tr("Needed, refused (out of memory)"), [&](const RunFigures& r) {
      return r.refusedBytes > 0 ? tr("%1 (%2 more)").arg(bytes(r.neededBytes), bytes(r.refusedBytes)) : none;
    });
  add(tr("Persistent memory (end of the last step)"), [&](const RunFigures& r) { return bytes(r.persistentBytes); });
  add(tr("Memory budget per rank"), [&](const RunFigures& r) { return r.budgetBytes > 0 ? bytes(r.budgetBytes) : tr("none"); });
  compareTable_->clear();
  compareTable_->setColumnCount(2);
  compareTable_->setRowCount(static_cast<int>(rows.size()));
  compareTable_->setHorizontalHeaderLabels({labelA_, labelB_});
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const auto& row = rows[static_cast<std::size_t>(i)];
    compareTable_->setVerticalHeaderItem(i, new QTableWidgetItem(row.name));
    for (int run = 0; run < 2; ++run) {
      auto* item = new QTableWidgetItem(row.value[run]);
      item->setTextAlignment(Qt::AlignCenter);
      item->setToolTip(row.value[run]); // whole where a narrow column elides it
      compareTable_->setItem(i, run, item);
    }
  }
  compareTable_->show();
  // Every figure visible at once: the table is as tall as its rows, the chart takes the rest.
  compareTable_->setWordWrap(false);
  compareTable_->verticalHeader()->setDefaultSectionSize(compareTable_->fontMetrics().height() + 6);
  compareTable_->setFixedHeight(compareTable_->horizontalHeader()->sizeHint().height() +
                                compareTable_->verticalHeader()->length() + 2 * compareTable_->frameWidth() + 2);
  compareTable_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // The chart's least height: bars, the budget line with its label above them, the axes and
  // the legend's rows (two runs × peak, persistent and refused) in the font of the page.
  compare_->setMinimumHeight(kCompareChartLines * compare_->fontMetrics().height());

  // Peak and persistent memory per rank of both runs (summarize()), the budget as a line.
  const double mib = 1024.0 * 1024.0;
  const QColor colour[2] = {Palette::kind(st::Kind::AllGather), Palette::kind(st::Kind::Backward)};
  for (int run = 0; run < 2; ++run) {
    const TraceModel& m = run == 0 ? model_ : *other_;
    const auto& s = m.summary();
    const QString label = run == 0 ? labelA_ : labelB_;
    for (int persistent = 0; persistent < 2; ++persistent) {
      auto* bars = new QCPBars(compare_->xAxis, compare_->yAxis);
      bars->setWidth(0.19);
      QVector<double> x, y;
      for (const auto& r : s.ranksDetail) {
        x << r.rank - 0.3 + 0.2 * (2 * run + persistent);
        y << static_cast<double>(persistent ? r.persistentBytes : r.peakBytes) / mib;
      }
      bars->setData(x, y);
      QColor c = colour[run];
      if (persistent) c = c.lighter(150);
      bars->setBrush(c);
      bars->setPen(Qt::NoPen);
      bars->setName(persistent ? tr("%1: persistent").arg(label) : tr("%1: peak").arg(label));
    }
  }
  // An out-of-memory rank: the allocation it was refused, drawn on what it held then, so the
  // bar reaches what the rank needed (above the budget line): hatched and outlined, "needed,
  // refused", beside the solid bars of what was held.
  double top = 0;
  for (int run = 0; run < 2; ++run) {
    const TraceModel& m = run == 0 ? model_ : *other_;
    const QString label = run == 0 ? labelA_ : labelB_;
    bool named = false;
    for (const RefusedAllocation& r : refusedAllocations(m)) {
      auto* bars = new QCPBars(compare_->xAxis, compare_->yAxis);
      bars->setWidth(0.19);
      bars->setBaseValue(static_cast<double>(r.heldBytes) / mib);
      bars->setData({r.rank - 0.3 + 0.2 * (2 * run)}, {static_cast<double>(r.refusedBytes) / mib});
      bars->setPen(QPen(Palette::problem(), 1.5, Qt::DashLine));
      bars->setBrush(QBrush(Palette::problem(), Qt::BDiagPattern));
      bars->setName(tr("%1: needed, refused (out of memory)").arg(label));
      bars->setProperty("refused", true);
      if (named) bars->removeFromLegend();
      named = true;
      top = std::max(top, static_cast<double>(r.heldBytes + r.refusedBytes) / mib);
    }
  }
  for (int run = 0; run < 2; ++run) top = std::max(top, static_cast<double>(std::max(f[run]->peakBytes, f[run]->budgetBytes)) / mib);
  const qint64 budget = std::max(f[0]->budgetBytes, f[1]->budgetBytes);
  if (budget > 0) {
    const double y = static_cast<double>(budget) / mib;
    auto* line = new QCPItemStraightLine(compare_);
    line->point1->setCoords(0, y);
    line->point2->setCoords(1, y);
    line->setPen(QPen(Palette::problem(), 2, Qt::DashLine));
    // At the right end, over the last rank's bars, clear of a refused allocation's bar.
    auto* text = new QCPItemText(compare_);
    text->position->setCoords(std::max(model_.rankCount(), other_->rankCount()) - 0.32, y);
    text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    text->setText(tr("memory budget %1").arg(Format::bytes(budget)));
    text->setColor(Palette::problem());
    text->setFont(font());
  }
  // One tick per rank, labelled with its number: ranks are whole.
  QSharedPointer<QCPAxisTickerFixed> rankTicks(new QCPAxisTickerFixed);
  rankTicks->setTickStep(1.0);
  rankTicks->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  compare_->xAxis->setTicker(rankTicks);
  compare_->xAxis->setSubTicks(false);
  compare_->xAxis->setNumberFormat(QStringLiteral("f"));
  compare_->xAxis->setNumberPrecision(0);
  compare_->xAxis->setLabel(tr("rank"));
  compare_->yAxis->setLabel(tr("held (MiB)"));
  compare_->legend->setVisible(true);
  compare_->legend->setWrap(4);
  compare_->legend->setFillOrder(QCPLegend::foColumnsFirst);
  compare_->xAxis->setRange(-0.7, std::max(model_.rankCount(), other_->rankCount()) - 0.3);
  compare_->yAxis->setRange(0, top * 1.25 + 1e-6); // room above the budget line for its label
  compare_->replot();
}

} // namespace shardlab::app
