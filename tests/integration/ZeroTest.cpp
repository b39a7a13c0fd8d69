// FSDP's sharding strategies (ZeRO-0..3, hybrid) and prefetch modes as real Open MPI
// jobs: each gives the parameters of one rank; each holds the memory its ZeRO stage
// says, measured from the trace's mem records against the formula from the model's
// shape; hybrid runs its collectives on real sub-communicators; the limit on all-
// gathers and the backward prefetch change the peak of gathered parameters.
#include "RunShardlab.h"
#include "job/JobConfig.h"
#include "trace/Summary.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <map>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

const std::vector<std::string> kTinyModel{"--layers", "2", "--hidden", "32", "--vocab", "32", "--batch", "24",
                                          "--steps", "10", "--seed", "7", "--lr", "0.01", "-q"};

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

const std::vector<float>& referenceParameters() {
  static std::vector<float> reference = [] {
    const auto dir = freshDir("zero-reference");
    auto r = runShardlab(with(kTinyModel, {"--strategy", "ddp", "--ranks", "1", "--dump-params", dir + "/p.bin"}));
    EXPECT_EQ(r.status, 0) << r.err;
    return readFloats(dir + "/p.bin");
  }();
  return reference;
}

trace::Trace readTrace(const std::string& file) {
  auto r = trace::readTraceFile(file);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->describe(file) : "");
  return r.trace;
}

// Bytes of each category rank `rank` held when it recorded the end of its last step:
// its persistent state, read from the mem records.
std::array<std::int64_t, trace::kCategoryCount> heldAtLastStepEnd(const trace::Trace& t, int rank) {
  std::array<std::int64_t, trace::kCategoryCount> now{}, atEnd{};
  for (const auto& e : t.events) {
    if (e.rank != rank) continue;
    if (e.record == trace::Record::Memory) now[static_cast<std::size_t>(e.category)] = e.value;
    if (e.record == trace::Record::Step) atEnd = now;
  }
  return atEnd;
}

std::int64_t held(const std::array<std::int64_t, trace::kCategoryCount>& a, trace::Category c) {
  return a[static_cast<std::size_t>(c)];
}

} // namespace

// ---------------------------------------------------------------------------------
// Every sharding strategy and prefetch mode trains the same model as one rank.

struct ZeroEquivalence : ::testing::TestWithParam<std::pair<std::string, std::vector<std::string>>> {};

TEST_P(ZeroEquivalence, SameParametersAsOneRankAfterTenSteps) {
  const auto& [name, options] = GetParam();
  const auto& reference = referenceParameters();
  ASSERT_FALSE(reference.empty());
  const auto dir = freshDir("zero-" + name);
  auto r = runShardlab(with(with(kTinyModel, {"--strategy", "fsdp", "--dump-params", dir + "/p.bin"}), options));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto params = readFloats(dir + "/p.bin");
  ASSERT_EQ(params.size(), reference.size());
  EXPECT_LT(relativeDifference(params, reference), 2e-5);
}

INSTANTIATE_TEST_SUITE_P(
    ShardingAndPrefetch, ZeroEquivalence,
    ::testing::Values(
        std::pair{std::string("no_shard_3ranks"), std::vector<std::string>{"--sharding", "no-shard", "--ranks", "3"}},
        std::pair{std::string("optimizer_3ranks"), std::vector<std::string>{"--sharding", "optimizer", "--ranks", "3"}},
        std::pair{std::string("optimizer_4ranks"), std::vector<std::string>{"--sharding", "optimizer", "--ranks", "4"}},
        std::pair{std::string("hybrid_4ranks_groups_of_2"),
                  std::vector<std::string>{"--sharding", "hybrid", "--shard-group", "2", "--ranks", "4"}},
        std::pair{std::string("hybrid_2ranks_groups_of_1"),
                  std::vector<std::string>{"--sharding", "hybrid", "--shard-group", "1", "--ranks", "2"}},
        std::pair{std::string("full_backward_post_3ranks"),
                  std::vector<std::string>{"--sharding", "full", "--backward-prefetch", "post", "--ranks", "3"}},
        std::pair{std::string("full_forward_prefetch_limit_1_4ranks"),
                  std::vector<std::string>{"--sharding", "full", "--forward-prefetch", "--limit-all-gathers", "1",
                                           "--ranks", "4"}},
        std::pair{std::string("grad_op_backward_none_forward_prefetch_2ranks"),
                  std::vector<std::string>{"--sharding", "grad-op", "--backward-prefetch", "none", "--forward-prefetch",
                                           "--ranks", "2"}}),
    [](const auto& test) { return test.param.first; });

// ---------------------------------------------------------------------------------
// Persistent memory per rank follows the ZeRO stage: with Ψ parameters in fp32 and
// AdamW's two moments, parameters 4Ψ, gradients 4Ψ, optimizer state 8Ψ, each divided
// by the shard degree where the stage shards it (each unit padded to a multiple of it).

TEST(ZeroMemory, PersistentStatePerRankFollowsTheStage) {
  const auto dir = freshDir("zero-memory");
  const int N = 4;
  struct Case {
    std::string sharding;
    std::vector<std::string> extra;
    int degree;                       // ranks sharing a unit's slices
    bool paramsFull, gradsFull;       // held in full between steps
  };
  const std::vector<Case> cases{{"no-shard", {}, 1, true, true},
                                {"optimizer", {}, N, true, true},
                                {"grad-op", {}, N, false, false},
                                {"full", {}, N, false, false},
                                {"hybrid", {"--shard-group", "2"}, 2, false, false}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.sharding);
    const std::string file = dir + "/" + c.sharding + ".trace";
    auto r = runShardlab(with({"--strategy", "fsdp", "--sharding", c.sharding, "--ranks", std::to_string(N), "--steps",
                               "2", "--trace", file, "-q"},
                              c.extra));
    ASSERT_EQ(r.status, 0) << r.err;
    const auto t = readTrace(file);
    // The formula, from the model's shape as the trace's job record gives it.
    std::int64_t psi = 0, slices = 0; // parameters; sum over units of one padded slice
    for (const std::int64_t units : t.job->model.unitParameters) {
      psi += units;
      slices += (units + c.degree - 1) / c.degree;
    }
    const std::int64_t padded = slices * c.degree;
    for (int rank = 0; rank < N; ++rank) {
      const auto h = heldAtLastStepEnd(t, rank);
      const auto params = held(h, trace::Category::ParamShard) + held(h, trace::Category::ParamReplica);
      const auto grads = held(h, trace::Category::Grads) + held(h, trace::Category::GradShard);
      EXPECT_EQ(params, 4 * (c.paramsFull ? padded : slices));
      EXPECT_EQ(grads, 4 * (c.gradsFull ? padded : slices));
      EXPECT_EQ(held(h, trace::Category::OptimizerState), 8 * slices);
      EXPECT_EQ(held(h, trace::Category::GatheredParams), 0); // freed within the step
    }
    // The shape of the arithmetic: no-shard holds 16Ψ, full sharding 16Ψ/N (padding aside).
    const auto total = 4 * (c.paramsFull ? padded : slices) + 4 * (c.gradsFull ? padded : slices) + 8 * slices;
    if (c.sharding == "no-shard") {
      EXPECT_EQ(total, 16 * psi);
    }
    if (c.sharding == "full") {
      EXPECT_NEAR(static_cast<double>(total), 16.0 * static_cast<double>(psi) / N, 16.0 * 6);
    }
    EXPECT_EQ(trace::summarizeMeasured(t).ranksDetail.at(0).persistentBytes, total);
  }
}

TEST(ZeroMemory, GradOpHoldsEveryUnitsParametersFromForwardToBackward) {
  const auto dir = freshDir("zero-grad-op");
  const auto gathered = static_cast<std::size_t>(trace::Category::GatheredParams);
  auto peak = [&](const std::string& sharding) {
    const std::string file = dir + "/" + sharding + ".trace";
    auto r = runShardlab({"--strategy", "fsdp", "--sharding", sharding, "--ranks", "4", "--steps", "2", "--trace", file,
                          "-q"});
    EXPECT_EQ(r.status, 0) << r.err;
    const auto t = readTrace(file);
    std::int64_t padded = 0;
    for (const std::int64_t n : t.job->model.unitParameters) padded += (n + 3) / 4 * 4;
    return std::pair{trace::summarizeMeasured(t).ranksDetail.at(0).peakByCategory[gathered], 4 * padded};
  };
  const auto [gradOp, full4Psi] = peak("grad-op");
  const auto [full, unused] = peak("full");
  EXPECT_EQ(gradOp, full4Psi); // all units gathered at once: 4Ψ
  EXPECT_LT(full, full4Psi / 2);
}

// ---------------------------------------------------------------------------------
// Hybrid: reduce-scatters and all-gathers inside each shard group, all-reduces across
// the groups, on real sub-communicators the trace names.

TEST(ZeroHybrid, CollectivesRunOnTheShardGroupAndAcrossGroups) {
  const auto dir = freshDir("zero-hybrid");
  auto r = runShardlab({"--strategy", "fsdp", "--sharding", "hybrid", "--shard-group", "2", "--ranks", "4", "--steps",
                        "2", "--layers", "2", "--hidden", "32", "--vocab", "32", "--batch", "24", "--trace",
                        dir + "/h.trace", "--summary-json", dir + "/s.json", "-q"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto t = readTrace(dir + "/h.trace");
  std::map<std::pair<int, trace::Kind>, std::map<trace::RankMask, int>> seen; // (group, kind) -> masks
  for (const auto& e : t.events)
    if (e.record == trace::Record::Collective && e.step >= 0)
      ++seen[{static_cast<int>(e.group), e.kind}][e.participants];
  const int shard = static_cast<int>(trace::CommGroup::Shard), replicate = static_cast<int>(trace::CommGroup::Replicate);
  // Shard groups {0,1} and {2,3}; replica groups {0,2} and {1,3}.
  const std::map<trace::RankMask, int> inGroups{{0x3, 0}, {0xc, 0}}, acrossGroups{{0x5, 0}, {0xa, 0}};
  for (auto kind : {trace::Kind::AllGather, trace::Kind::ReduceScatter}) {
    const auto& masks = seen[{shard, kind}];
    ASSERT_EQ(masks.size(), 2u);
    for (const auto& [mask, count] : masks) EXPECT_TRUE(inGroups.count(mask)) << std::hex << mask;
  }
  const auto& allReduces = seen[{replicate, trace::Kind::AllReduce}];
  ASSERT_EQ(allReduces.size(), 2u);
  for (const auto& [mask, count] : allReduces) EXPECT_TRUE(acrossGroups.count(mask)) << std::hex << mask;
  // One all-reduce across groups per unit and step, on each rank; nothing on the whole world in a step.
  EXPECT_EQ(allReduces.at(0x5) + allReduces.at(0xa), 4 * 4 * 2);
  EXPECT_EQ(seen.count({static_cast<int>(trace::CommGroup::World), trace::Kind::AllGather}), 0u);
  auto s = nlohmann::json::parse(std::ifstream(dir + "/s.json"));
  EXPECT_EQ(s["sharding"]["pytorch"], "HYBRID_SHARD");
  EXPECT_EQ(s["sharding"]["shard_degree"], 2);
  EXPECT_EQ(s["sharding"]["replicas"], 2);
}

// ---------------------------------------------------------------------------------
// Prefetch modes: what they hold.

TEST(ZeroPrefetch, LimitOfOneAndBackwardPostLowerTheGatheredPeak) {
  const auto dir = freshDir("zero-limit");
  const auto gathered = static_cast<std::size_t>(trace::Category::GatheredParams);
  auto peak = [&](const std::string& name, const std::vector<std::string>& options) {
    const std::string file = dir + "/" + name + ".trace";
    auto r = runShardlab(with({"--strategy", "fsdp", "--ranks", "2", "--steps", "2", "--trace", file,
                               "--summary-json", dir + "/" + name + ".json", "-q"},
                              options));
    EXPECT_EQ(r.status, 0) << r.err;
    return trace::summarizeMeasured(readTrace(file)).ranksDetail.at(0).peakByCategory[gathered];
  };
  const auto unlimited = peak("unlimited", {"--forward-prefetch", "--backward-prefetch", "pre"});
  const auto limited = peak("limit1", {"--forward-prefetch", "--backward-prefetch", "pre", "--limit-all-gathers", "1"});
  const auto post = peak("post", {"--backward-prefetch", "post"});
  EXPECT_LT(limited, unlimited);
  EXPECT_LT(post, unlimited);
  // Limited to one, a rank never holds two units' gathered parameters: its peak is the largest unit (padded).
  const auto t = readTrace(dir + "/limit1.trace");
  std::int64_t largest = 0;
  for (const std::int64_t n : t.job->model.unitParameters) largest = std::max(largest, (n + 1) / 2 * 2 * 4);
  EXPECT_EQ(limited, largest);
  auto s = nlohmann::json::parse(std::ifstream(dir + "/limit1.json"));
  EXPECT_EQ(s["sharding"]["limit_all_gathers"], 1);
  EXPECT_EQ(s["sharding"]["zero_stage"], 3);
}

// ---------------------------------------------------------------------------------
// Bad input: exit 2, naming the option and the rule.

TEST(ZeroRules, BadShardGroupsAndLimitsAreRefusedNamingTheOption) {
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  const std::vector<Case> cases{
      {{"--sharding", "hybrid", "--shard-group", "3", "--ranks", "4"}, "--shard-group: the shard group (3 ranks)"},
      {{"--sharding", "hybrid", "--ranks", "4"}, "--shard-group: hybrid sharding needs"},
      {{"--sharding", "full", "--shard-group", "2", "--ranks", "4"}, "--shard-group: only FSDP's hybrid"},
      {{"--limit-all-gathers", "0"}, "--limit-all-gathers: must be at least 1"},
      {{"--backward-prefetch", "early"}, "--backward-prefetch: must be one of pre, post, none"},
      {{"--no-prefetch", "--forward-prefetch"}, "--no-prefetch: cannot be combined"},
  };
  for (const auto& c : cases) {
    auto r = runShardlab(with({"--strategy", "fsdp", "--check"}, c.args));
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
  }
}

namespace {
// Does an all-gather on `rank` in step 1 run while one of its backward ops computes?
bool allGatherOverlapsBackward(const trace::Trace& t, int rank) {
  for (const auto& c : t.events) {
    if (c.rank != rank || c.record != trace::Record::Collective || c.kind != trace::Kind::AllGather || c.step != 1)
      continue;
    for (const auto& o : t.events)
      if (o.rank == rank && o.record == trace::Record::Op && o.kind == trace::Kind::Backward && o.t0 < c.t1 &&
          c.t0 < o.t1)
        return true;
  }
  return false;
}
} // namespace

TEST(ZeroPrefetch, BackwardPreGathersWhileTheBackwardComputesAndNoneNever) {
  const auto dir = freshDir("zero-backward-overlap");
  // A wide model so that each backward is long enough to overlap on 2 cores.
  const std::vector<std::string> job{"--strategy", "fsdp", "--ranks", "2", "--steps", "2", "--hidden", "256",
                                     "--batch", "512", "-q"};
  auto pre = runShardlab(with(job, {"--trace", dir + "/pre.trace", "--backward-prefetch", "pre"}));
  auto none = runShardlab(with(job, {"--trace", dir + "/none.trace", "--backward-prefetch", "none"}));
  ASSERT_EQ(pre.status, 0) << pre.err;
  ASSERT_EQ(none.status, 0) << none.err;
  const auto tPre = readTrace(dir + "/pre.trace"), tNone = readTrace(dir + "/none.trace");
  EXPECT_TRUE(allGatherOverlapsBackward(tPre, 0) || allGatherOverlapsBackward(tPre, 1));
  EXPECT_FALSE(allGatherOverlapsBackward(tNone, 0));
  EXPECT_FALSE(allGatherOverlapsBackward(tNone, 1));
}
