// The memory ledger on real runs (shardlab-run, Open MPI): what each rank measured
// against the Ψ arithmetic of its ZeRO stage, and the differences explained.
#include "window/MainWindow.h"
#include "views/WorkspacePage.h"
#include "SampleTrace.h"
#include "models/AppSettings.h"
#include "models/JobRunner.h"
#include "models/JobText.h"
#include "models/MemoryLedger.h"
#include "models/TraceModel.h"
#include "views/LedgerView.h"
#include "views/LogPane.h"
#include "views/QuizPanel.h"

#include <QApplication>
#include <QComboBox>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <gtest/gtest.h>

using namespace shardlab::app;

namespace st = shardlab::trace;

namespace {
// A real 1-step FSDP run of the default model on `ranks` ranks with this sharding.
bool run(TraceModel& model, shardlab::Sharding sharding, int ranks, int hidden = 64) {
  JobRunner runner(model);
  QSignalSpy finished(&runner, &JobRunner::finished);
  shardlab::JobConfig spec;
  spec.strategy = shardlab::StrategyKind::Fsdp;
  spec.sharding = sharding;
  spec.ranks = ranks;
  spec.hidden = hidden;
  spec.steps = 1;
  if (!runner.start(spec) || !finished.wait(240000)) return false;
  return runner.outcome() == JobRunner::Outcome::Finished;
}

const LedgerLine& line(const Ledger& l, st::Category c) {
  for (const auto& x : l.lines)
    if (x.category == c) return x;
  throw std::runtime_error("no ledger line for the category");
}
} // namespace

// Persistent bytes per rank follow the ZeRO ratios of docs/sharding.md: 16Ψ (no-shard),
// 8Ψ + 8Ψ/N (optimizer), 16Ψ/N (full), measured, and the formula column says the same.
TEST(MemoryLedger, PersistentBytesFollowTheZeroStagesOnRealRuns) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  const struct {
    shardlab::Sharding sharding;
    double psiMultiple;
  } cases[] = {{shardlab::Sharding::NoShard, 16.0}, {shardlab::Sharding::Optimizer, 10.0}, {shardlab::Sharding::Full, 4.0}};
  for (const auto& c : cases) {
    TraceModel model;
    ASSERT_TRUE(run(model, c.sharding, 4));
    const Ledger ledger = memoryLedger(model, 2);
    ASSERT_TRUE(ledger.applies);
    ASSERT_GT(ledger.psi, 0);
    EXPECT_NEAR(static_cast<double>(ledger.measuredPersistent()) / ledger.psi, c.psiMultiple, 1e-9)
        << shardlab::name(c.sharding);
    ASSERT_TRUE(ledger.formulaPersistent());
    EXPECT_NEAR(*ledger.formulaPersistent() / ledger.psi, c.psiMultiple, 1e-9);
    // The default model divides evenly by 4: nothing to explain.
    for (const auto& l : ledger.lines)
      if (l.persistent) {
        EXPECT_EQ(l.why.toStdString(), "equal") << shardlab::name(c.sharding);
      }
    // What the formula leaves out is shown as measured peaks, with a reason.
    const auto& activations = line(ledger, st::Category::Activations);
    EXPECT_FALSE(activations.persistent);
    EXPECT_GT(activations.measured, 0);
    EXPECT_FALSE(activations.formulaBytes);
    EXPECT_FALSE(activations.why.isEmpty());
  }
}

// A unit that does not divide by the ranks is padded (PyTorch's FlatParameter does the
// same): the ledger names the padding as the difference, to the byte.
TEST(MemoryLedger, PaddingIsTheDifferenceWhenUnitsDoNotDivideByTheRanks) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  TraceModel model;
  ASSERT_TRUE(run(model, shardlab::Sharding::Full, 4, 65));
  const Ledger ledger = memoryLedger(model, 0);
  const auto& params = line(ledger, st::Category::ParamShard);
  ASSERT_TRUE(params.formulaBytes);
  const double padding = static_cast<double>(params.measured) - *params.formulaBytes;
  EXPECT_GT(padding, 0);
  EXPECT_TRUE(params.why.contains(QStringLiteral("padded"))) << params.why.toStdString();
  // The view shows the stage and every part.
  const QString html = LedgerView::html(model, 0);
  EXPECT_TRUE(html.contains(QStringLiteral("FULL_SHARD (ZeRO-3)")));
  EXPECT_TRUE(html.contains(QStringLiteral("4Ψ/D")));
}

// gui-walk-3 #6 (35): the ledger of the out-of-memory lesson's DDP run said "0 B = 0.00 Ψ …
// freed after the optimizer step": the run had no step to measure at, it died of OOM. The
// ledger says how the run ended and shows what the rank held when it stopped. A real DDP run
// on 2 ranks over a budget under its 16Ψ, as in the lesson.
TEST(MemoryLedger, AnOutOfMemoryRunIsMeasuredWhenItStopped) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  TraceModel model;
  JobRunner runner(model);
  QSignalSpy finished(&runner, &JobRunner::finished);
  shardlab::JobConfig spec;
  spec.strategy = shardlab::StrategyKind::Ddp;
  spec.ranks = 2;
  spec.steps = 1;
  spec.memoryBudget = 1536 * 1024; // the lesson's 1.5 MiB, under the default model's 16Ψ (2.15 MiB)
  ASSERT_TRUE(runner.start(spec));
  ASSERT_TRUE(finished.wait(240000));
  const auto& oom = model.summary().outOfMemory;
  ASSERT_TRUE(oom.has_value()) << "the run ran out of memory";
  const int rank = oom->rank;
  const Ledger ledger = memoryLedger(model, rank);
  ASSERT_TRUE(ledger.outOfMemory.has_value());
  EXPECT_EQ(ledger.outOfMemory->reportingRank, rank);
  EXPECT_EQ(ledger.outOfMemory->step, -1) << "DDP allocates its model state before its first step";
  EXPECT_EQ(ledger.outOfMemory->needed, oom->needed);
  // What the rank held when it stopped, part by part: the oom record's holding in all.
  std::int64_t held = 0;
  for (const auto& l : ledger.lines)
    if (l.persistent) held += l.measured;
  EXPECT_EQ(held, oom->holding) << "the persistent parts are all it held";
  // DDP allocates unit by unit (parameters, gradients, both moments): what the refused
  // allocation's unit and those after it lack is named as the stop, not as "freed".
  const auto& params = line(ledger, st::Category::ParamReplica);
  EXPECT_GT(params.measured, 0);
  EXPECT_TRUE(params.why == QStringLiteral("equal") || params.why.contains(QStringLiteral("out of memory"))) << params.why.toStdString();
  for (const auto& l : ledger.lines)
    EXPECT_FALSE(l.why.contains(QStringLiteral("freed after the optimizer step"))) << l.why.toStdString();
  const auto& optimizer = line(ledger, st::Category::OptimizerState);
  EXPECT_TRUE(optimizer.why.contains(QStringLiteral("out of memory"))) << optimizer.why.toStdString();
  const QString html = LedgerView::html(model, rank);
  EXPECT_TRUE(html.contains(QStringLiteral("The run ended out of memory before its first step"))) << html.toStdString();
  EXPECT_TRUE(html.contains(QStringLiteral("when the run stopped")));
  EXPECT_FALSE(html.contains(QStringLiteral("at the end of a step")));
}

namespace {
void loadSample(TraceModel& m, int ranks) {
  sample::Options o;
  o.ranks = ranks;
  QList<QByteArray> lines;
  for (const auto& l : QByteArray::fromStdString(sample::fsdpText(o)).split('\n'))
    if (!l.isEmpty()) lines << l;
  m.appendLines(lines);
}
} // namespace

// gui-walk-3 (56): the zero-stages lesson says "open the Memory ledger tab for each" run,
// but the ledger offered run A only. With a comparison run it offers both, named by the
// lesson's run labels; each run's ranks; cleared with the comparison run.
TEST(LedgerView, OffersEachRunOfAComparisonByItsLabel) {
  TraceModel a, b;
  loadSample(a, 2);
  loadSample(b, 4);
  LedgerView view(a);
  view.show();
  auto* run = view.findChild<QComboBox*>(QStringLiteral("ledgerRun"));
  auto* rank = view.findChild<QComboBox*>(QStringLiteral("ledgerRank"));
  ASSERT_NE(run, nullptr);
  ASSERT_NE(rank, nullptr);
  view.rebuild();
  EXPECT_FALSE(run->isVisibleTo(&view)) << "one run: nothing to choose";
  EXPECT_EQ(rank->count(), 2);
  view.setComparison(&b, QStringLiteral("ZeRO-1 (optimizer state sharded)"), QStringLiteral("ZeRO-3 (FULL_SHARD)"));
  ASSERT_TRUE(run->isVisibleTo(&view));
  ASSERT_EQ(run->count(), 2);
  EXPECT_EQ(run->itemText(0), QStringLiteral("ZeRO-1 (optimizer state sharded)"));
  EXPECT_EQ(run->itemText(1), QStringLiteral("ZeRO-3 (FULL_SHARD)"));
  EXPECT_EQ(&view.shownModel(), &a);
  run->setCurrentIndex(1);
  EXPECT_TRUE(view.showsComparisonRun());
  EXPECT_EQ(&view.shownModel(), &b);
  EXPECT_EQ(rank->count(), 4) << "run B's ranks";
  rank->setCurrentIndex(3);
  EXPECT_EQ(view.rank(), 3);
  EXPECT_TRUE(view.shownHtml().contains(QStringLiteral("D = 4"))) << "the ledger of run B: " << view.shownHtml().toStdString();
  run->setCurrentIndex(0);
  EXPECT_TRUE(view.shownHtml().contains(QStringLiteral("D = 2"))) << "run A's again";
  EXPECT_EQ(rank->count(), 2);
  run->setCurrentIndex(1);
  // The comparison run is cleared (a new lesson, a free run, an opened trace): run A alone.
  b.clear();
  EXPECT_FALSE(run->isVisibleTo(&view));
  EXPECT_EQ(&view.shownModel(), &a);
  EXPECT_EQ(rank->count(), 2);
  // A new run streaming into the same model is not named by the old labels.
  loadSample(b, 4);
  view.rebuild();
  EXPECT_FALSE(run->isVisibleTo(&view));
}

// The same in the window, on the zero-stages lesson's two real runs (1 step each): the
// Memory ledger tab offers ZeRO-1 and ZeRO-3 by the lesson's labels, and each run's
// ledger gives its own persistent bytes (ZeRO-1: 8Ψ + 8Ψ/4 = 10Ψ; ZeRO-3: 16Ψ/4 = 4Ψ).
TEST(LedgerView, TheZeroStagesLessonShowsTheLedgerOfEachRun) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  QTemporaryDir dir;
  const QString lab = dir.filePath(QStringLiteral("lab.json"));
  std::ofstream(lab.toStdString()) << R"({"format": 1, "id": "ledger-test", "title": {"en": "Ledger"},
    "description": {"en": "Two short FSDP runs."},
    "steps": [{"lesson": "zero-stages", "spec": {"steps": 1}}]})";
  MainWindow w;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  w.resize(1280, 800);
  w.show();
  ASSERT_TRUE(w.openLabFile(lab)) << w.logPane()->text().toStdString();
  QSignalSpy finished(&w, &MainWindow::lessonFinished);
  ASSERT_TRUE(w.runLesson(QStringLiteral("zero-stages")));
  ASSERT_TRUE(finished.wait(240000)) << w.logPane()->text().toStdString();
  QTest::qWait(100);
  ASSERT_FALSE(w.comparisonModel().isEmpty());
  ASSERT_TRUE(w.workspace()->showView(QStringLiteral("ledger")));
  auto* ledger = w.findChild<LedgerView*>();
  ASSERT_NE(ledger, nullptr);
  auto* run = ledger->findChild<QComboBox*>(QStringLiteral("ledgerRun"));
  ASSERT_NE(run, nullptr);
  ASSERT_TRUE(run->isVisible()) << "the lesson asks for the ledger of each run";
  ASSERT_EQ(run->count(), 2);
  EXPECT_EQ(run->itemText(0), QStringLiteral("ZeRO-1 (optimizer state sharded)"));
  EXPECT_EQ(run->itemText(1), QStringLiteral("ZeRO-3 (FULL_SHARD)"));
  auto persistentPsi = [&] {
    const Ledger l = memoryLedger(ledger->shownModel(), ledger->rank());
    return static_cast<double>(l.measuredPersistent()) / l.psi;
  };
  run->setCurrentIndex(0);
  EXPECT_TRUE(ledger->shownHtml().contains(QStringLiteral("(ZeRO-1)"))) << ledger->shownHtml().toStdString();
  EXPECT_NEAR(persistentPsi(), 10.0, 1e-9);
  run->setCurrentIndex(1);
  EXPECT_TRUE(ledger->shownHtml().contains(QStringLiteral("FULL_SHARD (ZeRO-3)"))) << ledger->shownHtml().toStdString();
  EXPECT_NEAR(persistentPsi(), 4.0, 1e-9);
  // Another run drops the comparison: the ledger is run A's alone again.
  const QString file = dir.filePath(QStringLiteral("other.trace"));
  std::ofstream(file.toStdString()) << sample::fsdpText({2, 2, false});
  ASSERT_TRUE(w.openTrace(file).isEmpty());
  EXPECT_FALSE(run->isVisible());
  EXPECT_EQ(&ledger->shownModel(), &w.model());
  w.close();
}

// The job line ("DDP · 4 ranks · 4 layers × 64 · …") read "1 rangs" in French: each count
// now takes the plural form of its language (Qt's %n), Russian's three included.
TEST(JobText, EachCountTakesThePluralOfItsLanguage) {
  shardlab::JobConfig c;
  c.strategy = shardlab::StrategyKind::Ddp;
  c.ranks = 1;
  c.layers = 2;
  c.hidden = 64;
  c.batch = 32;
  c.steps = 5;
  EXPECT_EQ(describeJob(c), QStringLiteral("DDP · 1 rank · 2 layers × 64 · batch 32 · 5 steps"));
  shardlab::JobConfig p = c;
  p.strategy = shardlab::StrategyKind::Pipeline;
  p.ranks = 2;
  p.layers = 1;
  p.steps = 1;
  p.microbatches = 1;
  EXPECT_TRUE(describeJob(p).startsWith(QStringLiteral("PIPELINE · 2 ranks · 1 layer × 64 · batch 32 · 1 step · ")))
      << describeJob(p).toStdString();
  EXPECT_TRUE(describeJob(p).endsWith(QStringLiteral(", 1 micro-batch"))) << describeJob(p).toStdString();
  AppSettings::setLanguageOverride(QStringLiteral("fr"));
  ASSERT_TRUE(AppSettings::applyLanguage(*qApp));
  const QString fr = describeJob(c);
  const QString frPipeline = describeJob(p);
  AppSettings::setLanguageOverride(QStringLiteral("ru"));
  ASSERT_TRUE(AppSettings::applyLanguage(*qApp));
  const QString ru = describeJob(c);
  c.ranks = 4;
  c.layers = 5;
  c.steps = 22;
  const QString ru2 = describeJob(c);
  const QString ruPipeline = describeJob(p);
  AppSettings::setLanguageOverride(QStringLiteral("en"));
  AppSettings::applyLanguage(*qApp);
  EXPECT_EQ(fr, QStringLiteral("DDP · 1 rang · 2 couches × 64 · lot 32 · 5 pas"));
  EXPECT_TRUE(frPipeline.endsWith(QStringLiteral(", 1 micro-lot"))) << frPipeline.toStdString();
  EXPECT_EQ(ru, QStringLiteral("DDP · 1 ранг · 2 слоя × 64 · батч 32 · 5 шагов"));
  EXPECT_EQ(ru2, QStringLiteral("DDP · 4 ранга · 5 слоёв × 64 · батч 32 · 22 шага"));
  EXPECT_TRUE(ruPipeline.startsWith(QStringLiteral("PIPELINE · 2 ранга · 1 слой × 64"))) << ruPipeline.toStdString();
  EXPECT_TRUE(ruPipeline.endsWith(QStringLiteral(", 1 микробатч"))) << ruPipeline.toStdString();
}
