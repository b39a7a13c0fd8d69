#include "core/Gpt.h"

#include "core/Model.h"

#include <cmath>

namespace shardlab {
namespace {

std::size_t sz(int v) { return static_cast<std::size_t>(v); }

// Sequence b's rows of the packed qkv (ld 3A): Q, then K at +A, V at +2A.
const float* qkvOf(const float* qkv, const GptDims& d, int b) {
  return qkv + sz(b) * sz(d.S) * sz(3 * d.attnWidth());
}

} // namespace

GptBlockLayout GptBlockLayout::of(int Hi, int Fi, int Ai) {
  const std::size_t H = sz(Hi), F = sz(Fi), A = Ai > 0 ? sz(Ai) : H;
  GptBlockLayout l{};
  std::size_t o = 0;
  l.ln1g = o; o += H;
  l.ln1b = o; o += H;
  l.Wqkv = o; o += H * 3 * A;
  l.bqkv = o; o += 3 * A;
  l.Wo = o; o += A * H;
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

std::vector<std::size_t> gptBlockSliceIndices(int Hi, int tp, int rank) {
  const std::size_t H = sz(Hi), A = H / sz(tp), F = 4 * H / sz(tp), r = sz(rank);
  const auto full = GptBlockLayout::of(Hi, 4 * Hi);
  std::vector<std::size_t> idx;
  idx.reserve(GptBlockLayout::of(Hi, static_cast<int>(F), static_cast<int>(A)).size);
  auto whole = [&](std::size_t from, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) idx.push_back(from + i);
  };
  // Rank r's columns of each of Q, K and V: [p H + r A, p H + (r+1) A) for p = 0, 1, 2.
  auto qkvColumns = [&](std::size_t rowStart) {
    for (std::size_t p = 0; p < 3; ++p)
      for (std::size_t j = 0; j < A; ++j) idx.push_back(rowStart + p * H + r * A + j);
  };
  whole(full.ln1g, 2 * H); // ln1_g | ln1_b
  for (std::size_t row = 0; row < H; ++row) qkvColumns(full.Wqkv + row * 3 * H);
  qkvColumns(full.bqkv);
  whole(full.Wo + r * A * H, A * H); // rows [r A, (r+1) A) of Wo
  whole(full.bo, 3 * H);             // bo | ln2_g | ln2_b
  for (std::size_t row = 0; row < H; ++row) whole(full.W1 + row * 4 * H + r * F, F);
  whole(full.b1 + r * F, F);
  whole(full.W2 + r * F * H, F * H); // rows [r F, (r+1) F) of W2
  whole(full.b2, H);
  return idx;
}

std::vector<float> gptAssembleBlock(const std::vector<float>& slices, int H, int tp) {
  std::vector<float> full(GptBlockLayout::of(H, 4 * H).size);
  for (int r = tp - 1; r >= 0; --r) { // rank 0 last: its copy of the replicated tensors stays
    const auto idx = gptBlockSliceIndices(H, tp, r);
    const float* slice = slices.data() + sz(r) * idx.size();
    for (std::size_t k = 0; k < idx.size(); ++k) full[idx[k]] = slice[k];
  }
  return full;
}

std::size_t GptBlockSaved::floats(const GptDims& d) {
  const std::size_t T = sz(d.T()), H = sz(d.H), F = sz(d.F), A = sz(d.attnWidth());
  // ln1, mean1, rstd1, qkv, probs, attn, x1, ln2, mean2, rstd2, a, h: as carve() takes them
  return (T * H + 2 * T) + T * 3 * A + sz(d.B) * sz(d.localHeads()) * sz(d.S) * sz(d.S) + T * A + T * H +
         (T * H + 2 * T) + 2 * T * F;
}

GptBlockSaved GptBlockSaved::carve(float* p, const GptDims& d) {
  const std::size_t T = sz(d.T()), H = sz(d.H), F = sz(d.F), A = sz(d.attnWidth());
  GptBlockSaved s{};
  auto take = [&](std::size_t n) {
    float* q = p;
    p += n;
    return q;
  };
  s.ln1 = take(T * H);
  s.mean1 = take(T);
  s.rstd1 = take(T);
  s.qkv = take(T * 3 * A);
  s.probs = take(sz(d.B) * sz(d.localHeads()) * sz(d.S) * sz(d.S));
  s.attn = take(T * A);
  s.x1 = take(T * H);
  s.ln2 = take(T * H);
  s.mean2 = take(T);
  s.rstd2 = take(T);
  s.a = take(T * F);
  s.h = take(T * F);
  return s;
}

std::size_t gptBlockScratchFloats(const GptDims& d) {
  const std::size_t T = sz(d.T()), H = sz(d.H), F = sz(d.F), A = sz(d.attnWidth());
  // dqkv [T x 3A], dprobs [B x localHeads x S x S], dattn [T x A], dx1, dln [T x H] each, da [T x F]
  return T * 3 * A + sz(d.B) * sz(d.localHeads()) * sz(d.S) * sz(d.S) + T * A + 2 * T * H + T * F;
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
                     const GptDims& d, const GptTpSums* sums) {
  const auto l = GptBlockLayout::of(d);
  const int T = d.T(), H = d.H, S = d.S, a = d.localHeads(), A = d.attnWidth(), dh = d.headSize();
  const std::size_t SS = sz(S) * sz(S), TH = sz(T) * sz(H);
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));

  dev.layerNormForward(x, params + l.ln1g, params + l.ln1b, s.ln1, s.mean1, s.rstd1, T, H);
  // Column-parallel: this rank's heads' Q, K and V from the whole LN1(x).
  dev.gemm(false, false, T, 3 * A, H, 1.0f, s.ln1, H, params + l.Wqkv, 3 * A, 0.0f, s.qkv, 3 * A);
  dev.addBias(s.qkv, params + l.bqkv, T, 3 * A);
  // Per sequence, every head at once: scores = scale Q K^T [S x S], one matrix per head.
  for (int b = 0; b < d.B; ++b) {
    const float* q = qkvOf(s.qkv, d, b);
    dev.gemmStridedBatched(false, true, S, S, dh, scale, q, 3 * A, dh, q + A, 3 * A, dh, 0.0f,
                           s.probs + sz(b) * sz(a) * SS, S, static_cast<std::int64_t>(SS), a);
  }
  dev.causalSoftmaxForward(s.probs, s.probs, d.B * a, S);
  // attn[:, head j] = P V, written into the head's columns of attn (ld A).
  for (int b = 0; b < d.B; ++b) {
    const float* q = qkvOf(s.qkv, d, b);
    dev.gemmStridedBatched(false, false, S, dh, S, 1.0f, s.probs + sz(b) * sz(a) * SS, S,
                           static_cast<std::int64_t>(SS), q + 2 * A, 3 * A, dh, 0.0f,
                           s.attn + sz(b) * sz(S) * sz(A), A, dh, a);
  }
  // Row-parallel: attn Wo over this rank's heads is a partial sum until g.
  dev.gemm(false, false, T, H, A, 1.0f, s.attn, A, params + l.Wo, H, 0.0f, s.x1, H);
  if (sums) sums->g(s.x1, TH);
  dev.addBias(s.x1, params + l.bo, T, H);
  dev.add(s.x1, x, TH);

  dev.layerNormForward(s.x1, params + l.ln2g, params + l.ln2b, s.ln2, s.mean2, s.rstd2, T, H);
  mlpForward(dev, params + l.W1, s.ln2, s.a, s.h, y, T, H, d.F);
  if (sums) sums->g(y, TH);
  dev.addBias(y, params + l.b2, T, H);
  dev.add(y, s.x1, TH);
}

void gptBlockBackward(Device& dev, const float* params, const float* x, const GptBlockSaved& s, const float* dy,
                      float* dparams, float* dx, float* scratch, const GptDims& d, const GptTpSums* sums) {
  const auto l = GptBlockLayout::of(d);
  const int T = d.T(), H = d.H, S = d.S, a = d.localHeads(), A = d.attnWidth(), dh = d.headSize();
  const std::size_t SS = sz(S) * sz(S), TH = sz(T) * sz(H);
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  float* dqkv = scratch;
  float* dprobs = dqkv + sz(T) * 3 * sz(A);
  float* dattn = dprobs + sz(d.B) * sz(a) * SS;
  float* dx1 = dattn + sz(T) * sz(A);
  float* dln = dx1 + TH;
  float* da = dln + TH;

  // The MLP half: y = x1 + mlp(LN2(x1)).
  dev.biasGrad(dy, dparams + l.b2, T, H, true);
  mlpBackward(dev, params + l.W1, s.ln2, s.a, s.h, dy, dparams + l.W1, dln, da, T, H, d.F);
  if (sums) sums->fBackward(dln, TH);
  dev.copy(dx1, dy, TH * sizeof(float)); // the residual path
  dev.layerNormBackward(s.x1, params + l.ln2g, s.mean2, s.rstd2, dln, dx1, dparams + l.ln2g, dparams + l.ln2b, T, H,
                        true);

  // The attention half: x1 = x + attn Wo + bo.
  dev.biasGrad(dx1, dparams + l.bo, T, H, true);
  dev.gemm(true, false, A, H, T, 1.0f, s.attn, A, dx1, H, 1.0f, dparams + l.Wo, H);
  dev.gemm(false, true, T, A, H, 1.0f, dx1, H, params + l.Wo, H, 0.0f, dattn, A);
  for (int b = 0; b < d.B; ++b) {
    const float* q = qkvOf(s.qkv, d, b);
    float* dq = dqkv + sz(b) * sz(S) * sz(3 * A);
    const float* dO = dattn + sz(b) * sz(S) * sz(A);
    const float* P = s.probs + sz(b) * sz(a) * SS;
    float* dP = dprobs + sz(b) * sz(a) * SS;
    // dP = dO V^T ; dV = P^T dO
    dev.gemmStridedBatched(false, true, S, S, dh, 1.0f, dO, A, dh, q + 2 * A, 3 * A, dh, 0.0f, dP, S,
                           static_cast<std::int64_t>(SS), a);
    dev.gemmStridedBatched(true, false, S, dh, S, 1.0f, P, S, static_cast<std::int64_t>(SS), dO, A, dh, 0.0f,
                           dq + 2 * A, 3 * A, dh, a);
  }
  dev.causalSoftmaxBackward(s.probs, dprobs, dprobs, d.B * a, S); // dprobs now holds dscores / scale
  for (int b = 0; b < d.B; ++b) {
    const float* q = qkvOf(s.qkv, d, b);
    float* dq = dqkv + sz(b) * sz(S) * sz(3 * A);
    const float* dS = dprobs + sz(b) * sz(a) * SS;
    // scores = scale Q K^T: dQ = scale dS K ; dK = scale dS^T Q
    dev.gemmStridedBatched(false, false, S, dh, S, scale, dS, S, static_cast<std::int64_t>(SS), q + A, 3 * A, dh,
                           0.0f, dq, 3 * A, dh, a);
    dev.gemmStridedBatched(true, false, S, dh, S, scale, dS, S, static_cast<std::int64_t>(SS), q, 3 * A, dh, 0.0f,
                           dq + A, 3 * A, dh, a);
  }
  dev.biasGrad(dqkv, dparams + l.bqkv, T, 3 * A, true);
  dev.gemm(true, false, H, 3 * A, T, 1.0f, s.ln1, H, dqkv, 3 * A, 1.0f, dparams + l.Wqkv, 3 * A);
  dev.gemm(false, true, T, H, 3 * A, 1.0f, dqkv, 3 * A, params + l.Wqkv, 3 * A, 0.0f, dln, H);
  if (sums) sums->fBackward(dln, TH);
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
