#include "views/PlotsView.h"

#include "views/Palette.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <map>

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
  compare_ = new QCustomPlot(this);
  tabs_->addTab(compare_, tr("Compare runs"));
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
    auto* g = memory_->addGraph();
    QVector<double> y;
    y.reserve(xs.size());
    for (const auto& row : ys) y << row[static_cast<std::size_t>(k)];
    g->setData(xs, y, true);
    g->setLineStyle(QCPGraph::lsStepLeft);
    const QColor c = Palette::category(static_cast<st::Category>(k));
    g->setPen(QPen(c.darker(120)));
    g->setBrush(c);
    g->setName(Palette::categoryName(static_cast<st::Category>(k)));
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
    bars->setName(Palette::kindName(kind));
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

void PlotsView::buildCompare() {
  compare_->clearPlottables();
  compare_->clearItems();
  styleplot(compare_);
  if (!other_) {
    auto* text = new QCPItemText(compare_);
    text->position->setType(QCPItemPosition::ptAxisRectRatio);
    text->position->setCoords(0.5, 0.5);
    text->setText(tr("Run a comparison lesson or use File → Compare with trace…"));
    text->setColor(palette().color(QPalette::Text));
    compare_->replot();
    return;
  }
  // Peak memory per rank, both runs side by side (from summarize()).
  int i = 0;
  for (const TraceModel* m : {&model_, other_}) {
    const auto& s = m->summary();
    auto* bars = new QCPBars(compare_->xAxis, compare_->yAxis);
    bars->setWidth(0.38);
    QVector<double> x, y;
    for (const auto& r : s.ranksDetail) x << r.rank - 0.2 + 0.4 * i, y << static_cast<double>(r.peakBytes) / (1024.0 * 1024.0);
    bars->setData(x, y);
    bars->setBrush(i == 0 ? Palette::kind(st::Kind::AllGather) : Palette::kind(st::Kind::Backward));
    bars->setPen(Qt::NoPen);
    bars->setName(tr("%1: peak memory per rank (MiB)").arg(i == 0 ? labelA_ : labelB_));
    ++i;
  }
  compare_->xAxis->setLabel(tr("rank"));
  compare_->yAxis->setLabel(tr("peak held (MiB)"));
  compare_->legend->setVisible(true);
  compare_->rescaleAxes();
  compare_->xAxis->setRange(-0.7, std::max(model_.rankCount(), other_->rankCount()) - 0.3);
  compare_->yAxis->setRangeLower(0);
  compare_->yAxis->setRangeUpper(compare_->yAxis->range().upper * 1.3 + 1e-6);
  compare_->replot();
}
