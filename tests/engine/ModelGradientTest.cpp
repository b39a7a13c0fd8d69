// The backward passes of every unit, checked against central finite differences of
// the loss computed by the forward passes.
#include "core/Device.h"
#include "core/Model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace shardlab;

namespace {

struct TinyModel {
  ModelShape shape{7, 4, 2}; // vocab, hidden, layers
  std::vector<std::vector<float>> params;
  std::vector<std::int32_t> tokens{1, 5, 3, 6, 0}, targets{2, 2, 4, 1, 6};
  int n = 5;
  float gradScale = 1.0f / 5.0f;

  explicit TinyModel(std::uint64_t seed) {
    std::mt19937 rng(static_cast<unsigned>(seed));
    std::uniform_real_distribution<float> u(-0.5f, 0.5f);
    for (int k = 0; k < shape.unitCount(); ++k) {
      params.emplace_back(shape.unitSize(k));
      for (auto& p : params.back()) p = u(rng); // biases too: catch bias-gradient bugs
    }
  }

  // Loss (mean over the batch) and, when grads != nullptr, its gradient.
  double run(Device& d, std::vector<std::vector<float>>* grads) {
    const int H = shape.hidden, V = shape.vocab, F = 4 * H;
    const auto nH = static_cast<std::size_t>(n * H), nF = static_cast<std::size_t>(n * F);
    std::vector<std::vector<float>> xs(static_cast<std::size_t>(shape.layers + 2), std::vector<float>(nH));
    std::vector<std::vector<float>> as(static_cast<std::size_t>(shape.layers), std::vector<float>(nF)), hs = as;
    embeddingForward(d, params[0].data(), tokens.data(), xs[1].data(), n, H);
    for (int b = 0; b < shape.layers; ++b) {
      auto& x = xs[static_cast<std::size_t>(b + 1)];
      auto& y = xs[static_cast<std::size_t>(b + 2)];
      const auto& p = params[static_cast<std::size_t>(b + 1)];
      mlpForward(d, p.data(), x.data(), as[static_cast<std::size_t>(b)].data(), hs[static_cast<std::size_t>(b)].data(), y.data(), n, H, F);
      d.addBias(y.data(), BlockView::of(p.data(), H, F).b2, n, H);
      d.add(y.data(), x.data(), nH);
    }
    std::vector<float> logits(static_cast<std::size_t>(n * V)), dlogits(logits.size());
    const double loss = outputForward(d, params.back().data(), xs.back().data(), targets.data(), logits.data(),
                                      dlogits.data(), n, H, V, gradScale);
    if (grads) {
      grads->clear();
      for (auto& p : params) grads->emplace_back(p.size(), 0.0f);
      std::vector<float> dy(nH), dx(nH), da(nF);
      outputBackward(d, params.back().data(), xs.back().data(), dlogits.data(), grads->back().data(), dy.data(), n, H, V);
      for (int b = shape.layers - 1; b >= 0; --b) {
        const auto& p = params[static_cast<std::size_t>(b + 1)];
        auto& g = (*grads)[static_cast<std::size_t>(b + 1)];
        mlpBackward(d, p.data(), xs[static_cast<std::size_t>(b + 1)].data(), as[static_cast<std::size_t>(b)].data(),
                    hs[static_cast<std::size_t>(b)].data(), dy.data(), g.data(), dx.data(), da.data(), n, H, F);
        d.biasGrad(dy.data(), blockB2(g.data(), H, F), n, H, true);
        d.add(dx.data(), dy.data(), nH);
        dy = dx;
      }
      embeddingBackward(d, tokens.data(), dy.data(), (*grads)[0].data(), n, H);
    }
    return loss * gradScale;
  }
};

} // namespace

TEST(ModelGradient, EveryUnitMatchesFiniteDifferences) {
  auto d = makeCpuDevice();
  TinyModel m(3);
  std::vector<std::vector<float>> grads;
  m.run(*d, &grads);
  const float eps = 1e-2f;
  int checked = 0;
  for (std::size_t u = 0; u < m.params.size(); ++u) {
    // Every parameter of the small units, a stride of the blocks' (W1, b1, W2, b2 all hit).
    const std::size_t stride = m.params[u].size() > 100 ? 3 : 1;
    for (std::size_t i = 0; i < m.params[u].size(); i += stride) {
      const float saved = m.params[u][i];
      m.params[u][i] = saved + eps;
      const double up = m.run(*d, nullptr);
      m.params[u][i] = saved - eps;
      const double down = m.run(*d, nullptr);
      m.params[u][i] = saved;
      const double numeric = (up - down) / (2.0 * eps);
      const double analytic = grads[u][i];
      EXPECT_NEAR(analytic, numeric, 2e-3 + 2e-2 * std::abs(numeric)) << "unit " << u << " parameter " << i;
      ++checked;
    }
  }
  EXPECT_GT(checked, 150);
}

TEST(ModelGradient, GeluBackwardMatchesFiniteDifferences) {
  auto d = makeCpuDevice();
  std::vector<float> x{-3.0f, -1.2f, -0.3f, 0.0f, 0.4f, 1.7f, 2.5f}, dy(x.size(), 1.0f), dx(x.size());
  d->geluBackward(x.data(), dy.data(), dx.data(), x.size(), false);
  for (std::size_t i = 0; i < x.size(); ++i) {
    float up = x[i] + 1e-3f, down = x[i] - 1e-3f, yu = 0, yd = 0;
    d->geluForward(&up, &yu, 1);
    d->geluForward(&down, &yd, 1);
    EXPECT_NEAR(dx[i], (yu - yd) / 2e-3f, 2e-3f) << "x = " << x[i];
  }
}

TEST(ModelGradient, AdamWFirstStepMovesByLearningRate) {
  // With bias correction the first AdamW step is lr * sign(g) (up to eps).
  auto d = makeCpuDevice();
  std::vector<float> p{1.0f, -2.0f, 0.5f}, g{0.3f, -4.0f, 1e-3f}, m(3, 0.0f), v(3, 0.0f);
  AdamWParams hp;
  hp.lr = 0.01f;
  d->adamw(p.data(), g.data(), m.data(), v.data(), 3, hp, 1);
  EXPECT_NEAR(p[0], 1.0f - 0.01f, 1e-5f);
  EXPECT_NEAR(p[1], -2.0f + 0.01f, 1e-5f);
  EXPECT_NEAR(p[2], 0.5f - 0.01f, 1e-4f);
}

// The zero-bubble schedules' split backward: B (input gradient) then W (weight
// gradients) gives what the whole backward gives, bit for bit: every output element is
// computed by the same operations on the same inputs, only at another time. Gradients
// start non-zero, as when micro-batches accumulate.
TEST(ModelGradient, SplitBackwardInputThenWeightIsTheWholeBackwardBitForBit) {
  auto d = makeCpuDevice();
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  auto random = [&](std::size_t count) {
    std::vector<float> v(count);
    for (auto& x : v) x = u(rng);
    return v;
  };
  const int n = 6, H = 8, F = 4 * H, V = 11;
  const auto nH = static_cast<std::size_t>(n * H), nF = static_cast<std::size_t>(n * F);

  // A block: forward for a and h, then both backwards from the same dy.
  const std::size_t blockSize = static_cast<std::size_t>(H) * F * 2 + F + H;
  const auto params = random(blockSize), x = random(nH), dy = random(nH), start = random(blockSize);
  std::vector<float> a(nF), h(nF), partial(nH);
  mlpForward(*d, params.data(), x.data(), a.data(), h.data(), partial.data(), n, H, F);
  std::vector<float> wholeGrad = start, wholeDx(nH), scratch(nF);
  mlpBackward(*d, params.data(), x.data(), a.data(), h.data(), dy.data(), wholeGrad.data(), wholeDx.data(),
              scratch.data(), n, H, F);
  std::vector<float> splitGrad = start, splitDx(nH), da(nF);
  mlpBackwardInput(*d, params.data(), a.data(), dy.data(), splitDx.data(), da.data(), n, H, F);
  mlpBackwardWeight(*d, x.data(), h.data(), dy.data(), da.data(), splitGrad.data(), n, H, F);
  EXPECT_EQ(splitDx, wholeDx);
  EXPECT_EQ(splitGrad, wholeGrad);
  EXPECT_NE(splitGrad, start) << "the weight gradients were accumulated";

  // The output layer.
  const std::size_t outSize = static_cast<std::size_t>(H) * V + V;
  const auto outParams = random(outSize), dlogits = random(static_cast<std::size_t>(n * V)),
             outStart = random(outSize);
  std::vector<float> wholeOut = outStart, wholeOutDx(nH);
  outputBackward(*d, outParams.data(), x.data(), dlogits.data(), wholeOut.data(), wholeOutDx.data(), n, H, V);
  std::vector<float> splitOut = outStart, splitOutDx(nH);
  outputBackwardInput(*d, outParams.data(), dlogits.data(), splitOutDx.data(), n, H, V);
  outputBackwardWeight(*d, x.data(), dlogits.data(), splitOut.data(), n, H, V);
  EXPECT_EQ(splitOutDx, wholeOutDx);
  EXPECT_EQ(splitOut, wholeOut);
  EXPECT_NE(splitOut, outStart);
}

// The check above can fail: W without B's da (a zero da) gives other gradients.
TEST(ModelGradient, SplitBackwardWeightWithoutItsInputHalfDiffers) {
  auto d = makeCpuDevice();
  const int n = 3, H = 4, F = 16;
  const std::size_t blockSize = static_cast<std::size_t>(H) * F * 2 + F + H;
  std::vector<float> params(blockSize, 0.25f), x(static_cast<std::size_t>(n * H), 0.5f), dy = x;
  std::vector<float> a(static_cast<std::size_t>(n * F)), h = a, partial(static_cast<std::size_t>(n * H));
  mlpForward(*d, params.data(), x.data(), a.data(), h.data(), partial.data(), n, H, F);
  std::vector<float> whole(blockSize, 0.0f), dx(partial.size()), scratch(a.size());
  mlpBackward(*d, params.data(), x.data(), a.data(), h.data(), dy.data(), whole.data(), dx.data(), scratch.data(), n,
              H, F);
  std::vector<float> split(blockSize, 0.0f), zeroDa(a.size(), 0.0f);
  mlpBackwardWeight(*d, x.data(), h.data(), dy.data(), zeroDa.data(), split.data(), n, H, F);
  EXPECT_NE(split, whole);
}
