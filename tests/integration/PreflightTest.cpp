// The launcher's pre-flight check (docs/architecture.md, "Failures"): a job whose ranks
// cannot fit in this machine's free memory, or too many ranks for its cores, is
// refused with exit 2 before anything starts; --force skips it. And the estimate it
// uses holds against what a real run's ranks record.
#include "RunShardlab.h"
#include "job/JobConfig.h"
#include "job/MemoryEstimate.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>

using namespace shardlab;
using namespace shardlab::testing;

// Refused before anything runs: no calibration probe (an empty cache stays empty) and no
// mpirun. How fast that is, is a benchmark figure (milliseconds), not something to assert.
TEST(Preflight, TheFiftyTerabyteModelIsRefusedBeforeAnythingRunsWithTheEstimate) {
  const auto cache = freshDir("preflight-cache");
  auto r = runShardlab({"--layers", "100000", "--hidden", "4096", "--ranks", "2"}, {{"XDG_CACHE_HOME", cache}}, 30);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_FALSE(std::filesystem::exists(cache + "/shardlab/calibration.json")) << "the calibration ran: " << r.err;
  EXPECT_NE(r.err.find("needs about"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("TiB per rank (parameters"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("free"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--force skips this check"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("mpirun"), std::string::npos) << "nothing was launched: " << r.err;
}

TEST(Preflight, ForceLaunchesWhatTheCheckWouldRefuse) {
  // A small job on a machine said to have 1 MiB free.
  const std::vector<std::pair<std::string, std::string>> tiny{{"SHARDLAB_FREE_MEMORY", "1MiB"}};
  const std::vector<std::string> job{"--strategy", "ddp", "--ranks", "2", "--steps", "2", "--quiet"};
  auto refused = runShardlab(job, tiny);
  EXPECT_EQ(refused.status, 2) << refused.err;
  EXPECT_NE(refused.err.find("this machine has 1.00 MiB free"), std::string::npos) << refused.err;
  auto forced = job;
  forced.push_back("--force");
  auto ran = runShardlab(forced, tiny);
  EXPECT_EQ(ran.status, 0) << ran.err;
}

TEST(Preflight, GpuRanksAreCheckedAgainstEachGpusFreeMemory) {
  // Two GPUs said to have 1 MiB free each (the hook stands for cudaMemGetInfo): refused
  // in the pre-flight, before the device choice, calibration or mpirun.
  const std::vector<std::string> job{"--strategy", "ddp", "--ranks", "2", "--steps", "2", "--device", "cuda", "--quiet"};
  const auto cache = freshDir("preflight-gpu-cache");
  auto r = runShardlab(job, {{"SHARDLAB_GPU_FREE_MEMORY", "1MiB,1MiB"}, {"XDG_CACHE_HOME", cache}}, 30);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_FALSE(std::filesystem::exists(cache + "/shardlab/calibration.json")) << "the calibration ran: " << r.err;
  EXPECT_NE(r.err.find("for the rank on GPU 0 (SHARDLAB_GPU_FREE_MEMORY), which has 1.00 MiB free"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("mpirun"), std::string::npos) << "nothing was launched: " << r.err;
  // Host memory is not what GPU ranks are checked against.
  auto host = runShardlab(job, {{"SHARDLAB_FREE_MEMORY", "1MiB"}, {"SHARDLAB_GPU_FREE_MEMORY", "8GiB,8GiB"}}, 120);
  EXPECT_EQ(host.err.find("this machine has 1.00 MiB free"), std::string::npos) << host.err;
}

TEST(Preflight, WithoutAVisibleGpuDeviceCudaIsRefusedByTheDeviceChoiceAsBefore) {
  if (std::getenv("SHARDLAB_GPU_FREE_MEMORY")) GTEST_SKIP() << "SHARDLAB_GPU_FREE_MEMORY is set";
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "2", "--device", "cuda", "--quiet"},
                       {{"CUDA_VISIBLE_DEVICES", "-1"}}, 120);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--device: cuda was asked for, but"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("GPU 0"), std::string::npos) << "no GPU, no GPU check: " << r.err;
}

TEST(Preflight, TooManyRanksForThisMachineNeedAHostfile) {
  const int cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  const int ranks = maxLocalRanks(cores) + 1;
  if (ranks > 64) GTEST_SKIP() << "this machine allows all 64 ranks";
  auto r = runShardlab({"--strategy", "ddp", "--ranks", std::to_string(ranks), "--batch", std::to_string(ranks * 2)});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(std::to_string(ranks) + " ranks on one machine"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--hostfile"), std::string::npos) << r.err;
}

// The estimate against the mem records of small real runs: the persistent state
// (parameters, gradients, optimizer) within 3%, the peak under the estimated total.
struct EstimateAgainstRun : ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(EstimateAgainstRun, PersistentBytesAgreeAndThePeakIsCovered) {
  const auto dir = freshDir("estimate");
  auto args = GetParam();
  args.insert(args.end(), {"--steps", "2", "--quiet", "--trace", dir + "/t.trace"});
  auto r = runShardlab(args);
  ASSERT_EQ(r.status, 0) << r.err;
  const auto t = trace::readTraceFile(dir + "/t.trace");
  ASSERT_TRUE(t.ok());
  const auto config = t.trace.config();
  ASSERT_TRUE(config);
  const MemoryEstimate e = estimateRankMemory(*config);
  const auto s = trace::summarize(t.trace);
  std::int64_t persistent = 0, peak = 0;
  for (const auto& rank : s.ranksDetail) {
    persistent = std::max(persistent, rank.persistentBytes);
    peak = std::max(peak, rank.peakBytes);
  }
  ASSERT_GT(persistent, 0);
  EXPECT_NEAR(e.persistent() / static_cast<double>(persistent), 1.0, 0.03)
      << "estimated " << e.persistent() << " B, the busiest rank held " << persistent << " B";
  EXPECT_GE(e.total(), static_cast<double>(peak) * 0.95) << "estimated total " << e.total() << ", peak " << peak;
  EXPECT_LE(e.total(), static_cast<double>(peak) * 3.0) << "estimated total " << e.total() << ", peak " << peak;
}

INSTANTIATE_TEST_SUITE_P(
    Strategies, EstimateAgainstRun,
    ::testing::Values(std::vector<std::string>{"--strategy", "ddp", "--ranks", "2"},
                      std::vector<std::string>{"--strategy", "fsdp", "--ranks", "2"},
                      std::vector<std::string>{"--strategy", "fsdp", "--sharding", "grad-op", "--ranks", "2"},
                      std::vector<std::string>{"--strategy", "tp", "--ranks", "2"},
                      std::vector<std::string>{"--strategy", "pipeline", "--ranks", "2", "--schedule", "gpipe",
                                               "--microbatches", "2"}),
    [](const auto& test) { return test.param[1] + (test.param[2] == "--sharding" ? "_grad_op" : ""); });
