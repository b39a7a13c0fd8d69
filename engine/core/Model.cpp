#include "core/Model.h"

#include "core/Gpt.h"

#include <cmath>

namespace shardlab {
namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1) from (seed, unit, index).
float uniform(std::uint64_t seed, int unit, std::size_t index) {
  const std::uint64_t h = splitmix64(seed * 0x100000001b3ULL ^ splitmix64(static_cast<std::uint64_t>(unit) << 40 ^ index));
  return static_cast<float>(static_cast<double>(h >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}

} // namespace

float initialValue(const ModelShape& s, std::uint64_t seed, int unit, std::size_t i) {
  const auto H = static_cast<std::size_t>(s.hidden), V = static_cast<std::size_t>(s.vocab), F = 4 * H;
  const float u = uniform(seed, unit, i);
  if (s.gpt) return gptInitialValue(s, unit, i, u);
  // Uniform with the variance of N(0, 1/fan_in): sqrt(3 / fan_in).
  switch (s.kindOf(unit)) {
  case UnitKind::Embedding: return u;
  case UnitKind::Output:
    return i < H * V ? u * std::sqrt(3.0f / static_cast<float>(H)) : 0.0f;
  case UnitKind::Block:
    if (i < H * F) return u * std::sqrt(3.0f / static_cast<float>(H));
    if (i < H * F + F) return 0.0f;
    // The second projection starts small so the residual stream stays near identity.
    if (i < H * F + F + F * H) return 0.5f * u * std::sqrt(3.0f / static_cast<float>(F));
    return 0.0f;
  }
  return 0.0f;
}

void initialBlockSlice(const ModelShape& s, std::uint64_t seed, int unit, int c0, int F, float* out) {
  if (s.gpt) { // the slice of tensor-parallel rank c0 / F of 4H / F (core/Gpt.h)
    std::size_t k = 0;
    for (std::size_t i : gptBlockSliceIndices(s.hidden, 4 * s.hidden / F, c0 / F)) out[k++] = initialValue(s, seed, unit, i);
    return;
  }
  const auto H = static_cast<std::size_t>(s.hidden), full = 4 * H, f = static_cast<std::size_t>(F),
             c = static_cast<std::size_t>(c0);
  std::size_t k = 0;
  for (std::size_t r = 0; r < H; ++r)
    for (std::size_t j = 0; j < f; ++j) out[k++] = initialValue(s, seed, unit, r * full + c + j);
  for (std::size_t j = 0; j < f; ++j) out[k++] = initialValue(s, seed, unit, H * full + c + j);
  for (std::size_t r = 0; r < f; ++r)
    for (std::size_t j = 0; j < H; ++j) out[k++] = initialValue(s, seed, unit, H * full + full + (c + r) * H + j);
  for (std::size_t j = 0; j < H; ++j) out[k++] = initialValue(s, seed, unit, H * full + full + full * H + j);
}

void embeddingForward(Device& d, const float* table, const std::int32_t* tokens, float* out, int n, int H) {
  d.embeddingForward(tokens, table, out, n, H);
}

void embeddingBackward(Device& d, const std::int32_t* tokens, const float* dout, float* dtable, int n, int H) {
  d.embeddingBackward(tokens, dout, dtable, n, H);
}

void mlpForward(Device& d, const float* params, const float* x, float* a, float* h, float* partial, int n, int H,
                int F) {
  const auto w = BlockView::of(params, H, F);
  d.gemm(false, false, n, F, H, 1.0f, x, H, w.W1, F, 0.0f, a, F);
  d.addBias(a, w.b1, n, F);
  d.geluForward(a, h, static_cast<std::size_t>(n) * static_cast<std::size_t>(F));
  d.gemm(false, false, n, H, F, 1.0f, h, F, w.W2, H, 0.0f, partial, H);
}

void mlpBackward(Device& d, const float* params, const float* x, const float* a, const float* h, const float* dy,
                 float* dparams, float* dxPartial, float* da, int n, int H, int F) {
  const auto w = BlockView::of(params, H, F);
  float* dW1 = dparams;
  float* db1 = dW1 + static_cast<std::size_t>(H) * F;
  float* dW2 = db1 + F;
  // dW2 += h^T dy ; dh = dy W2^T (into da) ; da = gelu'(a) * dh
  d.gemm(true, false, F, H, n, 1.0f, h, F, dy, H, 1.0f, dW2, H);
  d.gemm(false, true, n, F, H, 1.0f, dy, H, w.W2, H, 0.0f, da, F);
  d.geluBackward(a, da, da, static_cast<std::size_t>(n) * static_cast<std::size_t>(F), false);
  d.gemm(true, false, H, F, n, 1.0f, x, H, da, F, 1.0f, dW1, F);
  d.biasGrad(da, db1, n, F, true);
  d.gemm(false, true, n, H, F, 1.0f, da, F, w.W1, F, 0.0f, dxPartial, H);
}

void mlpBackwardInput(Device& d, const float* params, const float* a, const float* dy, float* dxPartial, float* da,
                      int n, int H, int F) {
  const auto w = BlockView::of(params, H, F);
  d.gemm(false, true, n, F, H, 1.0f, dy, H, w.W2, H, 0.0f, da, F);
  d.geluBackward(a, da, da, static_cast<std::size_t>(n) * static_cast<std::size_t>(F), false);
  d.gemm(false, true, n, H, F, 1.0f, da, F, w.W1, F, 0.0f, dxPartial, H);
}

void mlpBackwardWeight(Device& d, const float* x, const float* h, const float* dy, const float* da, float* dparams,
                       int n, int H, int F) {
  float* dW1 = dparams;
  float* db1 = dW1 + static_cast<std::size_t>(H) * F;
  float* dW2 = db1 + F;
  d.gemm(true, false, F, H, n, 1.0f, h, F, dy, H, 1.0f, dW2, H);
  d.gemm(true, false, H, F, n, 1.0f, x, H, da, F, 1.0f, dW1, F);
  d.biasGrad(da, db1, n, F, true);
}

double outputForward(Device& d, const float* params, const float* x, const std::int32_t* targets, float* logits,
                     float* dlogits, int n, int H, int V, float gradScale) {
  const float* W = params;
  const float* b = params + static_cast<std::size_t>(H) * V;
  d.gemm(false, false, n, V, H, 1.0f, x, H, W, V, 0.0f, logits, V);
  d.addBias(logits, b, n, V);
  return d.softmaxCrossEntropy(logits, targets, dlogits, n, V, gradScale);
}

void outputBackward(Device& d, const float* params, const float* x, const float* dlogits, float* dparams, float* dx,
                    int n, int H, int V) {
  float* dW = dparams;
  float* db = dparams + static_cast<std::size_t>(H) * V;
  d.gemm(true, false, H, V, n, 1.0f, x, H, dlogits, V, 1.0f, dW, V);
  d.biasGrad(dlogits, db, n, V, true);
  d.gemm(false, true, n, H, V, 1.0f, dlogits, V, params, V, 0.0f, dx, H);
}

void outputBackwardInput(Device& d, const float* params, const float* dlogits, float* dx, int n, int H, int V) {
  d.gemm(false, true, n, H, V, 1.0f, dlogits, V, params, V, 0.0f, dx, H);
}

void outputBackwardWeight(Device& d, const float* x, const float* dlogits, float* dparams, int n, int H, int V) {
  d.gemm(true, false, H, V, n, 1.0f, x, H, dlogits, V, 1.0f, dparams, V);
  d.biasGrad(dlogits, dparams + static_cast<std::size_t>(H) * V, n, V, true);
}

} // namespace shardlab
