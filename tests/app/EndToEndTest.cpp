// End to end: a real 2-rank FSDP job through the app's launcher path (JobRunner ->
// shardlab-run --events - -> TraceModel), then the rank view at the first
// all-gather must show what the trace says. Skipped only when shardlab-run has not
// been built yet; once it exists, this test runs and can fail.
#include "models/JobRunner.h"
#include "models/MemoryStateModel.h"
#include "views/RankView.h"
#include "models/TraceModel.h"

#include <QFileInfo>
#include <QSignalSpy>

#include <gtest/gtest.h>

using namespace shardlab::app;

namespace st = shardlab::trace;

TEST(EndToEnd, RealFsdpJobThroughTheLauncher) {
  const QString launcher = JobRunner::findLauncher();
  if (!QFileInfo(launcher).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first (" << launcher.toStdString() << ")";
  TraceModel model;
  JobRunner runner(model);
  QSignalSpy finished(&runner, &JobRunner::finished);
  shardlab::JobConfig spec; // the fsdp-shard-gather-free lesson on 2 ranks
  spec.strategy = shardlab::StrategyKind::Fsdp;
  spec.ranks = 2;
  spec.steps = 2;
  ASSERT_TRUE(runner.start(spec));
  // The job goes to the launcher as a spec file, and the log shows that command line.
  EXPECT_TRUE(runner.commandLine().contains(QStringLiteral(" --spec "))) << runner.commandLine().toStdString();
  EXPECT_TRUE(runner.commandLine().contains(QStringLiteral(" --events -"))) << runner.commandLine().toStdString();
  ASSERT_TRUE(finished.wait(240000)) << runner.standardError().toStdString();
  ASSERT_EQ(runner.outcome(), JobRunner::Outcome::Finished)
      << runner.explanation().toStdString() << "\n" << runner.standardError().toStdString();
  ASSERT_GT(model.eventCount(), 0);
  EXPECT_EQ(model.rankCount(), 2);
  EXPECT_TRUE(model.runLabel().startsWith(QStringLiteral("2 CPU ranks")) ||
              model.runLabel().contains(QStringLiteral("× ")))
      << model.runLabel().toStdString();
  EXPECT_EQ(model.stepsDone(), 2);
  EXPECT_EQ(model.summary().stepsCompleted, 2);

  // The first all-gather of rank 0, from the real trace.
  int ag = -1;
  for (int i : model.lane(0, TraceModel::Lane::Comm))
    if (model.event(i).kind == st::Kind::AllGather) {
      ag = i;
      break;
    }
  ASSERT_GE(ag, 0) << "an FSDP run must all-gather";
  const auto& e = model.event(ag);
  MemoryStateModel state(model);
  const qint64 mid = (e.t0 + e.t1) / 2;
  // What the trace says rank 0 holds of that unit right before, and the slots the view draws.
  const auto before = state.parameterSlots(0, e.unit, e.t0 - 1);
  const auto during = state.parameterSlots(0, e.unit, mid);
  const double progress = static_cast<double>(mid - e.t0) / static_cast<double>(std::max<qint64>(1, e.t1 - e.t0));
  ASSERT_EQ(during.size(), 2u);
  EXPECT_DOUBLE_EQ(during[0], 1.0);                // rank 0's own shard
  EXPECT_NEAR(during[1], progress, 1e-9);          // rank 1's shard arriving with the recorded progress
  EXPECT_LT(before[1], 1.0);                       // not yet there before the all-gather
  // After the all-gather completes, the trace holds the gathered unit, and so does the view.
  const auto after = state.parameterSlots(0, e.unit, e.t1);
  const auto held = state.stateAt(0, e.t1).byUnit[e.unit][static_cast<int>(st::Category::GatheredParams)];
  if (held > 0) {
    EXPECT_DOUBLE_EQ(after[1], 1.0);
  }

  RankView view(model);
  view.resize(1000, 700);
  view.modelReset();
  view.setTime(mid);
  QImage img(view.size(), QImage::Format_ARGB32);
  view.render(&img);
  const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
  if (!out.isEmpty()) img.save(out + QStringLiteral("/e2e-first-all-gather.png"));
  EXPECT_FALSE(view.slotRect(0, e.unit, 1).isEmpty());
}

// HYBRID_SHARD on 4 ranks in shard groups of 2 (a real run): each unit has 2 owner slots
// (the shard degree, not the 4 ranks), the cards form the 2-D layout of the ranks (one
// row per shard group, one column per slice, replicas one above the other), and an
// all-gather inside a shard group fills both of the rank's slots.
TEST(EndToEnd, HybridShardingDrawsShardGroupsAsRowsAndSlicesAsColumns) {
  const QString launcher = JobRunner::findLauncher();
  if (!QFileInfo(launcher).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first (" << launcher.toStdString() << ")";
  TraceModel model;
  JobRunner runner(model);
  QSignalSpy finished(&runner, &JobRunner::finished);
  shardlab::JobConfig spec;
  spec.strategy = shardlab::StrategyKind::Fsdp;
  spec.sharding = shardlab::Sharding::Hybrid;
  spec.shardGroup = 2;
  spec.ranks = 4;
  spec.steps = 1;
  ASSERT_TRUE(runner.start(spec));
  ASSERT_TRUE(finished.wait(240000)) << runner.standardError().toStdString();
  ASSERT_EQ(runner.outcome(), JobRunner::Outcome::Finished)
      << runner.explanation().toStdString() << "\n" << runner.standardError().toStdString();
  ASSERT_EQ(model.rankCount(), 4);
  EXPECT_EQ(model.slotCount(), 2);
  EXPECT_TRUE(model.hybridGrid());
  EXPECT_EQ(model.slotOf(3), 1);

  RankView view(model);
  view.resize(1280, 800);
  view.modelReset();
  QImage img(view.size(), QImage::Format_ARGB32);
  view.render(&img);
  // Rows are shard groups: ranks 0 and 1 side by side, rank 2 under rank 0, rank 3 under rank 1.
  EXPECT_DOUBLE_EQ(view.cardRect(0).top(), view.cardRect(1).top());
  EXPECT_LT(view.cardRect(0).left(), view.cardRect(1).left());
  EXPECT_GT(view.cardRect(2).top(), view.cardRect(0).bottom());
  EXPECT_DOUBLE_EQ(view.cardRect(2).left(), view.cardRect(0).left());
  EXPECT_DOUBLE_EQ(view.cardRect(3).left(), view.cardRect(1).left());

  // Rank 2's first all-gather runs in its shard group {2, 3}: its slots are {own, rank 3's}.
  int ag = -1;
  for (int i : model.lane(2, TraceModel::Lane::Comm))
    if (model.event(i).kind == st::Kind::AllGather) {
      ag = i;
      break;
    }
  ASSERT_GE(ag, 0);
  const auto& e = model.event(ag);
  EXPECT_EQ(e.participants, st::RankMask{0b1100});
  MemoryStateModel state(model);
  const auto during = state.parameterSlots(2, e.unit, (e.t0 + e.t1) / 2);
  ASSERT_EQ(during.size(), 2u);
  EXPECT_DOUBLE_EQ(during[0], 1.0); // rank 2 owns slice 0 of its group
  EXPECT_LE(during[1], 1.0);
  const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
  if (!out.isEmpty()) img.save(out + QStringLiteral("/e2e-hybrid.png"));
}
