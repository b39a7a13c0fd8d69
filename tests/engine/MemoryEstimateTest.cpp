// The pre-flight estimate's arithmetic (engine/job/MemoryEstimate.h) and the
// launcher's verdict. Against the memory a real run records: tests/integration/PreflightTest.cpp.
#include "job/JobConfig.h"
#include "job/MemoryEstimate.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {
JobConfig job(StrategyKind strategy, int ranks) {
  JobConfig j;
  j.strategy = strategy;
  j.ranks = ranks;
  return j;
}
} // namespace

TEST(MemoryEstimate, DdpHoldsEverythingFourTimesAndFsdpFullAQuarterOfThat) {
  auto ddp = job(StrategyKind::Ddp, 4);
  const double p = static_cast<double>(ddp.parameterCount()) * 4;
  const auto d = estimateRankMemory(ddp);
  EXPECT_DOUBLE_EQ(d.parameters, p);
  EXPECT_DOUBLE_EQ(d.gradients, p);
  EXPECT_DOUBLE_EQ(d.optimizer, 2 * p);
  EXPECT_GT(d.activations, 0);
  EXPECT_EQ(d.gathered, 0);

  auto fsdp = job(StrategyKind::Fsdp, 4);
  const auto f = estimateRankMemory(fsdp);
  // Each unit padded to a multiple of 4, then cut in 4.
  double shards = 0;
  for (int u = 0; u < fsdp.unitCount(); ++u) shards += static_cast<double>(fsdp.shape().shardSize(u, 4));
  EXPECT_DOUBLE_EQ(f.parameters, shards * 4);
  EXPECT_DOUBLE_EQ(f.optimizer, 2 * shards * 4);
  EXPECT_GT(f.gathered, 0);
  EXPECT_NEAR(f.persistent() / d.persistent(), 0.25, 0.05);
}

// A rank of a dp replica holds what the same strategy's rank holds alone on the
// replica's share of the batch: its slice (tp) or stage (pp), batch / dp rows.
TEST(MemoryEstimate, AMeshRankHoldsWhatItsReplicaAloneWouldOnItsShareOfTheBatch) {
  for (const StrategyKind strategy : {StrategyKind::Tp, StrategyKind::Pipeline}) {
    const MeshDim inner = strategy == StrategyKind::Tp ? MeshDim::Tp : MeshDim::Pp;
    auto meshed = job(strategy, 4);
    meshed.batch = 24;
    if (strategy == StrategyKind::Pipeline) meshed.microbatches = 4; // only the pipeline has micro-batches
    meshed.mesh.dims = {{MeshDim::Dp, 2}, {inner, 2}};
    ASSERT_TRUE(meshed.validate().empty()) << meshed.validate().front().message();
    auto alone = job(strategy, 2);
    alone.batch = 12;
    if (strategy == StrategyKind::Pipeline) alone.microbatches = 4;
    const auto m = estimateRankMemory(meshed), a = estimateRankMemory(alone);
    EXPECT_DOUBLE_EQ(m.parameters, a.parameters) << name(strategy);
    EXPECT_DOUBLE_EQ(m.optimizer, a.optimizer) << name(strategy);
    EXPECT_DOUBLE_EQ(m.activations, a.activations) << name(strategy);
    // Not the whole job's ranks as the degree: 4 would halve the slice or the stage.
    EXPECT_GT(m.parameters, estimateRankMemory(job(strategy, 4)).parameters) << name(strategy);
  }
}

TEST(MemoryEstimate, TheFiftyTerabyteModelIsRefusedWithItsBreakdown) {
  JobConfig big;
  big.layers = 100000;
  big.hidden = 4096;
  big.ranks = 2;
  ASSERT_TRUE(big.validate().empty());
  const auto e = estimateRankMemory(big);
  EXPECT_GT(e.total(), 40e12); // about 13.4e12 parameters: 53.7 TB of fp32 to shard in two, times 4
  const auto why = preflightRefusal(big, {22LL << 30, 2, false});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("per rank (parameters"), std::string::npos) << *why;
  EXPECT_NE(why->find("TiB"), std::string::npos) << *why;
  EXPECT_NE(why->find("this machine has 22.0 GiB free"), std::string::npos) << *why;
  EXPECT_NE(why->find("--memory-budget simulates a smaller device"), std::string::npos) << *why;
  EXPECT_NE(why->find("--force skips this check"), std::string::npos) << *why;
}

TEST(MemoryEstimate, ABudgetIsNamedButNeverTheReasonToRefuse) {
  auto small = job(StrategyKind::Ddp, 2);
  small.memoryBudget = 1 << 20; // far below what a rank holds: the run will stop out of memory, for real
  EXPECT_FALSE(preflightRefusal(small, {8LL << 30, 2, false}));
  const auto why = preflightRefusal(small, {1 << 20, 2, false});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("--memory-budget of 1.00 MiB only simulates"), std::string::npos) << *why;
}

TEST(MemoryEstimate, EveryRankCountsOnOneMachineButOneWithAHostfile) {
  auto j = job(StrategyKind::Ddp, 4);
  const double perRank = estimateRankMemory(j).total();
  const auto between = static_cast<std::int64_t>(perRank * 2);
  EXPECT_TRUE(preflightRefusal(j, {between, 2, false}));
  EXPECT_FALSE(preflightRefusal(j, {between, 2, true}));
  EXPECT_FALSE(preflightRefusal(j, {0, 2, false})) << "unknown free memory is not checked";
}

TEST(MemoryEstimate, RanksBeyondFourPerCoreNeedAHostfile) {
  EXPECT_EQ(maxLocalRanks(1), 8);
  EXPECT_EQ(maxLocalRanks(4), 16);
  auto j = job(StrategyKind::Ddp, 16);
  const auto why = preflightRefusal(j, {64LL << 30, 2, false});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("16 ranks on one machine with 2 cores"), std::string::npos) << *why;
  EXPECT_FALSE(preflightRefusal(j, {64LL << 30, 4, false}));
  EXPECT_FALSE(preflightRefusal(j, {64LL << 30, 2, true}));
}

TEST(MemoryEstimate, SizesAreWrittenWithThreeDigits) {
  EXPECT_EQ(formatEstimate(512), "512 B");
  EXPECT_EQ(formatEstimate(3.0 * (1 << 20)), "3.00 MiB");
  EXPECT_EQ(formatEstimate(22.0 * (1LL << 30)), "22.0 GiB");
  EXPECT_EQ(formatEstimate(195.0 * (1LL << 40)), "195 TiB");
}

// The GPU half of the pre-flight check, with device-memory figures as cudaMemGetInfo
// would give them (the query itself runs only on a GPU machine: scripts/gpu-check.sh).
TEST(MemoryEstimate, EachGpuIsCheckedAgainstTheRanksItCarries) {
  auto j = job(StrategyKind::Ddp, 4);
  const auto perRank = static_cast<std::int64_t>(estimateRankMemory(j).total());
  const std::int64_t gib = 1LL << 30;
  // Four GPUs, one rank each: enough when each has one rank's estimate free.
  const std::vector<GpuMemory> four{{0, "G", perRank + 1, 80 * gib}, {1, "G", perRank + 1, 80 * gib},
                                    {2, "G", perRank + 1, 80 * gib}, {3, "G", perRank + 1, 80 * gib}};
  EXPECT_FALSE(gpuPreflightRefusal(j, four, false));
  // One of them short by a byte: that GPU is named, with what it has free.
  auto shortOne = four;
  shortOne[2].freeBytes = perRank - 1;
  const auto why = gpuPreflightRefusal(j, shortOne, false);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("per rank (parameters"), std::string::npos) << *why;
  EXPECT_NE(why->find("for the rank on GPU 2 (G), which has " + formatEstimate(static_cast<double>(perRank - 1)) +
                      " free of 80.0 GiB"),
            std::string::npos)
      << *why;
  EXPECT_NE(why->find("--force skips this check"), std::string::npos) << *why;
  // Two GPUs for four ranks: ranks 0 and 2 on GPU 0, 1 and 3 on GPU 1, so each needs two ranks' worth.
  const std::vector<GpuMemory> two{{0, "G", 2 * perRank - 1, 80 * gib}, {1, "G", 2 * perRank + 1, 80 * gib}};
  const auto shared = gpuPreflightRefusal(j, two, false);
  ASSERT_TRUE(shared);
  EXPECT_NE(shared->find("for the 2 ranks on GPU 0"), std::string::npos) << *shared;
  EXPECT_FALSE(gpuPreflightRefusal(j, {{0, "G", 2 * perRank, gib}, {1, "G", 2 * perRank, gib}}, false));
  // Three GPUs for four ranks: GPU 0 carries ranks 0 and 3, the others one each.
  EXPECT_TRUE(gpuPreflightRefusal(j, {{0, "G", perRank, gib}, {1, "G", 2 * perRank, gib}, {2, "G", 2 * perRank, gib}}, false));
  EXPECT_FALSE(gpuPreflightRefusal(j, {{0, "G", 2 * perRank, gib}, {1, "G", perRank, gib}, {2, "G", perRank, gib}}, false));
  // With a hostfile the ranks per machine are unknown: each GPU against one rank.
  EXPECT_FALSE(gpuPreflightRefusal(j, two, true));
}

TEST(MemoryEstimate, NoGpuVisibleIsNotChecked) {
  JobConfig big;
  big.layers = 100000;
  big.hidden = 4096;
  big.ranks = 2;
  EXPECT_FALSE(gpuPreflightRefusal(big, {}, false)) << "the device choice then says there is no GPU, as it always did";
  const auto why = gpuPreflightRefusal(big, {{0, "NVIDIA H200", 140LL << 30, 141LL << 30}}, false);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("TiB per rank"), std::string::npos) << *why;
  EXPECT_NE(why->find("on GPU 0 (NVIDIA H200), which has 140 GiB free of 141 GiB"), std::string::npos) << *why;
  EXPECT_NE(why->find("--memory-budget simulates a smaller device"), std::string::npos) << *why;
}

TEST(MemoryEstimate, ABudgetOnAGpuIsNamedButNeverTheReasonToRefuse) {
  auto small = job(StrategyKind::Ddp, 1);
  small.memoryBudget = 1 << 20;
  EXPECT_FALSE(gpuPreflightRefusal(small, {{0, "G", 8LL << 30, 8LL << 30}}, false));
  const auto why = gpuPreflightRefusal(small, {{0, "G", 1 << 20, 8LL << 30}}, false);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("--memory-budget of 1.00 MiB only simulates a smaller device"), std::string::npos) << *why;
}
