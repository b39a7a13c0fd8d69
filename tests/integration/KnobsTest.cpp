// Activation checkpointing and gradient accumulation as real Open MPI jobs:
// each trains the same parameters as the run without it; checkpointing lowers the
// activation peak and recomputes every unit's forward (the trace marks those ops);
// accumulation without no_sync reduces every micro-step, with it once per step, and
// then holds the full gradients across the micro-steps (the mem records show it).
#include "RunShardlab.h"
#include "trace/Summary.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

const std::vector<std::string> kTinyModel{"--layers", "2", "--hidden", "32", "--vocab", "32", "--batch", "24",
                                          "--seed", "7",   "--lr",     "0.01", "-q"};
constexpr int kUnits = 4; // embedding, 2 blocks, output

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

// "--strategy fsdp --ranks 2" -> "strategy_fsdp_ranks_2": a test or directory name.
std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) {
    std::string word;
    for (char c : x)
      if (std::isalnum(static_cast<unsigned char>(c))) word += c;
    if (!word.empty()) s += (s.empty() ? "" : "_") + word;
  }
  return s;
}

// Runs the job for `steps` steps; returns its parameters, and its trace and summary
// in `dir` (t.trace, s.json).
std::vector<float> train(const std::vector<std::string>& options, const std::string& dir, int steps) {
  auto r = runShardlab(with(with(kTinyModel, {"--steps", std::to_string(steps), "--dump-params", dir + "/p.bin",
                                              "--trace", dir + "/t.trace", "--summary-json", dir + "/s.json"}),
                            options));
  EXPECT_EQ(r.status, 0) << r.err;
  return readFloats(dir + "/p.bin");
}

trace::Trace readTrace(const std::string& file) {
  auto r = trace::readTraceFile(file);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->describe(file) : "");
  return r.trace;
}

nlohmann::json readJson(const std::string& file) { return nlohmann::json::parse(std::ifstream(file)); }

} // namespace

// ---------------------------------------------------------------------------------
// Activation checkpointing: keep each unit's input, recompute its forward in the backward.

struct Checkpointing : ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(Checkpointing, SameParametersLowerActivationPeakAndEveryForwardRecomputed) {
  const auto& options = GetParam();
  const auto plainDir = freshDir("ckpt-plain-" + join(options)), ckptDir = freshDir("ckpt-on-" + join(options));
  const auto plain = train(options, plainDir, 10);
  const auto ckpt = train(with(options, {"--checkpoint-activations"}), ckptDir, 10);
  ASSERT_FALSE(plain.empty());
  ASSERT_EQ(ckpt.size(), plain.size());
  EXPECT_LT(relativeDifference(ckpt, plain), 1e-5);

  const auto sPlain = readJson(plainDir + "/s.json"), sCkpt = readJson(ckptDir + "/s.json");
  for (std::size_t r = 0; r < sPlain["ranks_detail"].size(); ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const auto& p = sPlain["ranks_detail"][r];
    const auto& c = sCkpt["ranks_detail"][r];
    const auto peakPlain = p["peak_by_category"]["activations"].get<std::int64_t>();
    const auto peakCkpt = c["peak_by_category"]["activations"].get<std::int64_t>();
    EXPECT_GT(peakPlain, 0);
    EXPECT_LT(peakCkpt, peakPlain);
    // Every unit's forward runs twice: once in the forward, once inside its backward.
    const auto forwardPlain = p["ops"]["forward"].get<std::int64_t>();
    EXPECT_EQ(forwardPlain, 10 * kUnits);
    EXPECT_EQ(p["ops"]["recompute"], 0);
    EXPECT_GE(static_cast<double>(c["ops"]["forward"].get<std::int64_t>()), 1.9 * static_cast<double>(forwardPlain));
    EXPECT_EQ(c["ops"]["recompute"], forwardPlain);
    EXPECT_EQ(c["ops"]["backward"], p["ops"]["backward"]);
  }

  // In the trace: a unit's recompute runs after the backward of the unit above it
  // and before its own backward, in the same step.
  const auto t = readTrace(ckptDir + "/t.trace");
  EXPECT_TRUE(t.job->config.checkpointActivations);
  std::map<std::pair<int, int>, std::int64_t> recomputeAt, backwardAt; // (step, unit) -> t0, rank 0
  for (const auto& e : t.events) {
    if (e.rank != 0 || e.record != trace::Record::Op) continue;
    if (e.kind == trace::Kind::Forward && e.recompute) recomputeAt.try_emplace({e.step, e.unit}, e.t0);
    if (e.kind == trace::Kind::Backward) backwardAt.try_emplace({e.step, e.unit}, e.t0);
  }
  ASSERT_EQ(recomputeAt.size(), static_cast<std::size_t>(10 * kUnits));
  for (const auto& [key, t0] : recomputeAt) {
    ASSERT_TRUE(backwardAt.count(key));
    EXPECT_LT(t0, backwardAt.at(key));
    if (key.second + 1 < kUnits) {
      EXPECT_GT(t0, backwardAt.at({key.first, key.second + 1}));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(DdpAndFsdp, Checkpointing,
                         ::testing::Values(std::vector<std::string>{"--strategy", "ddp", "--ranks", "2"},
                                           std::vector<std::string>{"--strategy", "fsdp", "--ranks", "2"},
                                           std::vector<std::string>{"--strategy", "fsdp", "--sharding", "grad-op",
                                                                    "--ranks", "3"}),
                         [](const auto& test) { return join(test.param); });

// ---------------------------------------------------------------------------------
// Gradient accumulation: K micro-batches of the same global batch, one optimizer step.

struct Accumulation : ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(Accumulation, SameParametersAsOneMicroStepWithAndWithoutSync) {
  const auto& options = GetParam();
  const auto one = train(options, freshDir("acc-1-" + join(options)), 10);
  ASSERT_FALSE(one.empty());
  // 24 tokens on 2 ranks: micro-batches of 4 (K = 3); on 4 ranks, of 3 (K = 2).
  const std::string K = options.back() == "4" ? "2" : "3";
  for (bool noSync : {false, true}) {
    SCOPED_TRACE(noSync ? "no_sync" : "sync");
    auto more = with(options, {"--accumulate", K});
    if (noSync) more.push_back("--no-sync");
    const auto acc = train(more, freshDir("acc-" + K + (noSync ? "-nosync-" : "-sync-") + join(options)), 10);
    ASSERT_EQ(acc.size(), one.size());
    EXPECT_LT(relativeDifference(acc, one), 1e-5);
  }
}

INSTANTIATE_TEST_SUITE_P(
    DdpAndFsdp, Accumulation,
    ::testing::Values(std::vector<std::string>{"--strategy", "ddp", "--ranks", "2"},
                      std::vector<std::string>{"--strategy", "fsdp", "--ranks", "2"},
                      std::vector<std::string>{"--strategy", "fsdp", "--sharding", "no-shard", "--ranks", "2"},
                      std::vector<std::string>{"--strategy", "fsdp", "--sharding", "optimizer", "--ranks", "2"},
                      std::vector<std::string>{"--strategy", "fsdp", "--sharding", "hybrid", "--shard-group", "2",
                                               "--ranks", "4"}),
    [](const auto& test) { return join(test.param); });

TEST(AccumulationCounts, SyncReducesEveryMicroStepNoSyncOncePerStep) {
  const int K = 3, steps = 2;
  struct Case {
    std::vector<std::string> options;
    const char* reduction; // the collective that reduces gradients
  };
  for (const Case& c : {Case{{"--strategy", "ddp", "--ranks", "2"}, "all_reduce"},
                        Case{{"--strategy", "fsdp", "--ranks", "2"}, "reduce_scatter"}}) {
    SCOPED_TRACE(join(c.options));
    const auto syncDir = freshDir("acc-count-sync-" + join(c.options));
    const auto noSyncDir = freshDir("acc-count-nosync-" + join(c.options));
    train(with(c.options, {"--accumulate", std::to_string(K)}), syncDir, steps);
    train(with(c.options, {"--accumulate", std::to_string(K), "--no-sync"}), noSyncDir, steps);
    const auto sync = readJson(syncDir + "/s.json"), noSync = readJson(noSyncDir + "/s.json");
    EXPECT_EQ(sync["collectives"][c.reduction]["count"], kUnits * K * steps);
    EXPECT_EQ(noSync["collectives"][c.reduction]["count"], kUnits * steps);
    // Under full sharding every micro-step gathers each unit twice, synchronised or not.
    if (std::string(c.reduction) == "reduce_scatter") {
      EXPECT_EQ(sync["collectives"]["all_gather"]["count"], 2 * kUnits * K * steps);
      EXPECT_EQ(noSync["collectives"]["all_gather"]["count"], 2 * kUnits * K * steps);
    }
    // Each micro-step's ops and collectives carry its micro-step index.
    const auto t = readTrace(noSyncDir + "/t.trace");
    EXPECT_EQ(t.job->config.accumulate, K);
    EXPECT_TRUE(t.job->config.noSync);
    std::map<int, int> forwardsPerMicro;
    for (const auto& e : t.events)
      if (e.rank == 0 && e.record == trace::Record::Op && e.kind == trace::Kind::Forward) ++forwardsPerMicro[e.micro];
    ASSERT_EQ(forwardsPerMicro.size(), static_cast<std::size_t>(K));
    for (const auto& [micro, n] : forwardsPerMicro) EXPECT_EQ(n, kUnits * steps) << "micro-step " << micro;
  }
}

namespace {
// Bytes of full-size gradients (category grads) rank 0 held when its first forward op
// of micro-step `micro` in step 0 began, from the mem records.
std::int64_t gradsHeldAtForwardOf(const trace::Trace& t, int micro) {
  std::int64_t start = -1;
  for (const auto& e : t.events)
    if (e.rank == 0 && e.record == trace::Record::Op && e.kind == trace::Kind::Forward && e.step == 0 &&
        e.micro == micro && (start < 0 || e.t0 < start))
      start = e.t0;
  std::int64_t held = 0, at = -1;
  for (const auto& e : t.events)
    if (e.rank == 0 && e.record == trace::Record::Memory && e.category == trace::Category::Grads && e.t0 <= start &&
        e.t0 >= at) {
      held = e.value;
      at = e.t0;
    }
  return held;
}
} // namespace

TEST(AccumulationMemory, NoSyncHoldsFullGradientsAcrossMicroSteps) {
  const auto syncDir = freshDir("acc-mem-sync"), noSyncDir = freshDir("acc-mem-nosync");
  const std::vector<std::string> job{"--strategy", "fsdp", "--ranks", "2", "--accumulate", "2"};
  train(job, syncDir, 2);
  train(with(job, {"--no-sync"}), noSyncDir, 2);
  const auto sync = readTrace(syncDir + "/t.trace"), noSync = readTrace(noSyncDir + "/t.trace");
  // The full gradients of every unit, each padded to a multiple of the 2 ranks.
  std::int64_t fullBytes = 0;
  for (const std::int64_t n : noSync.job->model.unitParameters) fullBytes += (n + 1) / 2 * 2 * 4;
  ASSERT_GT(fullBytes, 0);
  // Before the second micro-step's forward: no_sync still holds every unit's full
  // gradient (reduced only at the last micro-step); sync has reduced and freed them.
  EXPECT_EQ(gradsHeldAtForwardOf(noSync, 1), fullBytes);
  EXPECT_EQ(gradsHeldAtForwardOf(sync, 1), 0);
  EXPECT_EQ(gradsHeldAtForwardOf(noSync, 0), 0);
}

TEST(AccumulationRules, BadInputExitsTwoNamingTheOptionAndTheRule) {
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  for (const auto& c : {Case{{"--accumulate", "0"}, "--accumulate: must be at least 1 (got 0)"},
                        Case{{"--ranks", "4", "--batch", "64", "--accumulate", "3"},
                             "--accumulate: the global batch (64) must split into ranks (4) x micro-steps (3)"},
                        Case{{"--strategy", "ddp", "--ranks", "2", "--no-sync"}, "--no-sync: no_sync skips"},
                        Case{{"--strategy", "tp", "--ranks", "2", "--checkpoint-activations"},
                             "--checkpoint-activations: only DDP and FSDP have this option (the strategy is tp)"}}) {
    SCOPED_TRACE(join(c.args));
    const auto r = runShardlab(c.args);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
  }
}

// ---------------------------------------------------------------------------------
// Mixed precision (FSDP): bf16 all-gathers and reductions, fp32 master shards and AdamW.

TEST(MixedPrecision, Bf16HalvesTheBytesAndTheLossStaysNearFp32) {
  const std::vector<std::string> job{"--strategy", "fsdp", "--ranks", "2"};
  const auto fp32Dir = freshDir("mp-fp32"), paramDir = freshDir("mp-param-bf16"), bothDir = freshDir("mp-both-bf16");
  const auto fp32 = train(job, fp32Dir, 10);
  const auto param = train(with(job, {"--param-dtype", "bf16"}), paramDir, 10);
  const auto both = train(with(job, {"--param-dtype", "bf16", "--reduce-dtype", "bf16"}), bothDir, 10);
  ASSERT_FALSE(fp32.empty());
  ASSERT_EQ(param.size(), fp32.size());
  ASSERT_EQ(both.size(), fp32.size());
  // bf16 is a real conversion: the parameters differ from fp32's, a little.
  EXPECT_GT(relativeDifference(param, fp32), 0.0);

  const auto s32 = readJson(fp32Dir + "/s.json"), sParam = readJson(paramDir + "/s.json"),
             sBoth = readJson(bothDir + "/s.json");
  EXPECT_EQ(sParam["sharding"]["param_dtype"], "bf16");
  EXPECT_EQ(sBoth["sharding"]["reduce_dtype"], "bf16");
  auto bytes = [](const nlohmann::json& s, const char* kind) { return s["collectives"][kind]["bytes"].get<double>(); };
  // The tiny model's units split evenly into bf16 pairs on 2 ranks: exactly half.
  EXPECT_DOUBLE_EQ(bytes(sParam, "all_gather") / bytes(s32, "all_gather"), 0.5);
  EXPECT_DOUBLE_EQ(bytes(sParam, "reduce_scatter") / bytes(s32, "reduce_scatter"), 1.0);
  EXPECT_DOUBLE_EQ(bytes(sBoth, "reduce_scatter") / bytes(s32, "reduce_scatter"), 0.5);
  // What Open MPI's monitoring counted on the wire, when it is there.
  const auto& m32 = s32["collectives"]["all_gather"]["measured_wire_bytes"];
  const auto& mParam = sParam["collectives"]["all_gather"]["measured_wire_bytes"];
  if (!m32.is_null() && !mParam.is_null()) {
    EXPECT_DOUBLE_EQ(mParam.get<double>() / m32.get<double>(), 0.5);
  }

  // The loss of every step within 1% of the fp32 run's (docs/sharding.md).
  for (const auto* s : {&sParam, &sBoth}) {
    const auto& loss = (*s)["loss"]["per_step"];
    ASSERT_EQ(loss.size(), s32["loss"]["per_step"].size());
    for (std::size_t k = 0; k < loss.size(); ++k) {
      const double ref = s32["loss"]["per_step"][k].get<double>();
      EXPECT_NEAR(loss[k].get<double>(), ref, 0.01 * ref) << "step " << k;
    }
  }
}

TEST(MixedPrecision, Fp8AndUnshardedStagesExitTwoNamingTheOptionAndTheRule) {
  const auto fp8 = runShardlab({"--param-dtype", "fp8"});
  EXPECT_EQ(fp8.status, 2);
  EXPECT_NE(fp8.err.find("--param-dtype: must be one of fp32, bf16 (got 'fp8')"), std::string::npos) << fp8.err;
  const auto ddp = runShardlab({"--strategy", "ddp", "--ranks", "2", "--reduce-dtype", "bf16"});
  EXPECT_EQ(ddp.status, 2);
  EXPECT_NE(ddp.err.find("--reduce-dtype: bf16 is implemented for FSDP's grad-op, full and hybrid"),
            std::string::npos)
      << ddp.err;
}

// Equivalence to one rank within its tolerance: bf16 parameters round the same fp32
// master values on any number of ranks, so the 2-rank and 4-rank bf16 runs train the
// 1-rank bf16 run's parameters (float reordering of the fp32 reductions only), and
// every step's loss stays within 1% of the 1-rank fp32 run's.
TEST(MixedPrecision, Bf16OnTwoAndFourRanksTrainsAsBf16OnOneRank) {
  const std::vector<std::string> bf16{"--strategy", "fsdp", "--param-dtype", "bf16"};
  const auto oneDir = freshDir("mp-bf16-1"), twoDir = freshDir("mp-bf16-2"), fourDir = freshDir("mp-bf16-4"),
             fp32Dir = freshDir("mp-fp32-1");
  const auto one = train(with(bf16, {"--ranks", "1"}), oneDir, 10);
  const auto two = train(with(bf16, {"--ranks", "2"}), twoDir, 10);
  const auto four = train(with(bf16, {"--ranks", "4", "--sharding", "grad-op"}), fourDir, 10);
  const auto fp32 = train({"--strategy", "fsdp", "--ranks", "1"}, fp32Dir, 10);
  ASSERT_FALSE(one.empty());
  ASSERT_EQ(two.size(), one.size());
  ASSERT_EQ(four.size(), one.size());
  ASSERT_EQ(fp32.size(), one.size());
  EXPECT_LT(relativeDifference(two, one), 2e-5);
  EXPECT_LT(relativeDifference(four, one), 2e-5);
  // The tolerance tells bf16 from fp32: one rank rounds too, and ends further from fp32 than that.
  EXPECT_GT(relativeDifference(one, fp32), 1e-4);
  const auto s32 = readJson(fp32Dir + "/s.json"), s16 = readJson(twoDir + "/s.json");
  const auto& loss = s16["loss"]["per_step"];
  ASSERT_EQ(loss.size(), s32["loss"]["per_step"].size());
  for (std::size_t k = 0; k < loss.size(); ++k) {
    const double ref = s32["loss"]["per_step"][k].get<double>();
    EXPECT_NEAR(loss[k].get<double>(), ref, 0.01 * ref) << "step " << k;
  }
}

// GPU ranks: bf16 is host code on Open MPI. Asked for on GPUs, the job is refused before
// anything starts, naming --device and --param-dtype and what to use instead; with
// --device auto it runs on CPU ranks and says why.
TEST(MixedPrecision, Bf16OnGpuRanksIsRefusedNamingTheOptionsAndAutoChoosesCpuRanks) {
  const auto gpu = runShardlab(with(kTinyModel, {"--strategy", "fsdp", "--ranks", "2", "--steps", "1", "--param-dtype",
                                                 "bf16", "--device", "cuda"}));
  EXPECT_EQ(gpu.status, 2) << gpu.err;
  EXPECT_NE(gpu.err.find("--device: cuda was asked for with --param-dtype bf16, but FSDP's bf16 mixed precision runs "
                         "on CPU ranks only"),
            std::string::npos)
      << gpu.err;
  EXPECT_NE(gpu.err.find("use --device cpu (or auto) for bf16, or fp32 (the default) on GPU ranks"), std::string::npos)
      << gpu.err;
  const auto staged = runShardlab(with(kTinyModel, {"--strategy", "fsdp", "--ranks", "2", "--steps", "1", "--reduce-dtype",
                                                    "bf16", "--device", "cuda+mpi-staged"}));
  EXPECT_EQ(staged.status, 2) << staged.err;
  EXPECT_NE(staged.err.find("with --reduce-dtype bf16"), std::string::npos) << staged.err;
  const auto autoDevice =
      runShardlab(with(kTinyModel, {"--strategy", "fsdp", "--ranks", "2", "--steps", "1", "--param-dtype", "bf16"}));
  EXPECT_EQ(autoDevice.status, 0) << autoDevice.err;
  EXPECT_NE(autoDevice.err.find("device cpu: --param-dtype bf16: FSDP's bf16 mixed precision runs on CPU ranks only"),
            std::string::npos)
      << autoDevice.err;
}
