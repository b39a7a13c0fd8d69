// The accounting on real runs of every strategy: ops never enclose a wait, and each
// rank's step time splits into compute, exposed communication, other idle and what
// no record covers (docs/trace-format.md, "The identity"). Also the launcher's
// warning when ranks outnumber the cores.
#include "PipelineSupport.h"

#include <sched.h>

#include <map>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

struct Job {
  std::string name;
  std::vector<std::string> args;
};

std::ostream& operator<<(std::ostream& o, const Job& j) { return o << j.name; }

const std::vector<Job> kJobs{
    {"ddp", {"--strategy", "ddp", "--ranks", "4"}},
    {"fsdp_full_prefetch", {"--strategy", "fsdp", "--ranks", "4", "--sharding", "full"}},
    {"fsdp_full_no_prefetch", {"--strategy", "fsdp", "--ranks", "4", "--sharding", "full", "--no-prefetch"}},
    {"fsdp_grad_op_prefetch", {"--strategy", "fsdp", "--ranks", "4", "--sharding", "grad-op"}},
    {"fsdp_grad_op_no_prefetch", {"--strategy", "fsdp", "--ranks", "4", "--sharding", "grad-op", "--no-prefetch"}},
    {"fsdp_optimizer", {"--strategy", "fsdp", "--ranks", "4", "--sharding", "optimizer"}},
    {"fsdp_hybrid_post_limit_1",
     {"--strategy", "fsdp", "--ranks", "4", "--sharding", "hybrid", "--shard-group", "2", "--backward-prefetch", "post",
      "--limit-all-gathers", "1"}},
    {"pipeline_naive", {"--strategy", "pipeline", "--ranks", "4", "--schedule", "naive", "--microbatches", "1"}},
    {"pipeline_gpipe", {"--strategy", "pipeline", "--ranks", "4", "--schedule", "gpipe", "--microbatches", "4"}},
    {"pipeline_1f1b", {"--strategy", "pipeline", "--ranks", "4", "--schedule", "1f1b", "--microbatches", "4"}},
    {"pipeline_interleaved",
     {"--strategy", "pipeline", "--ranks", "2", "--schedule", "interleaved", "--virtual-stages", "3", "--microbatches",
      "4"}},
    {"tp", {"--strategy", "tp", "--ranks", "4"}},
};

// The default model (4 blocks, hidden 64, batch 64).
trace::Trace run(const Job& job, int steps) {
  const auto dir = freshDir("accounting-" + job.name);
  auto r = runShardlab(plus(job.args, {"--steps", std::to_string(steps), "--trace", dir + "/t.trace", "-q"}));
  EXPECT_EQ(r.status, 0) << r.err;
  return readTraceOrFail(dir + "/t.trace");
}

// Runs shardlab-run on the first `cores` cores this test may use; its ranks inherit that.
RunResult runOnCores(int cores, const std::vector<std::string>& args) {
  cpu_set_t all, some;
  CPU_ZERO(&all);
  CPU_ZERO(&some);
  EXPECT_EQ(sched_getaffinity(0, sizeof all, &all), 0);
  for (int c = 0, taken = 0; c < CPU_SETSIZE && taken < cores; ++c)
    if (CPU_ISSET(c, &all)) {
      CPU_SET(c, &some);
      ++taken;
    }
  EXPECT_EQ(sched_setaffinity(0, sizeof some, &some), 0);
  auto r = runShardlab(args);
  EXPECT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
  return r;
}

} // namespace

struct accounting : ::testing::TestWithParam<Job> {};

TEST_P(accounting, NoOpEnclosesAWait) {
  const auto t = run(GetParam(), 2);
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> ops(static_cast<std::size_t>(t.rankCount()));
  for (const auto& e : t.events)
    if (e.record == trace::Record::Op) ops.at(static_cast<std::size_t>(e.rank)).emplace_back(e.t0, e.t1);
  int idles = 0;
  for (const auto& e : t.events) {
    if (e.record != trace::Record::Idle) continue;
    ++idles;
    for (const auto& [t0, t1] : ops.at(static_cast<std::size_t>(e.rank))) {
      EXPECT_FALSE(t0 <= e.t0 && e.t1 <= t1 && e.t0 < e.t1)
          << "rank " << e.rank << ": op [" << t0 << ", " << t1 << "] encloses " << toString(e.kind) << " [" << e.t0
          << ", " << e.t1 << "]";
    }
  }
  if (GetParam().name == "tp") {
    EXPECT_GT(idles, 0) << "TP's compute waits for every all-reduce";
  }
}

TEST_P(accounting, StepTimeIsComputeExposedCommOtherIdleAndUntracked) {
  const auto t = run(GetParam(), 4);
  const auto s = trace::summarize(t);
  ASSERT_EQ(s.stepsCompleted, 4);
  // Step time from the records themselves: each rank's first op, collective or idle
  // record to its last step record.
  std::map<int, std::pair<std::int64_t, std::int64_t>> span;
  for (const auto& e : t.events) {
    auto [it, fresh] = span.try_emplace(e.rank, INT64_MAX, 0);
    if (e.record == trace::Record::Op || e.record == trace::Record::Collective || e.record == trace::Record::Idle)
      it->second.first = std::min(it->second.first, e.t0);
    if (e.record == trace::Record::Step) it->second.second = std::max(it->second.second, e.t0);
  }
  for (const auto& r : s.ranksDetail) {
    SCOPED_TRACE("rank " + std::to_string(r.rank));
    const auto [first, last] = span.at(r.rank);
    EXPECT_NEAR(r.stepS, static_cast<double>(last - first) * 1e-9, 1e-9);
    // Each instant once: a term that counted a wait twice (as idle and as exposed
    // communication) or an op enclosing a wait would break the sum.
    const double parts = r.computeS + r.exposedCommS + r.otherIdleS + r.untrackedS;
    EXPECT_NEAR(parts, r.stepS, 0.05 * r.stepS)
        << "compute " << r.computeS << " exposed " << r.exposedCommS << " other idle " << r.otherIdleS
        << " untracked " << r.untrackedS;
    EXPECT_GE(r.untrackedS, 0.0);
    EXPECT_LE(r.exposedCommS, r.commS + 1e-12);
    ASSERT_TRUE(r.coreWaitS) << "this run recorded CPU times";
    EXPECT_GE(*r.coreWaitS, 0.0);
    EXPECT_LE(*r.coreWaitS, r.computeS + 1e-12);
  }
}

INSTANTIATE_TEST_SUITE_P(strategies, accounting, ::testing::ValuesIn(kJobs),
                         [](const auto& test) { return test.param.name; });

TEST(accounting_exposure, TensorParallelAllReducesAreOnTheCriticalPath) {
  const auto s = trace::summarize(run(kJobs.back(), 4));
  for (const auto& r : s.ranksDetail) {
    ASSERT_GT(r.commS, 0);
    EXPECT_GE(r.exposedCommS, 0.9 * r.commS) << "rank " << r.rank;
  }
}

TEST(accounting_exposure, DdpHidesPartOfItsAllReduceBehindTheBackward) {
  const auto s = trace::summarize(run(kJobs.front(), 4));
  double exposed = 0, comm = 0;
  for (const auto& r : s.ranksDetail) {
    exposed += r.exposedCommS;
    comm += r.commS;
  }
  EXPECT_LT(exposed, comm);
}

TEST(accounting_cores, LauncherWarnsWhenRanksOutnumberTheCores) {
  auto args = plus(kModelParallelModel, {"--strategy", "ddp", "--ranks", "2", "-q"});
  args[9] = "1";
  const auto r = runOnCores(1, args);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("warning: 2 ranks on 1 core: ranks will wait for a core, so timings of overlapping work are "
                       "distorted (4 threads"),
            std::string::npos)
      << r.err;
}

TEST(accounting_cores, OneRankOnOneCoreIsNotWarned) {
  auto args = plus(kModelParallelModel, {"--strategy", "ddp", "--ranks", "1", "-q"});
  args[9] = "1";
  const auto r = runOnCores(1, args);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("wait for a core"), std::string::npos) << r.err;
}
