// The GPT (--model gpt): a GPT-2-style pre-norm decoder over the sequences of Data.h,
// in the same three kinds of unit as the MLP (Model.h), each one flat parameter:
//
//   embedding  tok[V x H] | pos[S x H]                       (learned positions)
//   block      ln1_g[H] | ln1_b[H] | Wqkv[H x 3H] | bqkv[3H] | Wo[H x H] | bo[H] |
//              ln2_g[H] | ln2_b[H] | W1[H x F] | b1[F] | W2[F x H] | b2[H]
//   output     lnf_g[H] | lnf_b[H] | W[H x V] | b[V]           (final LayerNorm, LM head)
//
// A block: x1 = x + Attn(LN1(x)) Wo + bo;  y = x1 + gelu(LN2(x1) W1 + b1) W2 + b2.
// Attn: causal multi-head self-attention, `heads` heads of d = H / heads; the columns
// of Wqkv are Q's, then K's, then V's, head j owning columns [j d, (j+1) d) of each
// (Megatron's split of heads is a split of those column ranges). The MLP part of a
// block (W1 | b1 | W2 | b2) is the MLP model's block layout, so its math is Model.h's.
//
// The LM head is untied from the token table: tying would share one tensor between
// the first unit and the last, which FSDP shards and the pipeline places on different
// ranks, so its gradient would need a reduction of its own between them (Megatron's
// embedding group). Untied, every unit keeps one flat parameter and its own gradient,
// at the cost of V x H more parameters.
//
// Rows are tokens, sequence after sequence: T = B x S rows of H.
#pragma once

#include "core/Device.h"
#include "job/ModelShape.h"

#include <cstddef>
#include <cstdint>

namespace shardlab {

struct GptDims {
  int B = 1, S = 1, H = 1, heads = 1, F = 4, V = 2; // sequences, their length, width, heads, MLP width, vocab
  int T() const { return B * S; }
  int headSize() const { return H / heads; }
  static GptDims of(const ModelShape& s, int sequences, int inner = 0) {
    return {sequences, s.seqLen, s.hidden, s.heads, inner > 0 ? inner : 4 * s.hidden, s.vocab};
  }
};

// Offsets (in floats) of each tensor in a block's flat layout.
struct GptBlockLayout {
  std::size_t ln1g, ln1b, Wqkv, bqkv, Wo, bo, ln2g, ln2b, W1, b1, W2, b2, size;
  static GptBlockLayout of(int H, int F);
};

// The initial value of parameter `i` of `unit`'s flat layout, given a uniform draw u in
// [-1, 1) (Model.cpp's initialValue draws it from (seed, unit, i)).
float gptInitialValue(const ModelShape& s, int unit, std::size_t i, float u);

// What one block's forward keeps for its backward, carved out of one buffer of
// savedFloats() floats (the caller allocates it; the layer's input x is the caller's too).
struct GptBlockSaved {
  float *ln1, *mean1, *rstd1; // LN1(x) [T x H], its row statistics [T]
  float *qkv;                 // [T x 3H]
  float *probs;               // attention probabilities [B x heads x S x S]
  float *attn;                // the heads' outputs, side by side [T x H]
  float *x1;                  // x + attention [T x H]
  float *ln2, *mean2, *rstd2; // LN2(x1), its statistics
  float *a, *h;               // LN2(x1) W1 + b1 and its GELU [T x F]
  static std::size_t floats(const GptDims& d);
  static GptBlockSaved carve(float* base, const GptDims& d);
};
// Scratch the block's backward needs, in floats.
std::size_t gptBlockScratchFloats(const GptDims& d);

// --- The math of each unit, on any Device; pointers are that device's memory. ---

// out = tok[tokens] + pos[position in its sequence].
void gptEmbeddingForward(Device& dev, const float* params, const std::int32_t* tokens, float* out, const GptDims& d);
// Accumulates dtok and dpos into dparams.
void gptEmbeddingBackward(Device& dev, const std::int32_t* tokens, const float* dout, float* dparams,
                          const GptDims& d);

// y = the block's output for input x; fills `saved`.
void gptBlockForward(Device& dev, const float* params, const float* x, float* y, const GptBlockSaved& saved,
                     const GptDims& d);
// Given dy, accumulates every parameter's gradient into dparams and writes dx;
// `scratch` holds gptBlockScratchFloats(d) floats.
void gptBlockBackward(Device& dev, const float* params, const float* x, const GptBlockSaved& saved, const float* dy,
                      float* dparams, float* dx, float* scratch, const GptDims& d);

// Final LayerNorm, logits, loss: keeps xn = LNf(x) [T x H] and its statistics mean,
// rstd [T] for the backward, writes dlogits (scaled by gradScale) and returns the summed loss.
double gptOutputForward(Device& dev, const float* params, const float* x, const std::int32_t* targets, float* xn,
                        float* mean, float* rstd, float* logits, float* dlogits, const GptDims& d, float gradScale);
// Accumulates the head's and LNf's gradients, writes dx; `dxn` is scratch of T x H.
void gptOutputBackward(Device& dev, const float* params, const float* x, const float* xn, const float* mean,
                       const float* rstd, const float* dlogits, float* dparams, float* dx, float* dxn,
                       const GptDims& d);

} // namespace shardlab
