// The hang watchdog and the flight recorder (docs/architecture.md, "Failures"): a rank
// that never enters a collective (SHARDLAB_FAULT=RANK:STEP:hang) is named by the
// launcher from the other ranks' flight recorders, the job stops within the timeout
// plus 10 s with exit 3, and the partial trace, flight records included, is kept.
// And a straggler (slow:FACTOR, or the spec's `straggler`) makes the others wait.
#include "RunShardlab.h"
#include "trace/HangReport.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

int flightRecords(const trace::Trace& t, int rank) {
  int n = 0;
  for (const auto& e : t.events) n += e.record == trace::Record::Flight && e.rank == rank;
  return n;
}

} // namespace

TEST(Hang, TheRankThatNeverEnteredIsNamedAndTheJobStops) {
  const auto dir = freshDir("hang-fsdp");
  auto r = runShardlab({"--strategy", "fsdp", "--ranks", "4", "--steps", "50", "--collective-timeout", "5", "--trace",
                        dir + "/t.trace"},
                       {{"SHARDLAB_FAULT", "2:3:hang"}}, 60);
  EXPECT_EQ(r.status, 3) << r.err;
  // Step 3 starts with the embedding's all-gather, which rank 2 never enters.
  EXPECT_NE(r.err.find("rank 2 never entered all_gather of embedding in step 3; ranks 0, 1, 3 are waiting in it"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("collective timeout"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("partial trace kept"), std::string::npos) << r.err;

  auto t = trace::readTraceFile(dir + "/t.trace");
  EXPECT_EQ(t.trace.version, trace::kFormatVersion) << "the partial trace is one this writer writes";
  EXPECT_EQ(flightRecords(t.trace, 2), 0) << "the hung rank never timed out";
  int dumped = 0;
  for (int rank : {0, 1, 3}) dumped += flightRecords(t.trace, rank) > 0;
  EXPECT_GE(dumped, 1);
  const auto report = trace::hangReport(t.trace);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->missing, (std::vector<int>{2}));
  EXPECT_EQ(trace::summarize(t.trace).stepsCompleted, 3);
}

TEST(Hang, DdpAllReduceAndAPipelineReceiveAreNamedToo) {
  {
    auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "20", "--collective-timeout", "2", "--quiet"},
                         {{"SHARDLAB_FAULT", "1:2:hang"}}, 60);
    EXPECT_EQ(r.status, 3) << r.err;
    EXPECT_NE(r.err.find("rank 1 never entered all_reduce of output in step 2; rank 0 is waiting in it"),
              std::string::npos)
        << r.err;
  }
  {
    // Stage 1 waits for stage 0's activation, which never comes.
    auto r = runShardlab({"--strategy", "pipeline", "--ranks", "2", "--schedule", "gpipe", "--microbatches", "2",
                          "--steps", "20", "--collective-timeout", "2", "--quiet"},
                         {{"SHARDLAB_FAULT", "0:2:hang"}}, 60);
    EXPECT_EQ(r.status, 3) << r.err;
    EXPECT_NE(r.err.find("rank 1 is waiting in recv from rank 0"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("in step 2 (micro-batch 0); rank 0 never sent it"), std::string::npos) << r.err;
  }
}

TEST(Hang, ANormalRunWithAShortTimeoutFinishesWithoutAFlightRecord) {
  const auto dir = freshDir("no-hang");
  auto r = runShardlab({"--strategy", "fsdp", "--ranks", "2", "--steps", "3", "--collective-timeout", "2", "--quiet",
                        "--trace", dir + "/t.trace"});
  EXPECT_EQ(r.status, 0) << r.err;
  auto t = trace::readTraceFile(dir + "/t.trace");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(flightRecords(t.trace, 0) + flightRecords(t.trace, 1), 0);
  EXPECT_FALSE(trace::hangReport(t.trace));
}

namespace {

struct PerRank {
  double compute = 0, computeCpu = 0, waitCollective = 0; // computeCpu: the ops' CPU_NS
};

// Compute time and collective waits per rank, in steps >= fromStep.
std::map<int, PerRank> fromStep(const trace::Trace& t, int from) {
  std::map<int, PerRank> out;
  for (const auto& e : t.events) {
    if (e.step < from) continue;
    const double s = static_cast<double>(e.t1 - e.t0) * 1e-9;
    if (e.record == trace::Record::Op) {
      out[e.rank].compute += s;
      out[e.rank].computeCpu += static_cast<double>(e.cpuNs) * 1e-9;
    }
    if (e.record == trace::Record::Idle && e.kind == trace::Kind::WaitCollective) out[e.rank].waitCollective += s;
  }
  return out;
}

void expectStraggler(const trace::Trace& t, int slow, int fast, int from, double factor) {
  const auto after = fromStep(t, from);
  ASSERT_TRUE(after.count(slow) && after.count(fast));
  // Its compute is about `factor` times the other's (at least half way there), in CPU
  // time: the straggler's ops spin, so their CPU time grows with them, while on a busy
  // 2-core machine the fast rank's ops also take longer on the wall clock, waiting for a
  // core (a run beside other tests measured 2.1x in wall time for a factor of 4).
  EXPECT_GT(after.at(slow).computeCpu, after.at(fast).computeCpu * (1 + (factor - 1) / 2))
      << "CPU time: slow " << after.at(slow).computeCpu << " s, fast " << after.at(fast).computeCpu
      << " s (wall: slow " << after.at(slow).compute << " s, fast " << after.at(fast).compute << " s)";
  // The fast rank waits for it at the collectives: more than the slow one waits, and for
  // a good part of the compute time it lacks (on a loaded 2-core machine the slow rank
  // also waits, at the all-reduces whose data is the fast rank's last to send).
  EXPECT_GT(after.at(fast).waitCollective, after.at(slow).waitCollective)
      << "fast waited " << after.at(fast).waitCollective << " s, slow " << after.at(slow).waitCollective << " s";
  EXPECT_GT(after.at(fast).waitCollective, 0.3 * (after.at(slow).compute - after.at(fast).compute))
      << "fast waited " << after.at(fast).waitCollective << " s, slow " << after.at(slow).waitCollective << " s";
}

} // namespace

TEST(Straggler, ASlowRankMakesTheOtherWaitAtTheNextCollective) {
  const auto dir = freshDir("straggler-env");
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "5", "--hidden", "128", "--quiet", "--trace",
                        dir + "/t.trace"},
                       {{"SHARDLAB_FAULT", "1:1:slow:4"}});
  ASSERT_EQ(r.status, 0) << r.err;
  auto t = trace::readTraceFile(dir + "/t.trace");
  ASSERT_TRUE(t.ok());
  expectStraggler(t.trace, 1, 0, 1, 4);
}

TEST(Straggler, TheSpecKeyDoesTheSameAsTheFault) {
  const auto dir = freshDir("straggler-spec");
  std::ofstream(dir + "/spec.json") << R"({"strategy": "ddp", "ranks": 2, "steps": 5, "hidden": 128,
                                           "straggler": {"rank": 0, "factor": 4, "from_step": 1}})";
  auto r = runShardlab({"--spec", dir + "/spec.json", "--quiet", "--trace", dir + "/t.trace"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto t = trace::readTraceFile(dir + "/t.trace");
  ASSERT_TRUE(t.ok());
  ASSERT_TRUE(t.trace.config());
  ASSERT_TRUE(t.trace.config()->straggler);
  EXPECT_EQ(t.trace.config()->straggler->rank, 0);
  expectStraggler(t.trace, 0, 1, 1, 4);
}
