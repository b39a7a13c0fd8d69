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
#include <functional>
#include <vector>

namespace shardlab {

// Under tensor parallelism of degree tp a rank holds heads / tp of the heads and
// 4H / tp of the MLP's inner width (F); with tp 1 it holds the whole block.
struct GptDims {
  int B = 1, S = 1, H = 1, heads = 1, F = 4, V = 2; // sequences, their length, width, heads, MLP width, vocab
  int tp = 1;                                       // the tensor-parallel degree
  int T() const { return B * S; }
  int headSize() const { return H / heads; }
  int localHeads() const { return heads / tp; }
  // A: this rank's columns of each of Q, K and V (and its rows of Wo), localHeads x headSize.
  int attnWidth() const { return H / tp; }
  static GptDims of(const ModelShape& s, int sequences, int tp = 1) {
    return {sequences, s.seqLen, s.hidden, s.heads, 4 * s.hidden / tp, s.vocab, tp};
  }
};

// Offsets (in floats) of each tensor in a block's flat layout. A (attention width) is
// H for the whole block; a tensor-parallel slice holds A = H / tp columns of each of
// Q, K and V (Wqkv[H x 3A] | bqkv[3A], Q's then K's then V's) and A rows of Wo[A x H].
struct GptBlockLayout {
  std::size_t ln1g, ln1b, Wqkv, bqkv, Wo, bo, ln2g, ln2b, W1, b1, W2, b2, size;
  static GptBlockLayout of(int H, int F, int A = 0);
  static GptBlockLayout of(const GptDims& d) { return of(d.H, d.F, d.attnWidth()); }
};

// Tensor parallelism (Megatron-LM, Shoeybi et al. 2019) inside a block: rank r of tp
// holds heads [r a/tp, (r+1) a/tp), i.e. columns [r A, (r+1) A) of each of Q, K and V
// with their biases (column-parallel) and the same rows of Wo (row-parallel); the
// MLP's columns [r F, (r+1) F) of W1, b1 and rows of W2; both LayerNorms, bo and b2
// whole. The full-layout index of each float of rank r's slice, in the slice's order.
std::vector<std::size_t> gptBlockSliceIndices(int H, int tp, int rank);
// The full block from the tp ranks' slices, rank after rank (the replicated
// LayerNorms, bo and b2 from rank 0's).
std::vector<float> gptAssembleBlock(const std::vector<float>& slices, int H, int tp);

// The sums over the tensor-parallel ranks a block's math calls, in place on a
// [T x H] buffer (Megatron's two conjugate operators). Null: one rank, nothing to sum.
struct GptTpSums {
  // g, forward: the row-parallel GEMMs' partial outputs (attn Wo and gelu(.) W2).
  std::function<void(float*, std::size_t)> g;
  // f's backward: the partial gradients of LN1's and LN2's outputs, which every rank
  // fed whole into its column-parallel GEMM (Wqkv, W1), before each LayerNorm's backward.
  std::function<void(float*, std::size_t)> fBackward;
};

// The initial value of parameter `i` of `unit`'s flat layout, given a uniform draw u in
// [-1, 1) (Model.cpp's initialValue draws it from (seed, unit, i)).
float gptInitialValue(const ModelShape& s, int unit, std::size_t i, float u);

// What one block's forward keeps for its backward, carved out of one buffer of
// savedFloats() floats (the caller allocates it; the layer's input x is the caller's too).
struct GptBlockSaved {
  float *ln1, *mean1, *rstd1; // LN1(x) [T x H], its row statistics [T]
  float *qkv;                 // [T x 3A]
  float *probs;               // attention probabilities [B x localHeads x S x S]
  float *attn;                // the heads' outputs, side by side [T x A]
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
// Under tensor parallelism `sums` sums the partial results over the TP ranks.
void gptBlockForward(Device& dev, const float* params, const float* x, float* y, const GptBlockSaved& saved,
                     const GptDims& d, const GptTpSums* sums = nullptr);
// Given dy, accumulates every parameter's gradient into dparams and writes dx;
// `scratch` holds gptBlockScratchFloats(d) floats.
void gptBlockBackward(Device& dev, const float* params, const float* x, const GptBlockSaved& saved, const float* dy,
                      float* dparams, float* dx, float* scratch, const GptDims& d, const GptTpSums* sums = nullptr);

// Final LayerNorm, logits, loss: keeps xn = LNf(x) [T x H] and its statistics mean,
// rstd [T] for the backward, writes dlogits (scaled by gradScale) and returns the summed loss.
double gptOutputForward(Device& dev, const float* params, const float* x, const std::int32_t* targets, float* xn,
                        float* mean, float* rstd, float* logits, float* dlogits, const GptDims& d, float gradScale);
// Accumulates the head's and LNf's gradients, writes dx; `dxn` is scratch of T x H.
void gptOutputBackward(Device& dev, const float* params, const float* x, const float* xn, const float* mean,
                       const float* rstd, const float* dlogits, float* dparams, float* dx, float* dxn,
                       const GptDims& d);

} // namespace shardlab
