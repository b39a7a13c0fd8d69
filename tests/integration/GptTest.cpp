// The GPT (--model gpt) as real Open MPI jobs: one rank learns the sequences' copy
// pattern past what any one-token model (the MLP) can reach; DDP, FSDP, tensor
// parallelism (heads split) and the pipeline compute the losses of 1 rank; TP's sums
// and the pipeline's hand-offs in the trace; bad GPT options exit 2 naming the option.
#include "RunShardlab.h"
#include "job/MemoryEstimate.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <tuple>

using namespace shardlab::testing;

namespace {

const std::vector<std::string> kGpt{"--model", "gpt", "--heads", "4", "--seq-len", "32", "--layers", "2",
                                    "--hidden", "64", "--vocab", "64", "--seed", "1", "-q"};

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

std::vector<double> losses(const std::vector<std::string>& args, const std::string& dir) {
  const auto r = runShardlab(with(args, {"--summary-json", dir + "/s.json"}), {}, 240);
  EXPECT_EQ(r.status, 0) << r.err;
  std::ifstream in(dir + "/s.json");
  const auto s = nlohmann::json::parse(in, nullptr, false);
  if (s.is_discarded()) return {};
  return s["loss"]["per_step"].get<std::vector<double>>();
}

// The chain's entropy rate (core/Data.cpp: successors with 0.6, 0.25, 0.1, a uniform
// 0.05 tail), vocab 64: the lowest loss a model of one token can reach on the chain's targets.
double chainEntropy(int vocab) {
  const double p[4] = {0.6, 0.25, 0.1, 0.05};
  double h = 0.0;
  for (int i = 0; i < 3; ++i) h -= p[i] * std::log(p[i] + p[3] / vocab);
  return h - p[3] * std::log(p[3] / vocab);
}

} // namespace

TEST(Gpt, OneRankLearnsWhatTheMlpCannot) {
  // 32 sequences of 32 tokens a step; the MLP gets the same 1024 tokens a step of the same chain.
  const std::vector<std::string> run{"--strategy", "ddp", "--ranks", "1", "--steps", "60", "--lr", "0.01"};
  const auto gpt = losses(with(with(kGpt, run), {"--batch", "32"}), freshDir("gpt-one-rank"));
  const auto mlp = losses(with(run, {"--model", "mlp", "--layers", "2", "--hidden", "64", "--vocab", "64", "--seed",
                                     "1", "--batch", "1024", "-q"}),
                          freshDir("gpt-mlp-one-rank"));
  ASSERT_EQ(gpt.size(), 60u);
  ASSERT_EQ(mlp.size(), 60u);
  // Visibly falling within 20 steps: from above ln 64 = 4.16 to below 2.5.
  EXPECT_GT(gpt.front(), 4.0);
  EXPECT_LT(gpt[19], 2.5);
  // At the end below the MLP's, and below the chain's entropy, which no model of one
  // token can pass: the GPT has learnt to copy from kCopyPeriod - 1 positions back.
  EXPECT_LT(gpt.back(), mlp.back());
  EXPECT_LT(gpt.back(), chainEntropy(64));
  EXPECT_GT(mlp.back(), chainEntropy(64) - 0.1);
  std::cout << "[ info     ] after 60 steps: gpt " << gpt.back() << ", mlp " << mlp.back() << ", chain entropy "
            << chainEntropy(64) << "\n";
}

// A strategy's run of the GPT against one rank's: each step's loss within `tolerance`
// relative (1e-5: fp32 sums in another order; bf16 all-gathers and reductions round
// every parameter and gradient they carry, so they are held to 1e-3).
struct ParityCase {
  std::string name;
  std::vector<std::string> args;
  double tolerance = 1e-5;
};
void PrintTo(const ParityCase& c, std::ostream* os) { *os << c.name; }
struct GptParity : ::testing::TestWithParam<ParityCase> {};

TEST_P(GptParity, TheLossesOfOneRank) {
  const std::vector<std::string> job{"--steps", "5", "--batch", "8"};
  const auto one = losses(with(with(kGpt, job), {"--strategy", "ddp", "--ranks", "1"}), freshDir("gpt-parity-1"));
  const auto many = losses(with(with(kGpt, job), GetParam().args), freshDir("gpt-parity-" + GetParam().name));
  ASSERT_EQ(one.size(), 5u);
  ASSERT_EQ(many.size(), 5u);
  for (std::size_t s = 0; s < one.size(); ++s)
    EXPECT_NEAR(many[s], one[s], GetParam().tolerance * std::abs(one[s])) << "step " << s;
  EXPECT_LT(one.back(), one.front()); // it trains
}

INSTANTIATE_TEST_SUITE_P(
    Strategies, GptParity,
    ::testing::Values(
        ParityCase{"ddp", {"--strategy", "ddp", "--ranks", "2"}},
        ParityCase{"ddp_checkpointing", {"--strategy", "ddp", "--ranks", "2", "--checkpoint-activations"}},
        ParityCase{"ddp_accumulate", {"--strategy", "ddp", "--ranks", "2", "--accumulate", "2"}},
        ParityCase{"fsdp_full", {"--strategy", "fsdp", "--ranks", "2"}},
        ParityCase{"fsdp_no_shard", {"--strategy", "fsdp", "--ranks", "2", "--sharding", "no-shard"}},
        ParityCase{"fsdp_optimizer", {"--strategy", "fsdp", "--ranks", "2", "--sharding", "optimizer"}},
        ParityCase{"fsdp_grad_op", {"--strategy", "fsdp", "--ranks", "2", "--sharding", "grad-op"}},
        ParityCase{"fsdp_hybrid", {"--strategy", "fsdp", "--ranks", "4", "--sharding", "hybrid", "--shard-group", "2"}},
        ParityCase{"fsdp_prefetch_post_forward",
                   {"--strategy", "fsdp", "--ranks", "2", "--backward-prefetch", "post", "--forward-prefetch"}},
        ParityCase{"fsdp_no_prefetch_limited", {"--strategy", "fsdp", "--ranks", "2", "--no-prefetch", "--limit-all-gathers", "1"}},
        ParityCase{"fsdp_checkpointing", {"--strategy", "fsdp", "--ranks", "2", "--checkpoint-activations"}},
        ParityCase{"fsdp_accumulate_no_sync", {"--strategy", "fsdp", "--ranks", "2", "--accumulate", "2", "--no-sync"}},
        ParityCase{"fsdp_bf16",
                   {"--strategy", "fsdp", "--ranks", "2", "--param-dtype", "bf16", "--reduce-dtype", "bf16"},
                   1e-3},
        ParityCase{"tp2", {"--strategy", "tp", "--ranks", "2"}},
        ParityCase{"tp4", {"--strategy", "tp", "--ranks", "4"}},
        ParityCase{"pipeline_1f1b", {"--strategy", "pipeline", "--ranks", "2", "--schedule", "1f1b", "--microbatches", "4"}},
        ParityCase{"pipeline_gpipe", {"--strategy", "pipeline", "--ranks", "2", "--schedule", "gpipe", "--microbatches", "4"}},
        ParityCase{"pipeline_naive", {"--strategy", "pipeline", "--ranks", "2", "--schedule", "naive", "--microbatches", "1"}},
        ParityCase{"pipeline_interleaved",
                   {"--strategy", "pipeline", "--ranks", "2", "--schedule", "interleaved", "--virtual-stages", "2",
                    "--microbatches", "4"}}),
    [](const auto& param) { return param.param.name; });

// Tensor parallelism on the GPT: heads split over the ranks. Per block and step, the
// trace holds 2 all-reduces in the forward (g after attn Wo and after h W2) and 2 in the
// backward (f's, before each LayerNorm's backward), each of the block's T x H floats;
// the embedding and the output, replicated, send nothing. The parameters gathered
// back into the full layout are one rank's after the same steps (within the 1e-4 of
// the MLP's tp_equivalence).
TEST(GptTensorParallel, FourAllReducesPerBlockAndOneRanksParameters) {
  const int ranks = 2, steps = 3, batch = 8, layers = 2;
  const std::vector<std::string> job{"--steps", std::to_string(steps), "--batch", std::to_string(batch)};
  const auto oneDir = freshDir("gpt-tp-params-1"), dir = freshDir("gpt-tp-coll");
  auto r = runShardlab(with(with(kGpt, job), {"--strategy", "ddp", "--ranks", "1", "--dump-params", oneDir + "/p.bin"}));
  ASSERT_EQ(r.status, 0) << r.err;
  r = runShardlab(with(with(kGpt, job), {"--strategy", "tp", "--ranks", std::to_string(ranks), "--trace",
                                         dir + "/t.trace", "--dump-params", dir + "/p.bin"}));
  ASSERT_EQ(r.status, 0) << r.err;

  auto one = readFloats(oneDir + "/p.bin"), tp = readFloats(dir + "/p.bin");
  ASSERT_FALSE(one.empty());
  ASSERT_EQ(tp.size(), one.size()) << "fullParameters() must reassemble the GPT's full block layout";
  // The K biases are left out: their gradient is zero in exact arithmetic (adding a
  // constant to a row of scores leaves its softmax unchanged), so AdamW's normalised
  // step turns the rounding noise of either run into steps of up to lr (3e-4 apart
  // after 3 steps here, against at most 2e-6 for every other parameter).
  const std::size_t H = 64, embedding = 64 * H + 32 * H, block = 12 * H * H + 13 * H, kBias = 2 * H + 3 * H * H + H;
  for (std::size_t b = 0; b < std::size_t(layers); ++b)
    for (std::size_t i = 0; i < H; ++i) one[embedding + b * block + kBias + i] = tp[embedding + b * block + kBias + i] = 0;
  EXPECT_LT(relativeDifference(tp, one), 1e-5);

  const auto t = shardlab::trace::readTraceFile(dir + "/t.trace");
  ASSERT_TRUE(t.ok());
  // Which op a sum ran in: the unit's op is paused around it, so the rank's last
  // compute piece that ended before the all-reduce began is that op's.
  using shardlab::trace::Kind;
  using shardlab::trace::Record;
  std::map<std::tuple<int, int, int, Kind>, int> perBlock; // (rank, step, unit, forward or backward)
  for (const auto& e : t.trace.events) {
    if (e.record != Record::Collective) continue;
    ASSERT_EQ(e.kind, Kind::AllReduce);
    EXPECT_EQ(e.bytes, std::int64_t(batch) * 32 * 64 * 4) << "a block's T x H activation (or its gradient)";
    EXPECT_GE(e.unit, 1);
    EXPECT_LE(e.unit, layers) << "only blocks communicate; embedding and output are replicated";
    const shardlab::trace::Event* before = nullptr;
    for (const auto& op : t.trace.events)
      if (op.record == Record::Op && op.rank == e.rank && op.t1 <= e.t0 && (!before || op.t1 > before->t1)) before = &op;
    ASSERT_NE(before, nullptr);
    EXPECT_EQ(before->unit, e.unit);
    ++perBlock[{e.rank, e.step, e.unit, before->kind}];
  }
  for (int rank = 0; rank < ranks; ++rank)
    for (int step = 0; step < steps; ++step)
      for (int unit = 1; unit <= layers; ++unit) {
        SCOPED_TRACE(testing::Message() << "rank " << rank << " step " << step << " unit " << unit);
        EXPECT_EQ((perBlock[{rank, step, unit, Kind::Forward}]), 2);
        EXPECT_EQ((perBlock[{rank, step, unit, Kind::Backward}]), 2);
      }
}

// The pipeline on the GPT: a stage hands the next one a micro-batch's b x s x h
// activations (and gets their gradient back), each message rows x seq_len tokens of H.
TEST(GptPipeline, HandOffsAreMicroBatchSequencesOfHidden) {
  const int micro = 4, batch = 8, steps = 2;
  const auto dir = freshDir("gpt-pipeline-handoffs");
  const auto r = runShardlab(with(kGpt, {"--strategy", "pipeline", "--ranks", "2", "--schedule", "1f1b",
                                         "--microbatches", std::to_string(micro), "--batch", std::to_string(batch),
                                         "--steps", std::to_string(steps), "--trace", dir + "/t.trace"}));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto t = shardlab::trace::readTraceFile(dir + "/t.trace");
  ASSERT_TRUE(t.ok());
  int sends = 0;
  for (const auto& e : t.trace.events) {
    if (e.record != shardlab::trace::Record::Collective || e.kind != shardlab::trace::Kind::Send) continue;
    ++sends;
    EXPECT_EQ(e.rows, batch / micro * 32) << "a micro-batch's sequences x seq_len tokens";
    EXPECT_EQ(e.cols, 64);
    EXPECT_EQ(e.bytes, std::int64_t(batch / micro) * 32 * 64 * 4);
  }
  EXPECT_EQ(sends, 2 * micro * steps) << "one activation forward and one gradient back per micro-batch and step";
}

// The trace's job record gives back a GPT job (its kind is in the model's description),
// and the pre-flight estimate of it covers what the ranks really held: the persistent
// state within 3%, the peak under the estimated total (as Preflight checks the MLP's).
TEST(Gpt, TheTraceGivesBackTheJobAndThePreflightCoversItsPeak) {
  for (const std::string strategy : {"ddp", "fsdp", "tp", "pipeline"}) {
    SCOPED_TRACE(strategy);
    const auto dir = freshDir("gpt-estimate-" + strategy);
    auto args = with(kGpt, {"--strategy", strategy, "--ranks", "2", "--batch", "8", "--steps", "2", "--trace",
                            dir + "/t.trace"});
    if (strategy == "pipeline") args = with(args, {"--schedule", "1f1b", "--microbatches", "4"});
    const auto r = runShardlab(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto t = shardlab::trace::readTraceFile(dir + "/t.trace");
    ASSERT_TRUE(t.ok());
    const auto config = t.trace.config();
    ASSERT_TRUE(config);
    EXPECT_EQ(config->model, shardlab::ModelKind::Gpt);
    EXPECT_EQ(config->heads, 4);
    EXPECT_EQ(config->seqLen, 32);
    const auto e = shardlab::estimateRankMemory(*config);
    const auto s = shardlab::trace::summarize(t.trace);
    std::int64_t persistent = 0, peak = 0;
    for (const auto& rank : s.ranksDetail) {
      persistent = std::max(persistent, rank.persistentBytes);
      peak = std::max(peak, rank.peakBytes);
    }
    ASSERT_GT(persistent, 0);
    EXPECT_NEAR(e.persistent() / static_cast<double>(persistent), 1.0, 0.03);
    EXPECT_GE(e.total(), static_cast<double>(peak) * 0.95) << "estimated " << e.total() << ", peak " << peak;
    EXPECT_LE(e.total(), static_cast<double>(peak) * 3.0) << "estimated " << e.total() << ", peak " << peak;
  }
}

TEST(GptRules, BadInputExitsTwoNamingTheOption) {
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  for (const auto& c :
       {Case{{"--model", "lstm"}, "--model: must be one of mlp, gpt (got 'lstm')"},
        Case{{"--model", "gpt", "--hidden", "64", "--heads", "3"},
             "--heads: the attention heads (3) must divide hidden (64)"},
        Case{{"--model", "gpt", "--heads", "0"}, "--heads: must be at least 1 (got 0)"},
        Case{{"--model", "gpt", "--seq-len", "5000"}, "--seq-len: must be between 1 and 4096 (got 5000)"},
        Case{{"--model", "gpt", "--seq-len", "0"}, "--seq-len: must be at least 1 (got 0)"},
        Case{{"--model", "gpt", "--seq-len", "x"}, "--seq-len: 'x' is not an integer"},
        Case{{"--model", "gpt", "--strategy", "ddp", "--ranks", "2", "--batch", "512", "--seq-len", "4096"},
             "--seq-len: a batch of 512 sequences of 4096 tokens is more than the 1048576 tokens a batch may hold"},
        Case{{"--model", "gpt", "--strategy", "tp", "--ranks", "4", "--heads", "2"},
             "--ranks: the tensor-parallel degree (4) must divide the attention heads (2)"},
        Case{{"--model", "gpt", "--strategy", "pipeline", "--ranks", "2", "--schedule", "zb-h1", "--microbatches", "2"},
             "--model: the GPT does not run the zb-h1 schedule yet"}}) {
    SCOPED_TRACE(c.expected);
    const auto r = runShardlab(with(c.args, {"--check"}));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
  }
}
