// Views painted offscreen: they must show what the models say (pixel checks).
#include "views/CaptionBar.h"
#include "models/Format.h"
#include "views/ExperimentPanel.h"
#include "models/Captions.h"
#include "models/MemoryStateModel.h"
#include "views/Palette.h"
#include "views/PipelineView.h"
#include "views/PlotsView.h"
#include "views/RankView.h"
#include "SampleTrace.h"
#include "views/SummaryView.h"
#include "views/TimelineView.h"
#include "models/TraceModel.h"

#include "job/JobConfig.h"
#include "job/ModelShape.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <set>

using namespace shardlab::app;

namespace st = shardlab::trace;

namespace {
void load(TraceModel& m, const sample::Options& o = {}) {
  QList<QByteArray> lines;
  for (const auto& l : QByteArray::fromStdString(sample::fsdpText(o)).split('\n'))
    if (!l.isEmpty()) lines << l;
  m.appendLines(lines);
}

QImage render(QWidget& w) {
  QImage img(w.size(), QImage::Format_ARGB32);
  img.fill(Qt::magenta);
  w.render(&img);
  return img;
}

int firstOf(const TraceModel& m, st::Record rec, st::Kind kind, int rank) {
  for (int i = 0; i < m.eventCount(); ++i)
    if (m.event(i).record == rec && m.event(i).kind == kind && m.event(i).rank == rank) return i;
  return -1;
}

bool near(QColor a, QColor b, int tol = 6) {
  return std::abs(a.red() - b.red()) <= tol && std::abs(a.green() - b.green()) <= tol && std::abs(a.blue() - b.blue()) <= tol;
}
} // namespace

TEST(RankView, AssemblesTheUnitDuringAllGatherAndFreesItAfter) {
  TraceModel m;
  load(m, {4, 1, false});
  RankView v(m);
  v.resize(1200, 800);
  v.modelReset();
  const int ag = firstOf(m, st::Record::Collective, st::Kind::AllGather, 1);
  const auto& e = m.event(ag);
  const int unit = e.unit;
  // Slots are filled in the memory categories' colours (the legend's), not a colour per unit.
  const QColor own = Palette::category(st::Category::ParamShard);
  const QColor other = Palette::category(st::Category::GatheredParams);
  ASSERT_FALSE(near(own, other));
  auto pixel = [&](const QImage& img, int rank, int slot, double yFrac) {
    const QRectF s = v.slotRect(rank, unit, slot);
    return img.pixelColor(QPointF(s.center().x(), s.top() + s.height() * yFrac).toPoint());
  };
  // Before: rank 1 holds only its own shard of the unit.
  v.setTime(e.t0 - 1);
  QImage img = render(v);
  EXPECT_TRUE(near(pixel(img, 1, 1, 0.5), own)) << pixel(img, 1, 1, 0.5).name().toStdString();
  EXPECT_FALSE(near(pixel(img, 1, 2, 0.5), other));
  // Halfway through: the other shards are half assembled (filled from the bottom).
  v.setTime((e.t0 + e.t1) / 2);
  img = render(v);
  EXPECT_TRUE(near(pixel(img, 1, 2, 0.85), other)) << pixel(img, 1, 2, 0.85).name().toStdString();
  EXPECT_FALSE(near(pixel(img, 1, 2, 0.15), other));
  const auto fills = MemoryStateModel(m).parameterSlots(1, unit, (e.t0 + e.t1) / 2);
  EXPECT_NEAR(fills[2], 0.5, 0.01);
  EXPECT_DOUBLE_EQ(fills[1], 1.0);
  // After the all-gather: the full copy is there.
  v.setTime(e.t1 + 1);
  img = render(v);
  EXPECT_TRUE(near(pixel(img, 1, 2, 0.15), other));
  // After the forward computed and the trace freed the copy: only the shard again.
  // (at the next unit's forward, when no transfer is drawn over the cards)
  int fwd = -1;
  for (int i : m.lane(1, TraceModel::Lane::Compute))
    if (m.event(i).kind == st::Kind::Forward && m.event(i).unit != unit) {
      fwd = i;
      break;
    }
  ASSERT_GE(fwd, 0);
  v.setTime((m.event(fwd).t0 + m.event(fwd).t1) / 2);
  img = render(v);
  EXPECT_FALSE(near(pixel(img, 1, 2, 0.5), other));
  EXPECT_TRUE(near(pixel(img, 1, 1, 0.5), own));
}

TEST(RankView, MemoryBarIsToScale) {
  TraceModel m;
  load(m, {2, 1, false});
  RankView v(m);
  v.resize(1000, 700);
  v.modelReset();
  MemoryStateModel state(m);
  const int ag = firstOf(m, st::Record::Collective, st::Kind::AllGather, 0);
  const qint64 t = m.event(ag).t1 + 1;
  v.setTime(t);
  const QImage img = render(v);
  const QRectF bar = v.memoryBarRect(0);
  const auto mem = state.memoryAt(0, t);
  // param_shard comes first in the stack: its end is at shard/peak of the bar width.
  const double shardEnd = bar.left() + bar.width() * static_cast<double>(mem[0]) / static_cast<double>(m.peakBytes());
  const QColor c1 = img.pixelColor(QPoint(static_cast<int>(shardEnd - 3), static_cast<int>(bar.center().y())));
  const QColor c2 = img.pixelColor(QPoint(static_cast<int>(shardEnd + 3), static_cast<int>(bar.center().y())));
  EXPECT_TRUE(near(c1, Palette::category(st::Category::ParamShard))) << c1.name().toStdString();
  EXPECT_TRUE(near(c2, Palette::category(st::Category::GatheredParams))) << c2.name().toStdString();
}

TEST(RankView, ShowsOutOfMemoryOnTheRank) {
  TraceModel m;
  load(m, {2, 1, true});
  RankView v(m);
  v.resize(1000, 700);
  v.modelReset();
  v.setTime(m.endTime());
  const QImage img = render(v);
  // The failing card gets the vermillion box; the healthy one does not.
  auto vermillionIn = [&](const QRectF& r) {
    int hits = 0;
    for (int y = static_cast<int>(r.top()); y < r.bottom(); y += 3)
      for (int x = static_cast<int>(r.left()); x < r.right(); x += 3)
        if (near(img.pixelColor(x, y), QColor(0xD5, 0x5E, 0x00), 20)) ++hits;
    return hits;
  };
  EXPECT_GT(vermillionIn(v.cardRect(1)), 200);
  EXPECT_LT(vermillionIn(v.cardRect(0)), 50);
}

TEST(TimelineView, DrawsBlocksByKindAndShadesIdle) {
  TraceModel m;
  load(m, {2, 1, false});
  TimelineView v(m);
  v.resize(1600, 300);
  v.modelReset();
  v.setTime(m.startTime());
  const QImage img = render(v);
  const int fwd = firstOf(m, st::Record::Op, st::Kind::Backward, 0);
  const auto& e = m.event(fwd);
  const QRectF lane = v.laneRect(0, TraceModel::Lane::Compute);
  const int x = static_cast<int>((v.xOf(e.t0) + v.xOf(e.t1)) / 2);
  EXPECT_TRUE(near(img.pixelColor(x, static_cast<int>(lane.bottom() - 2)), Palette::kind(st::Kind::Backward)));
  const int rs = firstOf(m, st::Record::Collective, st::Kind::ReduceScatter, 0);
  const QRectF comm = v.laneRect(0, TraceModel::Lane::Comm);
  const int xr = static_cast<int>((v.xOf(m.event(rs).t0) + v.xOf(m.event(rs).t1)) / 2);
  EXPECT_TRUE(near(img.pixelColor(xr, static_cast<int>(comm.bottom() - 2)), Palette::kind(st::Kind::ReduceScatter)));
  // Idle: rank 0 has one wait_collective; the shaded pixels differ from the row background there.
  const int idle = m.lane(0, TraceModel::Lane::Idle).front();
  const int xi = static_cast<int>((v.xOf(m.event(idle).t0) + v.xOf(m.event(idle).t1)) / 2);
  const QRectF row = v.laneRect(0, TraceModel::Lane::Idle);
  const QColor bg = img.pixelColor(static_cast<int>(row.left() + 2), static_cast<int>(row.top() + 1));
  int shaded = 0;
  for (int y = static_cast<int>(row.top()); y < row.bottom(); ++y) shaded += img.pixelColor(xi, y) != bg;
  EXPECT_GT(shaded, static_cast<int>(row.height() / 2));
  // Hit testing returns the event under the mouse.
  EXPECT_EQ(v.eventAt(QPoint(x, static_cast<int>(lane.center().y()))), fwd);
  // Zoom keeps the range valid.
  v.setVisibleRange(e.t0, e.t1);
  EXPECT_EQ(v.visibleStart(), e.t0);
  EXPECT_NEAR(v.xOf(e.t0), v.laneRect(0, TraceModel::Lane::Compute).left(), 0.5);
}

TEST(Views, PaintWithoutCrashingEmptyAndFull) {
  TraceModel m;
  PipelineView pv(m);
  PlotsView plots(m);
  SummaryView sv(m);
  CaptionBar cb(m);
  RankView rv(m);
  TimelineView tv(m);
  for (QWidget* w : std::initializer_list<QWidget*>{&pv, &plots, &sv, &cb, &rv, &tv}) {
    w->resize(800, 400);
    render(*w);
  }
  load(m, {4, 2, false});
  plots.rebuild();
  sv.rebuild();
  rv.modelReset();
  tv.modelReset();
  cb.setTime(m.startTime() + 5000);
  for (QWidget* w : std::initializer_list<QWidget*>{&pv, &plots, &sv, &cb, &rv, &tv}) render(*w);
  EXPECT_TRUE(sv.toPlainText().contains(QStringLiteral("4 CPU ranks")));
  EXPECT_FALSE(cb.text().isEmpty());
}

// The ring model's figure always says it is modelled; a measurement is shown beside it
// only when there is one (docs/trace-format.md, "Bytes on the wire").
TEST(Views, SummarySaysModelledAndShowsMeasuredBesideIt) {
  const QString modelled = SummaryView::wireBytes(3000, std::nullopt);
  EXPECT_TRUE(modelled.contains(QStringLiteral("modelled"))) << modelled.toStdString();
  EXPECT_FALSE(modelled.contains(QStringLiteral("measured"))) << modelled.toStdString();
  const QString both = SummaryView::wireBytes(3000, 6000);
  EXPECT_TRUE(both.contains(QStringLiteral("modelled"))) << both.toStdString();
  EXPECT_TRUE(both.contains(QStringLiteral("measured"))) << both.toStdString();
  EXPECT_TRUE(both.contains(Format::bytes(6000))) << both.toStdString();
  TraceModel m;
  load(m, {4, 2, false}); // a trace without WIRE_BYTES: nothing measured
  const QString text = SummaryView::html(m);
  EXPECT_TRUE(text.contains(QStringLiteral("modelled")));
  EXPECT_FALSE(text.contains(QStringLiteral("modelled ·")));
}

TEST(ExperimentPanel, NamesTheRuleAndDisablesRun) {
  ExperimentPanel p;
  shardlab::JobConfig c;
  c.ranks = 3;
  c.batch = 8;
  p.setConfig(c);
  EXPECT_TRUE(p.issuesText().contains(QStringLiteral("batch: the global batch (8) must be divisible by ranks (3)")))
      << p.issuesText().toStdString();
  auto* run = p.findChild<QPushButton*>();
  ASSERT_NE(run, nullptr);
  EXPECT_FALSE(run->isEnabled());
  c.batch = 9;
  p.setConfig(c);
  EXPECT_TRUE(p.issuesText().isEmpty());
  EXPECT_TRUE(run->isEnabled());
  EXPECT_EQ(p.config().batch, 9);
  // The memory budget is read by the engine's parseBytes: units are case-sensitive.
  auto* budget = p.findChild<QLineEdit*>(QStringLiteral("memoryBudget"));
  ASSERT_NE(budget, nullptr);
  budget->setText(QStringLiteral("3mib"));
  EXPECT_TRUE(p.issuesText().contains(QStringLiteral("memory_budget: '3mib' is not a size"))) << p.issuesText().toStdString();
  EXPECT_FALSE(run->isEnabled());
  budget->setText(QStringLiteral("3MiB"));
  EXPECT_TRUE(p.issuesText().isEmpty());
  EXPECT_EQ(p.config().memoryBudget, 3 * 1024 * 1024);
  // A seed is any 64-bit unsigned integer.
  auto* seed = p.findChild<QLineEdit*>(QStringLiteral("seed"));
  ASSERT_NE(seed, nullptr);
  seed->setText(QStringLiteral("18446744073709551615"));
  EXPECT_TRUE(p.issuesText().isEmpty());
  EXPECT_EQ(p.config().seed, 18446744073709551615ULL);
  seed->setText(QStringLiteral("-1"));
  EXPECT_TRUE(p.issuesText().contains(QStringLiteral("seed: must be a non-negative integer"))) << p.issuesText().toStdString();
}

// A pipeline's fields keep what was typed when the learner switches to DDP: greyed, and
// the job gets their defaults, so the engine's only-strategy rule, which refuses another
// strategy's options given to a job, has nothing to say about the form.
TEST(ExperimentPanel, AnotherStrategysFieldsAreTheirDefaultsInTheJob) {
  ExperimentPanel p;
  shardlab::JobConfig c;
  c.strategy = shardlab::StrategyKind::Pipeline;
  c.ranks = 2;
  c.schedule = shardlab::Schedule::GPipe;
  c.microbatches = 4;
  p.setConfig(c);
  EXPECT_TRUE(p.issuesText().isEmpty()) << p.issuesText().toStdString();
  QComboBox* strategy = nullptr;
  for (auto* box : p.findChildren<QComboBox*>())
    if (box->findText(QStringLiteral("ddp")) >= 0 && box->findText(QStringLiteral("pipeline")) >= 0) strategy = box;
  ASSERT_NE(strategy, nullptr);
  strategy->setCurrentText(QStringLiteral("ddp"));
  EXPECT_TRUE(p.issuesText().isEmpty()) << p.issuesText().toStdString();
  const auto job = p.config();
  EXPECT_EQ(job.strategy, shardlab::StrategyKind::Ddp);
  EXPECT_EQ(job.microbatches, 1);
  EXPECT_EQ(job.schedule, shardlab::JobConfig{}.schedule);
  // The same options given to a ddp job directly are refused, each by name.
  shardlab::JobConfig direct = job;
  direct.microbatches = 4;
  direct.schedule = shardlab::Schedule::GPipe;
  std::set<std::string> refused;
  for (const auto& i : direct.validate())
    if (i.rule == shardlab::JobRule::OnlyStrategy) refused.insert(i.field);
  EXPECT_EQ(refused, (std::set<std::string>{"microbatches", "schedule"}));
}

TEST(ExperimentPanel, TheHostfileFieldIsTheJobsHostfileCheckedByItsRules) {
  ExperimentPanel p;
  auto* hostfile = p.findChild<QLineEdit*>(QStringLiteral("hostfile"));
  ASSERT_NE(hostfile, nullptr);
  EXPECT_TRUE(p.config().hostfile.empty());  // empty: this machine
  const QString missing = QDir::tempPath() + QStringLiteral("/shardlab-no-such-hostfile");
  hostfile->setText(missing);
  EXPECT_TRUE(p.issuesText().contains(QStringLiteral("hostfile: there is no file '%1'").arg(missing)))
      << p.issuesText().toStdString();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString file = dir.filePath(QStringLiteral("hosts"));
  {
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("# no host yet\n");
  }
  hostfile->setText(file);
  EXPECT_TRUE(p.issuesText().contains(QStringLiteral("names no host"))) << p.issuesText().toStdString();
  {
    QFile f(file);
    ASSERT_TRUE(f.open(QIODevice::Append));
    f.write("lab-pc-01 slots=2\n");
  }
  hostfile->setText(QString());
  hostfile->setText(file);
  EXPECT_TRUE(p.issuesText().isEmpty()) << p.issuesText().toStdString();
  EXPECT_EQ(p.config().hostfile, file.toStdString());
  shardlab::JobConfig c;
  c.hostfile = "/somewhere/hosts";
  p.setConfig(c);
  EXPECT_EQ(hostfile->text(), QStringLiteral("/somewhere/hosts"));
}

namespace {
// A tensor-parallel run's memory as the engine records it (engine/strategies/TensorParallel.cpp):
// every block cut across the ranks (each rank holds 1/N of W1, b1, W2 and all of b2), the
// embedding and the output replicated; the job record's model names every unit's full size.
// Built through TraceWriter with the engine's own sizes (ModelShape), one forward op after.
std::string tensorParallelText(int ranks) {
  shardlab::JobConfig job;
  job.strategy = shardlab::StrategyKind::Tp;
  job.ranks = ranks;
  job.hidden = 64;
  job.steps = 1;
  const shardlab::ModelShape shape = job.shape();
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* f = open_memstream(&buf, &size);
  st::TraceWriter w(f, job.unitNames());
  w.writeHeader();
  nlohmann::json record = job.toJson();
  record["model"] = job.modelJson();
  w.writeJob(record);
  for (int r = 0; r < ranks; ++r)
    w.writeRank(r, {{"host", "localhost"}, {"device", "cpu"}, {"device_name", "CPU rank (Open MPI, shared memory)"}, {"pid", 100 + r}});
  for (int r = 0; r < ranks; ++r) {
    std::int64_t t = 1000, total = 0;
    std::int64_t cat[st::kCategoryCount] = {};
    for (int u = 0; u < shape.unitCount(); ++u) {
      const bool block = shape.kindOf(u) == shardlab::UnitKind::Block;
      const auto n = block ? shape.unitSize(u, 4 * job.hidden / ranks) : shape.unitSize(u);
      for (st::Category c : {st::Category::ParamReplica, st::Category::Grads}) {
        st::Event e;
        e.record = st::Record::Memory;
        e.rank = r;
        e.t0 = e.t1 = t++;
        e.category = c;
        e.unit = u;
        e.bytes = static_cast<std::int64_t>(n) * 4;
        cat[static_cast<int>(c)] += e.bytes;
        total += e.bytes;
        e.value = cat[static_cast<int>(c)];
        e.total = total;
        w.write(e);
      }
    }
    st::Event op;
    op.record = st::Record::Op;
    op.kind = st::Kind::Forward;
    op.rank = r;
    op.unit = 0;
    op.step = 0;
    op.t0 = t;
    op.t1 = t + 10000;
    w.write(op);
  }
  w.flush();
  std::fclose(f);
  std::string text(buf, size);
  std::free(buf);
  return text;
}
} // namespace

// gui-walk-3 #3: the tensor-parallel cards filled every slot of every block on both ranks,
// while each rank's records hold half a block. A block is drawn as the share its records
// hold (half, in the rank's own slot); the replicated embedding and output stay whole.
TEST(RankView, TensorParallelRanksHoldTheirShareOfEachBlock) {
  TraceModel m;
  m.setTrace(st::readTrace(tensorParallelText(2)).trace);
  ASSERT_EQ(m.rankCount(), 2);
  ASSERT_EQ(m.slotCount(), 2);
  MemoryStateModel state(m);
  const qint64 t = m.endTime();
  const int last = m.unitCount() - 1;
  for (int rank = 0; rank < 2; ++rank) {
    const int own = m.slotOf(rank), other = 1 - own;
    for (int unit = 1; unit < last; ++unit) { // the blocks
      const auto params = state.parameterSlots(rank, unit, t);
      EXPECT_DOUBLE_EQ(params[static_cast<std::size_t>(own)], 1.0) << "rank " << rank << " unit " << unit;
      // b2 is whole on every rank: a sliver of the other half, well under 1 % of a slot.
      EXPECT_LT(params[static_cast<std::size_t>(other)], 0.01) << "rank " << rank << " unit " << unit;
      const auto grads = state.gradientSlots(rank, unit, t);
      EXPECT_DOUBLE_EQ(grads[static_cast<std::size_t>(own)], 1.0);
      EXPECT_LT(grads[static_cast<std::size_t>(other)], 0.01);
      EXPECT_EQ(state.slotCategory(rank, unit, own, t), st::Category::ParamReplica);
    }
    for (int unit : {0, last}) { // embedding, output: replicated
      const auto params = state.parameterSlots(rank, unit, t);
      EXPECT_DOUBLE_EQ(params[0], 1.0) << "rank " << rank << " unit " << unit;
      EXPECT_DOUBLE_EQ(params[1], 1.0) << "rank " << rank << " unit " << unit;
    }
  }
  // Painted: the other rank's half of block0 stays empty on rank 0's card.
  RankView v(m);
  v.resize(1200, 800);
  v.modelReset();
  v.setTime(t);
  const QImage img = render(v);
  auto filled = [&](const QRectF& r) {
    int hits = 0, all = 0;
    for (int y = static_cast<int>(r.top()) + 3; y < r.bottom() - 3; y += 2)
      for (int x = static_cast<int>(r.left()) + 3; x < r.right() - 3; x += 2, ++all)
        if (near(img.pixelColor(x, y), Palette::category(st::Category::ParamReplica), 12)) ++hits;
    return all > 0 ? static_cast<double>(hits) / all : 0.0;
  };
  EXPECT_GT(filled(v.slotRect(0, 1, 0)), 0.8) << "rank 0's own half of block0";
  EXPECT_LT(filled(v.slotRect(0, 1, 1)), 0.05) << "rank 1's half of block0 is not on rank 0";
  EXPECT_GT(filled(v.slotRect(1, 1, 1)), 0.8);
  EXPECT_LT(filled(v.slotRect(1, 1, 0)), 0.05);
  EXPECT_GT(filled(v.slotRect(0, 0, 1)), 0.8) << "the embedding is replicated";
}

// gui-walk-3 #4: the out-of-memory box cut its sentence ("…needed 129.2 KiB more while") in
// a card of the Both runs tab (four cards in half the window). It is as tall as its words need.
TEST(RankView, TheOutOfMemoryBoxHoldsItsWholeSentence) {
  TraceModel m;
  load(m, {4, 1, true});
  RankView v(m);
  v.resize(640, 420); // a run's half of the Both runs tab at 1600x1000: four cards of about 310x200
  v.setLegendShown(false);
  v.modelReset();
  v.setTime(m.endTime());
  render(v);
  ASSERT_FALSE(v.outOfMemoryText(1).isEmpty());
  EXPECT_TRUE(v.outOfMemoryText(0).isEmpty());
  EXPECT_TRUE(v.outOfMemoryTextFits(1)) << v.outOfMemoryText(1).toStdString();
  EXPECT_LE(v.outOfMemoryBoxRect(1).bottom(), v.cardRect(1).bottom());
  EXPECT_GE(v.outOfMemoryBoxRect(1).top(), v.memoryBarRect(1).bottom()) << "under the memory bar";
}
