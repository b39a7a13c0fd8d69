// The memory ledger on real runs (shardlab-run, Open MPI): what each rank measured
// against the Ψ arithmetic of its ZeRO stage, and the differences explained.
#include "models/JobRunner.h"
#include "models/MemoryLedger.h"
#include "models/TraceModel.h"
#include "views/LedgerView.h"

#include <QFileInfo>
#include <QSignalSpy>

#include <gtest/gtest.h>

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
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) GTEST_SKIP() << "shardlab-run not built yet";
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
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) GTEST_SKIP() << "shardlab-run not built yet";
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
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) GTEST_SKIP() << "shardlab-run not built yet";
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
