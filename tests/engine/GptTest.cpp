// The GPT's device ops on the CPU device against plain references on random inputs,
// the gradient of a whole GPT (embedding, blocks, output) against central finite
// differences, a block split over tensor-parallel ranks (threads) against the whole
// block, and the synthetic language's sequences.
#include "core/Data.h"
#include "core/Device.h"
#include "core/Gpt.h"
#include "core/Model.h"
#include "job/JobConfig.h"

#include <gtest/gtest.h>

#include <barrier>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

using namespace shardlab;

namespace {

std::vector<float> randomVector(std::size_t n, unsigned seed, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

// Row-major reference: C = alpha op(A) op(B) + beta C.
void referenceGemm(bool tA, bool tB, int M, int N, int K, float alpha, const float* A, int lda, const float* B,
                   int ldb, float beta, float* C, int ldc) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k) s += double(tA ? A[k * lda + i] : A[i * lda + k]) * (tB ? B[j * ldb + k] : B[k * ldb + j]);
      C[i * ldc + j] = static_cast<float>(alpha * s + beta * C[i * ldc + j]);
    }
}

} // namespace

TEST(GptOps, StridedBatchedGemmIsOneGemmPerMatrixAtItsStrides) {
  auto d = makeCpuDevice();
  // Matrices interleaved in the columns, as the heads of a qkv row are (stride = head size).
  const int M = 5, N = 4, K = 3, batch = 3, lda = 20, ldb = 20, ldc = 16;
  for (bool tA : {false, true})
    for (bool tB : {false, true}) {
      SCOPED_TRACE(testing::Message() << "transA " << tA << " transB " << tB);
      const auto A = randomVector(40 * lda, 1), B = randomVector(40 * ldb, 2);
      auto C = randomVector(40 * ldc, 3), expected = C;
      const std::int64_t sA = 4, sB = 5, sC = 5;
      d->gemmStridedBatched(tA, tB, M, N, K, 0.7f, A.data(), lda, sA, B.data(), ldb, sB, 0.5f, C.data(), ldc, sC, batch);
      for (int i = 0; i < batch; ++i)
        referenceGemm(tA, tB, M, N, K, 0.7f, A.data() + i * sA, lda, B.data() + i * sB, ldb, 0.5f,
                      expected.data() + i * sC, ldc);
      for (std::size_t i = 0; i < C.size(); ++i) ASSERT_NEAR(C[i], expected[i], 1e-5f) << i;
    }
}

TEST(GptOps, CausalSoftmaxSeesOnlyEarlierPositions) {
  auto d = makeCpuDevice();
  const int S = 6, matrices = 3;
  const auto z = randomVector(std::size_t(matrices) * S * S, 4, -4.0f, 4.0f);
  std::vector<float> p(z.size(), -1.0f);
  d->causalSoftmaxForward(z.data(), p.data(), matrices, S);
  for (int m = 0; m < matrices; ++m)
    for (int i = 0; i < S; ++i) {
      const float* zr = z.data() + (m * S + i) * S;
      const float* pr = p.data() + (m * S + i) * S;
      double sum = 0;
      for (int j = 0; j <= i; ++j) sum += std::exp(double(zr[j]));
      for (int j = 0; j < S; ++j) {
        const double expected = j <= i ? std::exp(double(zr[j])) / sum : 0.0;
        ASSERT_NEAR(pr[j], expected, 1e-6) << m << " " << i << " " << j;
      }
    }
}

TEST(GptOps, CausalSoftmaxBackwardMatchesFiniteDifferences) {
  auto d = makeCpuDevice();
  const int S = 5, matrices = 2;
  const auto n = std::size_t(matrices) * S * S;
  auto z = randomVector(n, 5, -2.0f, 2.0f);
  const auto w = randomVector(n, 6); // loss = sum w * softmax(z)
  auto loss = [&](const std::vector<float>& scores) {
    std::vector<float> p(n);
    d->causalSoftmaxForward(scores.data(), p.data(), matrices, S);
    double l = 0;
    for (std::size_t i = 0; i < n; ++i) l += double(w[i]) * p[i];
    return l;
  };
  std::vector<float> p(n), ds(n);
  d->causalSoftmaxForward(z.data(), p.data(), matrices, S);
  d->causalSoftmaxBackward(p.data(), w.data(), ds.data(), matrices, S);
  // In place (dscores = dprobs) gives the same.
  auto inPlace = w;
  d->causalSoftmaxBackward(p.data(), inPlace.data(), inPlace.data(), matrices, S);
  for (std::size_t i = 0; i < n; ++i) {
    const float saved = z[i];
    z[i] = saved + 1e-3f;
    const double up = loss(z);
    z[i] = saved - 1e-3f;
    const double down = loss(z);
    z[i] = saved;
    EXPECT_NEAR(ds[i], (up - down) / 2e-3, 1e-3) << i;
    EXPECT_EQ(inPlace[i], ds[i]) << i;
  }
}

TEST(GptOps, LayerNormForwardMatchesTheDefinition) {
  auto d = makeCpuDevice();
  const int rows = 4, cols = 10;
  const auto x = randomVector(rows * cols, 7, -3.0f, 3.0f), g = randomVector(cols, 8), b = randomVector(cols, 9);
  std::vector<float> y(x.size()), mean(rows), rstd(rows);
  d->layerNormForward(x.data(), g.data(), b.data(), y.data(), mean.data(), rstd.data(), rows, cols);
  for (int r = 0; r < rows; ++r) {
    double mu = 0, var = 0;
    for (int c = 0; c < cols; ++c) mu += x[r * cols + c];
    mu /= cols;
    for (int c = 0; c < cols; ++c) var += (x[r * cols + c] - mu) * (x[r * cols + c] - mu);
    var /= cols;
    EXPECT_NEAR(mean[r], mu, 1e-6);
    EXPECT_NEAR(rstd[r], 1.0 / std::sqrt(var + kLayerNormEps), 1e-5);
    for (int c = 0; c < cols; ++c)
      EXPECT_NEAR(y[r * cols + c], (x[r * cols + c] - mu) / std::sqrt(var + kLayerNormEps) * g[c] + b[c], 1e-5);
  }
}

TEST(GptOps, LayerNormBackwardMatchesFiniteDifferences) {
  auto d = makeCpuDevice();
  const int rows = 3, cols = 7;
  auto x = randomVector(rows * cols, 10, -2.0f, 2.0f), g = randomVector(cols, 11), b = randomVector(cols, 12);
  const auto w = randomVector(rows * cols, 13);
  auto loss = [&] {
    std::vector<float> y(x.size()), mean(rows), rstd(rows);
    d->layerNormForward(x.data(), g.data(), b.data(), y.data(), mean.data(), rstd.data(), rows, cols);
    double l = 0;
    for (std::size_t i = 0; i < y.size(); ++i) l += double(w[i]) * y[i];
    return l;
  };
  std::vector<float> y(x.size()), mean(rows), rstd(rows), dx(x.size(), 0.25f), dg(cols, 0.0f), db(cols, 0.0f);
  d->layerNormForward(x.data(), g.data(), b.data(), y.data(), mean.data(), rstd.data(), rows, cols);
  d->layerNormBackward(x.data(), g.data(), mean.data(), rstd.data(), w.data(), dx.data(), dg.data(), db.data(), rows,
                       cols, true); // accumulates onto the 0.25 already there
  auto check = [&](std::vector<float>& v, const std::vector<float>& grad, float offset, const char* what) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      const float saved = v[i];
      v[i] = saved + 1e-3f;
      const double up = loss();
      v[i] = saved - 1e-3f;
      const double down = loss();
      v[i] = saved;
      EXPECT_NEAR(grad[i] - offset, (up - down) / 2e-3, 2e-3) << what << " " << i;
    }
  };
  check(x, dx, 0.25f, "x");
  check(g, dg, 0.0f, "gamma");
  check(b, db, 0.0f, "beta");
}

namespace {

// A tiny GPT: 2 sequences of 5 tokens, 2 blocks of width 8 with 2 heads, vocab 7.
struct TinyGpt {
  ModelShape shape{7, 8, 2, true, 2, 5};
  int B = 2;
  std::vector<std::vector<float>> params;
  std::vector<std::int32_t> tokens{1, 5, 3, 6, 0, 2, 2, 4, 1, 6}, targets{5, 3, 6, 0, 2, 2, 4, 1, 6, 3};
  float gradScale = 1.0f / 10.0f;

  explicit TinyGpt(unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    for (int k = 0; k < shape.unitCount(); ++k) {
      params.emplace_back(shape.unitSize(k));
      for (auto& p : params.back()) p = u(rng); // LayerNorm gains and biases too: catch their gradients
    }
  }

  double run(Device& d, std::vector<std::vector<float>>* grads) {
    const GptDims dims = GptDims::of(shape, B);
    const auto T = std::size_t(dims.T()), TH = T * std::size_t(dims.H), TV = T * std::size_t(dims.V);
    const int L = shape.layers;
    std::vector<std::vector<float>> xs(std::size_t(L + 1), std::vector<float>(TH));
    std::vector<std::vector<float>> saved(std::size_t(L), std::vector<float>(GptBlockSaved::floats(dims)));
    gptEmbeddingForward(d, params[0].data(), tokens.data(), xs[0].data(), dims);
    for (int l = 0; l < L; ++l) {
      const auto i = std::size_t(l);
      gptBlockForward(d, params[i + 1].data(), xs[i].data(), xs[i + 1].data(), GptBlockSaved::carve(saved[i].data(), dims),
                      dims);
    }
    std::vector<float> xn(TH), mean(T), rstd(T), logits(TV), dlogits(TV);
    const double loss = gptOutputForward(d, params.back().data(), xs.back().data(), targets.data(), xn.data(),
                                         mean.data(), rstd.data(), logits.data(), dlogits.data(), dims, gradScale);
    if (grads) {
      grads->clear();
      for (auto& p : params) grads->emplace_back(p.size(), 0.0f);
      std::vector<float> dy(TH), dx(TH), dxn(TH), scratch(gptBlockScratchFloats(dims));
      gptOutputBackward(d, params.back().data(), xs.back().data(), xn.data(), mean.data(), rstd.data(),
                        dlogits.data(), grads->back().data(), dy.data(), dxn.data(), dims);
      for (int l = L - 1; l >= 0; --l) {
        const auto i = std::size_t(l);
        gptBlockBackward(d, params[i + 1].data(), xs[i].data(), GptBlockSaved::carve(saved[i].data(), dims), dy.data(),
                         (*grads)[i + 1].data(), dx.data(), scratch.data(), dims);
        dy = dx;
      }
      gptEmbeddingBackward(d, tokens.data(), dy.data(), (*grads)[0].data(), dims);
    }
    return loss * gradScale;
  }
};

} // namespace

TEST(GptGradient, EveryParameterOfEveryUnitMatchesFiniteDifferences) {
  auto d = makeCpuDevice();
  TinyGpt m(3);
  std::vector<std::vector<float>> grads;
  m.run(*d, &grads);
  const float eps = 1e-2f;
  int checked = 0;
  for (std::size_t u = 0; u < m.params.size(); ++u) {
    for (std::size_t i = 0; i < m.params[u].size(); ++i) {
      const float saved = m.params[u][i];
      m.params[u][i] = saved + eps;
      const double up = m.run(*d, nullptr);
      m.params[u][i] = saved - eps;
      const double down = m.run(*d, nullptr);
      m.params[u][i] = saved;
      const double numeric = (up - down) / (2.0 * eps);
      EXPECT_NEAR(grads[u][i], numeric, 1e-3 + 2e-2 * std::abs(numeric)) << "unit " << u << " parameter " << i;
      ++checked;
    }
  }
  EXPECT_EQ(checked, static_cast<int>(m.params[0].size() + 2 * m.params[1].size() + m.params[3].size()));
}

TEST(GptGradient, APositionSeesOnlyTheTokensBeforeIt) {
  // Changing the last token of a sequence leaves every earlier position's loss alone:
  // the attention is causal.
  auto d = makeCpuDevice();
  TinyGpt m(4);
  const GptDims dims = GptDims::of(m.shape, m.B);
  auto rowLosses = [&] {
    std::vector<float> x(std::size_t(dims.T()) * dims.H), y(x.size());
    std::vector<float> saved(GptBlockSaved::floats(dims));
    gptEmbeddingForward(*d, m.params[0].data(), m.tokens.data(), x.data(), dims);
    for (int l = 0; l < m.shape.layers; ++l) {
      gptBlockForward(*d, m.params[std::size_t(l) + 1].data(), x.data(), y.data(), GptBlockSaved::carve(saved.data(), dims), dims);
      x = y;
    }
    std::vector<double> losses;
    for (int t = 0; t < dims.T(); ++t) {
      GptDims one = dims;
      one.B = 1;
      one.S = 1; // the output is per token: one row at a time
      std::vector<float> xn(std::size_t(dims.H)), mean(1), rstd(1), logits(std::size_t(dims.V)), dl(logits.size());
      losses.push_back(gptOutputForward(*d, m.params.back().data(), x.data() + std::size_t(t) * dims.H,
                                        m.targets.data() + t, xn.data(), mean.data(), rstd.data(), logits.data(),
                                        dl.data(), one, 1.0f));
    }
    return losses;
  };
  const auto before = rowLosses();
  m.tokens[4] = 3; // the last token of the first sequence
  const auto after = rowLosses();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(before[std::size_t(t)], after[std::size_t(t)]) << t;
  EXPECT_NE(before[4], after[4]);
  for (int t = 5; t < 10; ++t) EXPECT_EQ(before[std::size_t(t)], after[std::size_t(t)]) << t; // the other sequence
}

TEST(SyntheticLanguage, TheMlpsTokensAreWhatTheyWere) {
  // Step 0 and step 3 of seed 1, vocab 64, as the language made them before it had
  // sequences (printed from that version): the MLP's traces and lesson checks depend on these.
  SyntheticLanguage lang(64, 1);
  const auto a = lang.globalBatch(0, 8), b = lang.globalBatch(3, 4);
  EXPECT_EQ(a.rowLength, 1);
  EXPECT_EQ(a.inputs, (std::vector<std::int32_t>{36, 16, 12, 15, 0, 24, 25, 28}));
  EXPECT_EQ(a.targets, (std::vector<std::int32_t>{10, 16, 20, 37, 55, 43, 57, 20}));
  EXPECT_EQ(b.inputs, (std::vector<std::int32_t>{6, 34, 39, 26}));
  EXPECT_EQ(b.targets, (std::vector<std::int32_t>{10, 0, 62, 37}));
}

TEST(SyntheticLanguage, ASequenceRepeatsItsFirstPeriod) {
  const int S = 32, P = SyntheticLanguage::kCopyPeriod;
  SyntheticLanguage lang(64, 1, S);
  const auto batch = lang.globalBatch(2, 6);
  ASSERT_EQ(batch.rowLength, S);
  ASSERT_EQ(batch.inputs.size(), std::size_t(6 * S));
  int differentFromChainStart = 0;
  for (int r = 0; r < 6; ++r) {
    const std::int32_t* in = batch.inputs.data() + r * S;
    const std::int32_t* tg = batch.targets.data() + r * S;
    for (int i = 0; i + 1 < S; ++i) EXPECT_EQ(tg[i], in[i + 1]) << "targets are the next inputs";
    for (int i = P; i < S; ++i) EXPECT_EQ(in[i], in[i - P]) << "row " << r << " position " << i;
    // The target P - 1 positions on is the input P - 1 positions back: what attention can see.
    for (int i = P - 1; i < S; ++i) EXPECT_EQ(tg[i], in[i - (P - 1)]);
    differentFromChainStart += in[0] != in[1];
  }
  EXPECT_GT(differentFromChainStart, 0);
  // Rows are sequences: a slice takes whole ones.
  const auto slice = SyntheticLanguage::slice(batch, 2, 3);
  EXPECT_EQ(slice.rows(), 3);
  EXPECT_EQ(std::vector<std::int32_t>(slice.inputs.begin(), slice.inputs.begin() + S),
            std::vector<std::int32_t>(batch.inputs.begin() + 2 * S, batch.inputs.begin() + 3 * S));
  EXPECT_LT(lang.sequenceEntropy(), lang.entropy() / 4);
}

TEST(GptJob, ASpecAndATraceRecordBothCarryTheModel) {
  std::vector<JobIssue> issues;
  const auto spec = JobConfig::fromJson(nlohmann::json::parse(R"({"model":"gpt","heads":8,"seq_len":16})"), issues);
  ASSERT_TRUE(issues.empty()) << issues.front().message();
  EXPECT_EQ(spec.model, ModelKind::Gpt);
  EXPECT_EQ(spec.tokensPerRow(), 16);
  EXPECT_EQ(JobConfig{}.tokensPerRow(), 1);
  // A trace's job record: the launcher writes the model's description under "model".
  auto record = spec.toJson();
  record["model"] = spec.modelJson();
  const auto back = JobConfig::fromJson(record, issues, JobConfig(), JobConfig::OtherKeys::Skip);
  ASSERT_TRUE(issues.empty()) << issues.front().message();
  EXPECT_EQ(back.model, ModelKind::Gpt);
  EXPECT_EQ(back.heads, 8);
  EXPECT_EQ(back.seqLen, 16);
  // A record written before the GPT existed has no kind: it is the MLP's.
  record["model"] = {{"units", {"embedding", "block0", "output"}}};
  EXPECT_EQ(JobConfig::fromJson(record, issues, spec, JobConfig::OtherKeys::Skip).model, ModelKind::Mlp);
  EXPECT_TRUE(issues.empty());
  // What toJson writes is a description too, {"kind": "gpt"}, read back in a spec.
  EXPECT_EQ(spec.toJson()["model"], (nlohmann::json{{"kind", "gpt"}}));
  EXPECT_EQ(JobConfig::fromJson(spec.toJson(), issues).model, ModelKind::Gpt);
  EXPECT_TRUE(issues.empty());
  JobConfig::fromJson(nlohmann::json{{"model", {{"kind", "lstm"}}}}, issues);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues.front().field, "model");
}

TEST(GptJob, TheShapeCountsTheGptsLayouts) {
  JobConfig c;
  c.model = ModelKind::Gpt;
  c.hidden = 64;
  c.vocab = 50;
  c.seqLen = 20;
  const ModelShape s = c.shape();
  EXPECT_EQ(s.unitSize(0), std::size_t(50 * 64 + 20 * 64));
  EXPECT_EQ(s.unitSize(1), GptBlockLayout::of(64, 256).size);
  EXPECT_EQ(GptBlockLayout::of(64, 256).size, std::size_t(12 * 64 * 64 + 13 * 64)); // 12H^2 + 13H
  EXPECT_EQ(s.unitSize(c.layers + 1), std::size_t(2 * 64 + 64 * 50 + 50));
  // The MLP's shape is what it was.
  EXPECT_EQ(JobConfig{}.shape().unitSize(1), std::size_t(8 * 64 * 64 + 5 * 64));
}

// Tensor parallelism's slices of a block are a partition of the full layout (the
// replicated tensors in every slice), and assembling them gives the block back.
TEST(GptTensorParallel, TheSlicesPartitionTheBlockAndAssembleBack) {
  const int H = 16;
  const auto full = randomVector(GptBlockLayout::of(H, 4 * H).size, 11);
  for (int tp : {1, 2, 4}) {
    SCOPED_TRACE(testing::Message() << "tp " << tp);
    std::vector<int> seen(full.size(), 0);
    std::vector<float> slices;
    for (int r = 0; r < tp; ++r) {
      const auto idx = gptBlockSliceIndices(H, tp, r);
      ASSERT_EQ(idx.size(), GptBlockLayout::of(H, 4 * H / tp, H / tp).size);
      ModelShape shape;
      shape.gpt = true;
      shape.hidden = H;
      EXPECT_EQ(idx.size(), shape.unitSize(1, 4 * H / tp));
      for (std::size_t i : idx) {
        ASSERT_LT(i, full.size());
        ++seen[i];
        slices.push_back(full[i]);
      }
    }
    const auto l = GptBlockLayout::of(H, 4 * H);
    for (std::size_t i = 0; i < full.size(); ++i) {
      const bool replicated = i < l.Wqkv || (i >= l.bo && i < l.W1) || i >= l.b2;
      EXPECT_EQ(seen[i], replicated ? tp : 1) << "index " << i;
    }
    EXPECT_EQ(gptAssembleBlock(slices, H, tp), full);
  }
}

// A block split over t ranks (one thread and one CPU device each, summing through an
// in-process all-reduce where Megatron's f and g run) computes the whole block's
// output and input gradient on every rank, and each rank's parameter gradients are
// the whole block's at its slice.
TEST(GptTensorParallel, ASplitBlockComputesTheWholeBlock) {
  ModelShape shape;
  shape.gpt = true;
  shape.hidden = 16;
  shape.heads = 4;
  shape.seqLen = 5;
  const int B = 2;
  const GptDims whole = GptDims::of(shape, B);
  const auto TH = std::size_t(whole.T()) * std::size_t(whole.H);
  const auto params = randomVector(GptBlockLayout::of(whole).size, 21, -0.5f, 0.5f);
  const auto x = randomVector(TH, 22), dy = randomVector(TH, 23);

  auto cpu = makeCpuDevice();
  std::vector<float> y(TH), dx(TH), dparams(params.size(), 0.0f), saved(GptBlockSaved::floats(whole)),
      scratch(gptBlockScratchFloats(whole));
  gptBlockForward(*cpu, params.data(), x.data(), y.data(), GptBlockSaved::carve(saved.data(), whole), whole);
  gptBlockBackward(*cpu, params.data(), x.data(), GptBlockSaved::carve(saved.data(), whole), dy.data(), dparams.data(),
                   dx.data(), scratch.data(), whole);

  for (int tp : {2, 4}) {
    SCOPED_TRACE(testing::Message() << "tp " << tp);
    const GptDims local = GptDims::of(shape, B, tp);
    std::barrier sync(tp);
    std::vector<float*> buffers(std::size_t(tp), nullptr);
    int sumsPerRank = 0;
    struct Rank {
      std::vector<float> y, dx, dparams;
    };
    std::vector<Rank> out(static_cast<std::size_t>(tp));
    auto run = [&](int r) {
      auto dev = makeCpuDevice();
      auto allReduce = [&](float* p, std::size_t n) {
        buffers[std::size_t(r)] = p;
        sync.arrive_and_wait();
        std::vector<float> sum(n, 0.0f);
        for (float* b : buffers)
          for (std::size_t i = 0; i < n; ++i) sum[i] += b[i];
        sync.arrive_and_wait(); // every rank has read every partial
        std::copy(sum.begin(), sum.end(), p);
        if (r == 0) ++sumsPerRank;
      };
      const GptTpSums sums{allReduce, allReduce};
      const auto idx = gptBlockSliceIndices(shape.hidden, tp, r);
      std::vector<float> slice;
      for (std::size_t i : idx) slice.push_back(params[i]);
      Rank& o = out[std::size_t(r)];
      o.y.resize(TH);
      o.dx.resize(TH);
      o.dparams.assign(slice.size(), 0.0f);
      std::vector<float> s(GptBlockSaved::floats(local)), sc(gptBlockScratchFloats(local));
      gptBlockForward(*dev, slice.data(), x.data(), o.y.data(), GptBlockSaved::carve(s.data(), local), local, &sums);
      gptBlockBackward(*dev, slice.data(), x.data(), GptBlockSaved::carve(s.data(), local), dy.data(),
                       o.dparams.data(), o.dx.data(), sc.data(), local, &sums);
    };
    std::vector<std::thread> threads;
    for (int r = 0; r < tp; ++r) threads.emplace_back(run, r);
    for (auto& t : threads) t.join();

    EXPECT_EQ(sumsPerRank, 4) << "g twice in the forward, f's backward twice in the backward";
    for (int r = 0; r < tp; ++r) {
      SCOPED_TRACE(testing::Message() << "rank " << r);
      const Rank& o = out[std::size_t(r)];
      for (std::size_t i = 0; i < TH; ++i) {
        ASSERT_NEAR(o.y[i], y[i], 1e-5f) << "y " << i;
        ASSERT_NEAR(o.dx[i], dx[i], 1e-5f) << "dx " << i;
      }
      const auto idx = gptBlockSliceIndices(shape.hidden, tp, r);
      for (std::size_t k = 0; k < idx.size(); ++k)
        ASSERT_NEAR(o.dparams[k], dparams[idx[k]], 1e-4f * (1.0f + std::abs(dparams[idx[k]]))) << "parameter " << idx[k];
    }
  }
}
