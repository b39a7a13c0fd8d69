// A failed rank is reported by number and reason, the others are stopped, the job
// ends within 10 s, and the partial trace is kept and readable.
#include "RunShardlab.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace shardlab;
using namespace shardlab::testing;

struct RankFault : ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(RankFault, IsNamedStoppedAndItsPartialTraceKept) {
  const auto& [kind, reason] = GetParam();
  const auto dir = freshDir("fault-" + kind);
  auto r = runShardlab({"--strategy", "fsdp", "--ranks", "4", "--steps", "50", "--trace", dir + "/t.trace"},
                       {{"SHARDLAB_FAULT", "2:3:" + kind}}, 60);
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("rank 2 failed: " + reason), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("partial trace kept"), std::string::npos) << r.err;
  auto t = trace::readTraceFile(dir + "/t.trace");
  // A rank killed mid-write may leave its last line cut: read up to the damage.
  const auto s = trace::summarize(t.trace);
  EXPECT_GE(s.stepsCompleted, 3);
  EXPECT_LT(s.stepsCompleted, 50);
  for (const auto& rank : s.ranksDetail) EXPECT_FALSE(rank.finished) << "rank " << rank.rank;
}

INSTANTIATE_TEST_SUITE_P(Kinds, RankFault,
                         ::testing::Values(std::make_pair("kill", "killed by signal 9"),
                                           std::make_pair("segv", "killed by signal 11"),
                                           std::make_pair("exit", "exited with status 7")),
                         [](const auto& test) { return test.param.first; });

TEST(OutOfMemory, NamesTheRankWhatItNeededAndWhatItHeld) {
  const auto dir = freshDir("oom");
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--memory-budget", "1MiB", "--trace", dir + "/t.trace"});
  EXPECT_EQ(r.status, 3);
  EXPECT_TRUE(r.err.find("rank 0 failed: out of memory on rank 0: needs") != std::string::npos ||
              r.err.find("rank 1 failed: out of memory on rank 1: needs") != std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("budget 1.00 MiB, holding"), std::string::npos) << r.err;
  auto t = trace::readTraceFile(dir + "/t.trace");
  const auto s = trace::summarize(t.trace);
  ASSERT_TRUE(s.outOfMemory);
  EXPECT_EQ(s.outOfMemory->budget, 1 << 20);
  EXPECT_LE(s.outOfMemory->holding, 1 << 20);
  EXPECT_GT(s.outOfMemory->holding + s.outOfMemory->needed, 1 << 20);
}
