// DDP and FSDP as real Open MPI jobs: the same mathematics on any rank count, the
// memory each really holds, the communication each really does.
#include "RunShardlab.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

const std::vector<std::string> kTinyModel{"--layers", "2", "--hidden", "32", "--vocab", "32", "--batch", "24",
                                          "--steps", "10", "--seed", "7", "--lr", "0.01"};

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

// One rank, plain data parallel: the reference every strategy must reproduce.
const std::vector<float>& referenceParameters() {
  static std::vector<float> reference = [] {
    const auto dir = freshDir("reference");
    auto r = runShardlab(with(kTinyModel, {"--strategy", "ddp", "--ranks", "1", "--dump-params", dir + "/p.bin", "-q"}));
    EXPECT_EQ(r.status, 0) << r.err;
    return readFloats(dir + "/p.bin");
  }();
  return reference;
}

trace::Summary summaryOf(const std::string& traceFile) {
  auto r = trace::readTraceFile(traceFile);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->describe(traceFile) : "");
  return trace::summarize(r.trace);
}

} // namespace

struct Equivalence : ::testing::TestWithParam<std::tuple<std::string, std::string, int>> {};

TEST_P(Equivalence, SameParametersAsOneRankAfterTenSteps) {
  const auto& [strategy, sharding, ranks] = GetParam();
  const auto& reference = referenceParameters();
  ASSERT_FALSE(reference.empty());
  const auto dir = freshDir(strategy + sharding + std::to_string(ranks));
  auto r = runShardlab(with(kTinyModel, {"--strategy", strategy, "--sharding", sharding, "--ranks",
                                         std::to_string(ranks), "--dump-params", dir + "/p.bin", "-q"}));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto params = readFloats(dir + "/p.bin");
  ASSERT_EQ(params.size(), reference.size());
  EXPECT_LT(relativeDifference(params, reference), 2e-5);
  // And training did move them: the comparison is not between two initial states.
  const auto dir0 = freshDir("init" + strategy + sharding + std::to_string(ranks));
  auto r0 = runShardlab({"--layers", "2", "--hidden", "32", "--vocab", "32", "--batch", "24", "--steps", "1", "--seed",
                         "7", "--lr", "0.01", "--strategy", "ddp", "--ranks", "1", "--dump-params", dir0 + "/p.bin", "-q"});
  ASSERT_EQ(r0.status, 0);
  EXPECT_GT(relativeDifference(readFloats(dir0 + "/p.bin"), reference), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(
    DdpAndFsdp, Equivalence,
    ::testing::Values(std::make_tuple("ddp", "full", 2), std::make_tuple("ddp", "full", 3),
                      std::make_tuple("ddp", "full", 4), std::make_tuple("fsdp", "full", 2),
                      std::make_tuple("fsdp", "full", 3), std::make_tuple("fsdp", "full", 4),
                      std::make_tuple("fsdp", "grad-op", 2), std::make_tuple("fsdp", "grad-op", 3),
                      std::make_tuple("fsdp", "grad-op", 4)),
    [](const auto& test) {
      return std::get<0>(test.param) + (std::get<1>(test.param) == "full" ? "" : "_gradop") + "_" +
             std::to_string(std::get<2>(test.param)) + "ranks";
    });

TEST(MemoryBudget, ModelThatDoesNotFitUnderDdpFitsUnderFsdp) {
  const auto dir = freshDir("budget");
  // Default model: 140,608 parameters. DDP holds params, grads and two AdamW moments
  // in full (2.1 MiB); FSDP on 4 ranks holds a quarter of that plus one or two gathered units.
  auto ddp = runShardlab({"--strategy", "ddp", "--ranks", "4", "--steps", "3", "--memory-budget", "1.5MiB",
                          "--trace", dir + "/ddp.trace"});
  EXPECT_EQ(ddp.status, 3) << ddp.err;
  EXPECT_NE(ddp.err.find("out of memory on rank"), std::string::npos) << ddp.err;
  EXPECT_NE(ddp.err.find("budget 1.50 MiB"), std::string::npos) << ddp.err;
  auto ddpSummary = summaryOf(dir + "/ddp.trace");
  ASSERT_TRUE(ddpSummary.outOfMemory);
  EXPECT_EQ(ddpSummary.outOfMemory->budget, 1572864);
  EXPECT_GT(ddpSummary.outOfMemory->needed + ddpSummary.outOfMemory->holding, 1572864);

  auto fsdp = runShardlab({"--strategy", "fsdp", "--ranks", "4", "--steps", "3", "--memory-budget", "1.5MiB",
                           "--trace", dir + "/fsdp.trace"});
  EXPECT_EQ(fsdp.status, 0) << fsdp.err;
  auto fsdpSummary = summaryOf(dir + "/fsdp.trace");
  EXPECT_FALSE(fsdpSummary.outOfMemory);
  for (const auto& r : fsdpSummary.ranksDetail) EXPECT_LE(r.peakBytes, 1572864);
}

TEST(FsdpMemory, EachRankPersistentlyHoldsAQuarterOfDdpState) {
  const auto dir = freshDir("persistent");
  auto ddp = runShardlab({"--strategy", "ddp", "--ranks", "4", "--steps", "2", "--trace", dir + "/ddp.trace", "-q"});
  auto fsdp = runShardlab({"--strategy", "fsdp", "--ranks", "4", "--steps", "2", "--trace", dir + "/fsdp.trace", "-q"});
  ASSERT_EQ(ddp.status, 0) << ddp.err;
  ASSERT_EQ(fsdp.status, 0) << fsdp.err;
  const auto d = summaryOf(dir + "/ddp.trace"), f = summaryOf(dir + "/fsdp.trace");
  const double fullState = 140608.0 * 4 * 4; // params, grads, two moments, fp32
  EXPECT_EQ(d.ranksDetail[0].persistentBytes, static_cast<std::int64_t>(fullState));
  // FSDP: one padded quarter of each unit.
  EXPECT_NEAR(static_cast<double>(f.ranksDetail[2].persistentBytes), fullState / 4, 64.0);
  // Gathered parameters exist only under FSDP, and only inside a step.
  EXPECT_GT(f.ranksDetail[0].peakByCategory[static_cast<int>(trace::Category::GatheredParams)], 0);
  EXPECT_EQ(d.ranksDetail[0].peakByCategory[static_cast<int>(trace::Category::GatheredParams)], 0);
}

TEST(FsdpCommunication, SendsAboutOneAndAHalfTimesWhatDdpSends) {
  const auto dir = freshDir("bytes");
  auto ddp = runShardlab({"--strategy", "ddp", "--ranks", "4", "--steps", "2", "--summary-json", dir + "/d.json", "-q"});
  auto fsdp = runShardlab({"--strategy", "fsdp", "--ranks", "4", "--steps", "2", "--summary-json", dir + "/f.json", "-q"});
  ASSERT_EQ(ddp.status, 0);
  ASSERT_EQ(fsdp.status, 0);
  auto d = nlohmann::json::parse(std::ifstream(dir + "/d.json"));
  auto f = nlohmann::json::parse(std::ifstream(dir + "/f.json"));
  const double ddpWire = d["collectives"]["all_reduce"]["wire_bytes"].get<double>();
  const double fsdpWire = f["collectives"]["all_gather"]["wire_bytes"].get<double>() +
                          f["collectives"]["reduce_scatter"]["wire_bytes"].get<double>();
  EXPECT_NEAR(fsdpWire / ddpWire, 1.5, 0.01);
  // Per step and unit: two all-gathers (forward, backward) and one reduce-scatter.
  EXPECT_EQ(f["collectives"]["all_gather"]["count"], 2 * 6 * 2);
  EXPECT_EQ(f["collectives"]["reduce_scatter"]["count"], 6 * 2);
  EXPECT_EQ(d["collectives"]["all_reduce"]["count"], 6 * 2);
}

namespace {
// Does some all-gather on `rank` run while one of its forward ops computes?
bool allGatherOverlapsForward(const trace::Trace& t, int rank) {
  for (const auto& c : t.events) {
    if (c.rank != rank || c.record != trace::Record::Collective || c.kind != trace::Kind::AllGather || c.step != 1)
      continue;
    for (const auto& o : t.events)
      if (o.rank == rank && o.record == trace::Record::Op && o.kind == trace::Kind::Forward && o.t0 < c.t1 &&
          c.t0 < o.t1)
        return true;
  }
  return false;
}
} // namespace

TEST(FsdpPrefetch, AllGatherRunsWhileTheCurrentUnitComputes) {
  const auto dir = freshDir("prefetch");
  // A wide model so that each forward is long enough to overlap on 2 cores.
  const std::vector<std::string> job{"--strategy", "fsdp", "--ranks", "2", "--steps", "2", "--hidden", "256",
                                     "--batch", "512", "-q"};
  auto on = runShardlab(with(job, {"--trace", dir + "/on.trace", "--forward-prefetch"}));
  auto off = runShardlab(with(job, {"--trace", dir + "/off.trace", "--no-prefetch"}));
  ASSERT_EQ(on.status, 0) << on.err;
  ASSERT_EQ(off.status, 0) << off.err;
  auto tOn = trace::readTraceFile(dir + "/on.trace"), tOff = trace::readTraceFile(dir + "/off.trace");
  ASSERT_TRUE(tOn.ok() && tOff.ok());
  EXPECT_TRUE(allGatherOverlapsForward(tOn.trace, 0) || allGatherOverlapsForward(tOn.trace, 1));
  EXPECT_FALSE(allGatherOverlapsForward(tOff.trace, 0));
  EXPECT_FALSE(allGatherOverlapsForward(tOff.trace, 1));
  EXPECT_TRUE(tOn.trace.job->config.forwardPrefetch);
  EXPECT_FALSE(tOff.trace.job->config.forwardPrefetch);
  EXPECT_EQ(tOff.trace.job->config.backwardPrefetch, BackwardPrefetch::None);
}

TEST(Training, LossFallsAndTheSummaryHasItsContractFields) {
  const auto dir = freshDir("summary");
  auto r = runShardlab({"--strategy", "fsdp", "--ranks", "4", "--summary-json", dir + "/s.json", "--chrome-trace",
                        dir + "/c.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("ShardLab run: fsdp on 4 ranks"), std::string::npos) << r.out;
  auto s = nlohmann::json::parse(std::ifstream(dir + "/s.json"));
  for (const char* key : {"strategy", "ranks", "device", "steps", "model", "loss", "ranks_detail", "collectives"})
    EXPECT_TRUE(s.contains(key)) << key;
  EXPECT_EQ(s["ranks"], 4);
  EXPECT_EQ(s["device"], "cpu");
  EXPECT_EQ(s["model"]["parameters"], 140608);
  EXPECT_EQ(s["model"]["units"], 6);
  ASSERT_EQ(s["loss"]["per_step"].size(), 20u);
  EXPECT_LT(s["loss"]["last"].get<double>(), s["loss"]["first"].get<double>() - 1.0);
  for (const char* key : {"rank", "persistent_bytes", "peak_bytes", "peak_by_category", "compute_s", "comm_s",
                          "exposed_comm_s", "idle_s"})
    EXPECT_TRUE(s["ranks_detail"][0].contains(key)) << key;
  for (const char* kind : {"all_gather", "reduce_scatter", "all_reduce", "send", "recv"})
    for (const char* key : {"count", "bytes", "wire_bytes"}) EXPECT_TRUE(s["collectives"][kind].contains(key));
  auto chrome = nlohmann::json::parse(std::ifstream(dir + "/c.json"));
  EXPECT_GT(chrome["traceEvents"].size(), 100u);
}

TEST(Training, EventsStreamIsATraceOnStandardOutput) {
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "3", "--events", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto t = trace::readTrace(r.out);
  ASSERT_TRUE(t.ok()) << t.error->message;
  EXPECT_EQ(t.trace.job->config.strategy, StrategyKind::Ddp);
  const auto s = trace::summarize(t.trace);
  EXPECT_EQ(s.stepsCompleted, 3);
  EXPECT_TRUE(s.ranksDetail[1].finished);
  // The human summary went to stderr, not into the stream.
  EXPECT_NE(r.err.find("ShardLab run: ddp"), std::string::npos);
}
