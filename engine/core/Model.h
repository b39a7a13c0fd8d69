// The network ShardLab trains: embedding -> L residual MLP blocks -> output layer ->
// softmax cross-entropy, a next-token model over the synthetic language of Data.h.
// Each unit (embedding, block, output) is one flat parameter: the unit FSDP shards,
// DDP all-reduces and the pipeline assigns to a stage.
//
// Flat layouts (row-major):
//   embedding  table[V x H]
//   block      W1[H x F] | b1[F] | W2[F x H] | b2[H]      (F = 4H, or 4H/N under TP)
//   output     W[H x V] | b[V]
#pragma once

#include "core/Device.h"
#include "job/ModelShape.h"

#include <cstdint>
#include <vector>

namespace shardlab {

// Parameter `index` of the FULL flat layout of `unit`, drawn from (seed, unit, index)
// alone, so any rank can initialise any slice without materialising the rest.
float initialValue(const ModelShape& shape, std::uint64_t seed, int unit, std::size_t index);

// Initialises a tensor-parallel block slice: columns [c0, c0+F) of W1 and b1, rows
// [c0, c0+F) of W2, all of b2, in the block layout with inner width F. A GPT block:
// the slice of tensor-parallel rank c0 / F of 4H / F (core/Gpt.h, gptBlockSliceIndices).
void initialBlockSlice(const ModelShape& shape, std::uint64_t seed, int unit, int c0, int F, float* out);

// --- The math of each unit, on any Device. n: rows (tokens) in this batch. ---

void embeddingForward(Device& d, const float* table, const std::int32_t* tokens, float* out, int n, int H);
void embeddingBackward(Device& d, const std::int32_t* tokens, const float* dout, float* dtable, int n, int H);

// partial = gelu(x W1 + b1) W2, saving a = xW1+b1 and h = gelu(a) for backward.
// The caller adds b2 and the residual (TP all-reduces `partial` first).
void mlpForward(Device& d, const float* params, const float* x, float* a, float* h, float* partial, int n, int H,
                int F);
// Given dy (gradient of the block's output), accumulates dW1, db1, dW2 into dparams
// (b2's gradient is the caller's, as b2 sits after the all-reduce) and writes
// dxPartial = (gelu'(a) * dy W2^T) W1^T; `da` is scratch of n x F.
void mlpBackward(Device& d, const float* params, const float* x, const float* a, const float* h, const float* dy,
                 float* dparams, float* dxPartial, float* da, int n, int H, int F);

// The same backward split in two, for the zero-bubble pipeline schedules. B, on the
// critical path: da = gelu'(a) * (dy W2^T) (kept for W) and dxPartial = da W1^T. W, which
// can wait: dW2 += h^T dy, dW1 += x^T da, db1 += colsum(da). Each output element is
// computed by the same operations as in mlpBackward, so B then W accumulates the same
// gradients bit for bit.
void mlpBackwardInput(Device& d, const float* params, const float* a, const float* dy, float* dxPartial, float* da,
                      int n, int H, int F);
void mlpBackwardWeight(Device& d, const float* x, const float* h, const float* dy, const float* da, float* dparams,
                       int n, int H, int F);

// Pointers into a block's flat layout.
struct BlockView {
  const float *W1, *b1, *W2, *b2;
  static BlockView of(const float* p, int H, int F) {
    return {p, p + static_cast<std::size_t>(H) * F, p + static_cast<std::size_t>(H) * F + F,
            p + static_cast<std::size_t>(H) * F + F + static_cast<std::size_t>(F) * H};
  }
};
inline float* blockB2(float* p, int H, int F) { return p + static_cast<std::size_t>(H) * F * 2 + F; }

// logits = x W + b, then loss; writes dlogits (scaled by gradScale). Returns summed loss.
double outputForward(Device& d, const float* params, const float* x, const std::int32_t* targets, float* logits,
                     float* dlogits, int n, int H, int V, float gradScale);
// Accumulates dW, db and writes dx.
void outputBackward(Device& d, const float* params, const float* x, const float* dlogits, float* dparams, float* dx,
                    int n, int H, int V);
// outputBackward split in two (see mlpBackwardInput): B writes dx, W accumulates dW and db.
void outputBackwardInput(Device& d, const float* params, const float* dlogits, float* dx, int n, int H, int V);
void outputBackwardWeight(Device& d, const float* x, const float* dlogits, float* dparams, int n, int H, int V);

} // namespace shardlab
