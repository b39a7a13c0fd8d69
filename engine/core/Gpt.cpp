#include "core/Gpt.h"

#include "core/Model.h"

#include <cmath>

namespace shardlab {
namespace {

std::size_t sz(int v) { return static_cast<std::size_t>(v); }

// Pointers to head j of sequence b inside the packed qkv rows (ld 3H): Q, then K at +H, V at +2H.
const float* qkvOf(const float* qkv, const GptDims& d, int b) {
  return qkv + sz(b) * sz(d.S) * sz(3 * d.H);
}

} // namespace

GptBlockLayout GptBlockLayout::of(int Hi, int Fi) {
  const std::size_t H = sz(Hi), F = sz(Fi);
  GptBlockLayout l{};
  std::size_t o = 0;
  l.ln1g = o; o += H;
  l.ln1b = o; o += H;
  l.Wqkv = o; o += H * 3 * H;
  l.bqkv = o; o += 3 * H;
  l.Wo = o; o += H * H;
  l.bo = o; o += H;
  l.ln2g = o; o += H;
  l.ln2b = o; o += H;
  l.W1 = o; o += H * F;
  l.b1 = o; o += F;
  l.W2 = o; o += F * H;
  l.b2 = o; o += H;
  l.size = o;
  return l;
}

float gptInitialValue(const ModelShape& s, int unit, std::size_t i, float u) {
  const std::size_t H = sz(s.hidden), V = sz(s.vocab);
  const float inH = std::sqrt(3.0f / static_cast<float>(H)); // uniform with the variance of N(0, 1/H)
  switch (s.kindOf(unit)) {
  case UnitKind::Embedding: return u; // tokens and positions alike: LN1 rescales their sum
  case UnitKind::Output:
    if (i < H) return 1.0f;   // lnf_g
    if (i < 2 * H) return 0.0f;
    return i < 2 * H + H * V ? u * inH : 0.0f;
  case UnitKind::Block: {
    const auto l = GptBlockLayout::of(s.hidden, 4 * s.hidden);
    if (i < l.ln1b || (i >= l.ln2g && i < l.ln2b)) return 1.0f; // the LayerNorms' gains
    if (i >= l.Wqkv && i < l.bqkv) return u * inH;
    // The projections back into the residual stream start small, as in Model.h's
    // blocks, so each block starts near the identity.
    if (i >= l.Wo && i < l.bo) return 0.5f * u * inH;
    if (i >= l.W1 && i < l.b1) return u * inH;
    if (i >= l.W2 && i < l.b2) return 0.5f * u * std::sqrt(3.0f / static_cast<float>(4 * H));
    return 0.0f; // biases, the LayerNorms' shifts
  }
  }
  return 0.0f;
}

std::size_t GptBlockSaved::floats(const GptDims& d) {
  const std::size_t T = sz(d.T()), H = sz(d.H), F = sz(d.F);
  // ln1, mean1, rstd1, qkv, probs, attn, x1, ln2, mean2, rstd2, a, h: as carve() takes them
  return (T * H + 2 * T) + T * 3 * H + sz(d.B) * sz(d.heads) * sz(d.S) * sz(d.S) + 2 * T * H + (T * H + 2 * T) +
         2 * T * F;
}

GptBlockSaved GptBlockSaved::carve(float* p, const GptDims& d) {
  const std::size_t T = sz(d.T()), H = sz(d.H), F = sz(d.F);
  GptBlockSaved s{};
  auto take = [&](std::size_t n) {
    float* q = p;
    p += n;
    return q;
  };
  s.ln1 = take(T * H);
  s.mean1 = take(T);
  s.rstd1 = take(T);
  s.qkv = take(T * 3 * H);
  s.probs = take(sz(d.B) * sz(d.heads) * sz(d.S) * sz(d.S));
  s.attn = take(T * H);
  s.x1 = take(T * H);
  s.ln2 = take(T * H);
  s.mean2 = take(T);
  s.rstd2 = take(T);
  s.a = take(T * F);
  s.h = take(T * F);
  return s;
}

std::size_t gptBlockScratchFloats(const GptDims& d) {
  const std::size_t T = sz(d.T()), H = sz(d.H), F = sz(d.F);
  // dqkv [T x 3H], dprobs [B x heads x S x S], dattn, dx1, dln [T x H] each, da [T x F]
  return T * 3 * H + sz(d.B) * sz(d.heads) * sz(d.S) * sz(d.S) + 3 * T * H + T * F;
}

void gptEmbeddingForward(Device& dev, const float* params, const std::int32_t* tokens, float* out, const GptDims& d) {
  const float* pos = params + sz(d.V) * sz(d.H);
  dev.embeddingForward(tokens, params, out, d.T(), d.H);
  const std::size_t SH = sz(d.S) * sz(d.H);
  for (int b = 0; b < d.B; ++b) dev.add(out + sz(b) * SH, pos, SH);
}

void gptEmbeddingBackward(Device& dev, const std::int32_t* tokens, const float* dout, float* dparams,
                          const GptDims& d) {
  float* dpos = dparams + sz(d.V) * sz(d.H);
  dev.embeddingBackward(tokens, dout, dparams, d.T(), d.H);
  const std::size_t SH = sz(d.S) * sz(d.H);
  for (int b = 0; b < d.B; ++b) dev.add(dpos, dout + sz(b) * SH, SH);
}

void gptBlockForward(Device& dev, const float* params, const float* x, float* y, const GptBlockSaved& s,
                     const GptDims& d) {
  const auto l = GptBlockLayout::of(d.H, d.F);
  const int T = d.T(), H = d.H, S = d.S, a = d.heads, dh = d.headSize();
  const std::size_t SS = sz(S) * sz(S), TH = sz(T) * sz(H);
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));

  dev.layerNormForward(x, params + l.ln1g, params + l.ln1b, s.ln1, s.mean1, s.rstd1, T, H);
  dev.gemm(false, false, T, 3 * H, H, 1.0f, s.ln1, H, params + l.Wqkv, 3 * H, 0.0f, s.qkv, 3 * H);
  dev.addBias(s.qkv, params + l.bqkv, T, 3 * H);
  // Per sequence, every head at once: scores = scale Q K^T [S x S], one matrix per head.
  for (int b = 0; b < d.B; ++b) {
    const float* q = qkvOf(s.qkv, d, b);
    dev.gemmStridedBatched(false, true, S, S, dh, scale, q, 3 * H, dh, q + H, 3 * H, dh, 0.0f,
                           s.probs + sz(b) * sz(a) * SS, S, static_cast<std::int64_t>(SS), a);
  }
  dev.causalSoftmaxForward(s.probs, s.probs, d.B * a, S);
  // attn[:, head j] = P V, written into the head's columns of attn (ld H).
  for (int b = 0; b < d.B; ++b) {
    const float* q = qkvOf(s.qkv, d, b);
    dev.gemmStridedBatched(false, false, S, dh, S, 1.0f, s.probs + sz(b) * sz(a) * SS, S,
                           static_cast<std::int64_t>(SS), q + 2 * H, 3 * H, dh, 0.0f,
                           s.attn + sz(b) * sz(S) * sz(H), H, dh, a);
  }
  dev.gemm(false, false, T, H, H, 1.0f, s.attn, H, params + l.Wo, H, 0.0f, s.x1, H);
  dev.addBias(s.x1, params + l.bo, T, H);
  dev.add(s.x1, x, TH);

  dev.layerNormForward(s.x1, params + l.ln2g, params + l.ln2b, s.ln2, s.mean2, s.rstd2, T, H);
  mlpForward(dev, params + l.W1, s.ln2, s.a, s.h, y, T, H, d.F);
  dev.addBias(y, params + l.b2, T, H);
  dev.add(y, s.x1, TH);
}

void gptBlockBackward(Device& dev, const float* params, const float* x, const GptBlockSaved& s, const float* dy,
                      float* dparams, float* dx, float* scratch, const GptDims& d) {
  const auto l = GptBlockLayout::of(d.H, d.F);
  const int T = d.T(), H = d.H, S = d.S, a = d.heads, dh = d.headSize();
  const std::size_t SS = sz(S) * sz(S), TH = sz(T) * sz(H);
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  float* dqkv = scratch;
  float* dprobs = dqkv + sz(T) * 3 * sz(H);
  float* dattn = dprobs + sz(d.B) * sz(a) * SS;
  float* dx1 = dattn + TH;
  float* dln = dx1 + TH;
  float* da = dln + TH;

  // The MLP half: y = x1 + mlp(LN2(x1)).
  dev.biasGrad(dy, dparams + l.b2, T, H, true);
  mlpBackward(dev, params + l.W1, s.ln2, s.a, s.h, dy, dparams + l.W1, dln, da, T, H, d.F);
  dev.copy(dx1, dy, TH * sizeof(float)); // the residual path
  dev.layerNormBackward(s.x1, params + l.ln2g, s.mean2, s.rstd2, dln, dx1, dparams + l.ln2g, dparams + l.ln2b, T, H,
                        true);

  // The attention half: x1 = x + attn Wo + bo.
  dev.biasGrad(dx1, dparams + l.bo, T, H, true);
  dev.gemm(true, false, H, H, T, 1.0f, s.attn, H, dx1, H, 1.0f, dparams + l.Wo, H);
  dev.gemm(false, true, T, H, H, 1.0f, dx1, H, params + l.Wo, H, 0.0f, dattn, H);
  for (int b = 0; b < d.B; ++b) {
    const float* q = qkvOf(s.qkv, d, b);
    float* dq = dqkv + sz(b) * sz(S) * sz(3 * H);
    const float* dO = dattn + sz(b) * sz(S) * sz(H);
    const float* P = s.probs + sz(b) * sz(a) * SS;
    float* dP = dprobs + sz(b) * sz(a) * SS;
    // dP = dO V^T ; dV = P^T dO
    dev.gemmStridedBatched(false, true, S, S, dh, 1.0f, dO, H, dh, q + 2 * H, 3 * H, dh, 0.0f, dP, S,
                           static_cast<std::int64_t>(SS), a);
    dev.gemmStridedBatched(true, false, S, dh, S, 1.0f, P, S, static_cast<std::int64_t>(SS), dO, H, dh, 0.0f,
                           dq + 2 * H, 3 * H, dh, a);
  }
  dev.causalSoftmaxBackward(s.probs, dprobs, dprobs, d.B * a, S); // dprobs now holds dscores / scale
  for (int b = 0; b < d.B; ++b) {
    const float* q = qkvOf(s.qkv, d, b);
    float* dq = dqkv + sz(b) * sz(S) * sz(3 * H);
    const float* dS = dprobs + sz(b) * sz(a) * SS;
    // scores = scale Q K^T: dQ = scale dS K ; dK = scale dS^T Q
    dev.gemmStridedBatched(false, false, S, dh, S, scale, dS, S, static_cast<std::int64_t>(SS), q + H, 3 * H, dh,
                           0.0f, dq, 3 * H, dh, a);
    dev.gemmStridedBatched(true, false, S, dh, S, scale, dS, S, static_cast<std::int64_t>(SS), q, 3 * H, dh, 0.0f,
                           dq + H, 3 * H, dh, a);
  }
  dev.biasGrad(dqkv, dparams + l.bqkv, T, 3 * H, true);
  dev.gemm(true, false, H, 3 * H, T, 1.0f, s.ln1, H, dqkv, 3 * H, 1.0f, dparams + l.Wqkv, 3 * H);
  dev.gemm(false, true, T, H, 3 * H, 1.0f, dqkv, 3 * H, params + l.Wqkv, 3 * H, 0.0f, dln, H);
  dev.copy(dx, dx1, TH * sizeof(float)); // the residual path
  dev.layerNormBackward(x, params + l.ln1g, s.mean1, s.rstd1, dln, dx, dparams + l.ln1g, dparams + l.ln1b, T, H, true);
}

double gptOutputForward(Device& dev, const float* params, const float* x, const std::int32_t* targets, float* xn,
                        float* mean, float* rstd, float* logits, float* dlogits, const GptDims& d, float gradScale) {
  const std::size_t H = sz(d.H);
  dev.layerNormForward(x, params, params + H, xn, mean, rstd, d.T(), d.H);
  return outputForward(dev, params + 2 * H, xn, targets, logits, dlogits, d.T(), d.H, d.V, gradScale);
}

void gptOutputBackward(Device& dev, const float* params, const float* x, const float* xn, const float* mean,
                       const float* rstd, const float* dlogits, float* dparams, float* dx, float* dxn,
                       const GptDims& d) {
  const std::size_t H = sz(d.H);
  outputBackward(dev, params + 2 * H, xn, dlogits, dparams + 2 * H, dxn, d.T(), d.H, d.V);
  dev.layerNormBackward(x, params, mean, rstd, dxn, dx, dparams, dparams + H, d.T(), d.H, false);
}

} // namespace shardlab
