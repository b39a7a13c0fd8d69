// Tensor parallelism (Megatron MLP split) as real Open MPI jobs: the same
// mathematics as one rank, two all-reduces per block per step, and 1/N of every
// block's weights per rank.
#include "PipelineSupport.h"

#include <map>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

// The tiny model of PipelineSupport.h: layers 4, hidden 32, vocab 32, batch 24.
constexpr int kLayers = 4, kHidden = 32, kVocab = 32, kBatch = 24;

trace::Trace runTp(int ranks, int steps, const std::string& dir) {
  auto args = kModelParallelModel;
  args[9] = std::to_string(steps);
  auto r = runShardlab(plus(args, {"--strategy", "tp", "--ranks", std::to_string(ranks), "--trace", dir + "/t.trace",
                                   "-q"}));
  EXPECT_EQ(r.status, 0) << r.err;
  return readTraceOrFail(dir + "/t.trace");
}

} // namespace

struct tp_equivalence : ::testing::TestWithParam<int> {};

TEST_P(tp_equivalence, SameParametersAsOneRankDdpAfterTenSteps) {
  const int ranks = GetParam();
  const auto& reference = oneRankDdpParameters();
  ASSERT_FALSE(reference.empty());
  const auto dir = freshDir("tp-eq-" + std::to_string(ranks));
  auto r = runShardlab(plus(kModelParallelModel, {"--strategy", "tp", "--ranks", std::to_string(ranks),
                                                  "--dump-params", dir + "/p.bin", "-q"}));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto params = readFloats(dir + "/p.bin");
  ASSERT_EQ(params.size(), reference.size()) << "fullParameters() must reassemble the full block layout";
  EXPECT_LT(relativeDifference(params, reference), 1e-4);
  EXPECT_GT(relativeDifference(params, parametersAfterOneStep()), 1e-3);
}

INSTANTIATE_TEST_SUITE_P(degrees, tp_equivalence, ::testing::Values(2, 4),
                         [](const auto& test) { return "n" + std::to_string(test.param); });

TEST(tp_collectives, TwoAllReducesPerBlockPerStepOfTheBlocksActivation) {
  const int ranks = 2, steps = 3;
  const auto t = runTp(ranks, steps, freshDir("tp-coll"));
  const auto s = trace::summarize(t);
  ASSERT_EQ(s.stepsCompleted, steps);
  const auto coll = s.toJson()["collectives"];
  EXPECT_EQ(coll["all_reduce"]["count"].get<std::int64_t>() / steps, 2 * kLayers);
  EXPECT_DOUBLE_EQ(coll["all_reduce"]["per_step"].get<double>(), 2.0 * kLayers);
  EXPECT_EQ(coll["all_gather"]["count"].get<std::int64_t>(), 0);
  EXPECT_EQ(coll["send"]["count"].get<std::int64_t>(), 0);

  std::map<std::tuple<int, int, int>, int> perBlock; // (rank, step, unit)
  for (const auto& e : t.events) {
    if (e.record != trace::Record::Collective) continue;
    ASSERT_EQ(e.kind, trace::Kind::AllReduce);
    EXPECT_EQ(e.bytes, static_cast<std::int64_t>(kBatch) * kHidden * 4) << "the block's output (or input gradient)";
    EXPECT_GE(e.unit, 1);
    EXPECT_LE(e.unit, kLayers) << "only blocks communicate; embedding and output are replicated";
    ++perBlock[{e.rank, e.step, e.unit}];
  }
  for (int rank = 0; rank < ranks; ++rank)
    for (int step = 0; step < steps; ++step)
      for (int unit = 1; unit <= kLayers; ++unit)
        EXPECT_EQ((perBlock[{rank, step, unit}]), 2) << "rank " << rank << " step " << step << " unit " << unit;
}

TEST(tp_memory, EachRankHoldsOneNthOfEveryBlockPlusTheReplicatedParts) {
  const int ranks = 4;
  const auto s = trace::summarize(runTp(ranks, 1, freshDir("tp-mem")));
  const std::int64_t H = kHidden, V = kVocab, F = 4 * H / ranks;
  const std::int64_t block = H * F + F + F * H + H; // W1 columns, b1, W2 rows, all of b2
  const std::int64_t expected = 4 * (V * H + kLayers * block + H * V + V);
  ASSERT_EQ(s.ranksDetail.size(), static_cast<std::size_t>(ranks));
  for (const auto& r : s.ranksDetail)
    EXPECT_EQ(r.peakByCategory[static_cast<std::size_t>(trace::Category::ParamReplica)], expected) << "rank " << r.rank;
  // Loss is reported once (rank 0), for the whole batch.
  EXPECT_EQ(s.stepsCompleted, 1);
}
