// Host-side launchers of the CUDA backend's kernels, one .cu file each. Every
// launcher enqueues on `stream`, checks the launch (CUDA_CHECK_LAUNCH) and returns
// without synchronising. Pointers are device memory; matrices are row-major.
// CudaDevice calls these; the semantics are those of shardlab::Device (core/Device.h).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace shardlab::cuda {

// Gelu.cu: tanh-approximated GELU (GPT-2) and its derivative.
void geluForward(const float* x, float* y, std::size_t n, cudaStream_t stream);
void geluBackward(const float* x, const float* dy, float* dx, std::size_t n, bool accumulate, cudaStream_t stream);

// AddBias.cu: y[r, c] += bias[c].
void addBias(float* y, const float* bias, int rows, int cols, cudaStream_t stream);

// BiasGrad.cu: dbias[c] (+)= sum over r of dy[r, c] (a column reduction).
void biasGrad(const float* dy, float* dbias, int rows, int cols, bool accumulate, cudaStream_t stream);

// Residual.cu: y += x.
void residualAdd(float* y, const float* x, std::size_t n, cudaStream_t stream);

// Scale.cu: x *= s.
void scale(float* x, float s, std::size_t n, cudaStream_t stream);

// Embedding.cu: out[i, :] = table[tokens[i], :] and dtable[tokens[i], :] += dout[i, :]
// (no atomics: the thread of a token's first occurrence adds every occurrence in
// token order, as the CPU does, so the result is the same from run to run).
void embeddingForward(const std::int32_t* tokens, const float* table, float* out, int n, int width,
                      cudaStream_t stream);
void embeddingBackward(const std::int32_t* tokens, const float* dout, float* dtable, int n, int width,
                       cudaStream_t stream);

// SoftmaxCrossEntropy.cu: one block per row. Writes dlogits = gradScale * (softmax - onehot)
// and rowLoss[r] = -log softmax(logits[r])[targets[r]].
void softmaxCrossEntropy(const float* logits, const std::int32_t* targets, float* dlogits, float* rowLoss, int rows,
                         int vocab, float gradScale, cudaStream_t stream);

// CausalSoftmax.cu: softmax of each row i of `matrices` stacked S x S matrices over its
// columns 0..i (0 past i), and its backward (dscores may alias dprobs).
void causalSoftmaxForward(const float* scores, float* probs, int matrices, int S, cudaStream_t stream);
void causalSoftmaxBackward(const float* probs, const float* dprobs, float* dscores, int matrices, int S,
                           cudaStream_t stream);

// LayerNorm.cu: LayerNorm over rows, saving each row's mean and rstd; the backward
// writes (or adds to) dx and adds to dgamma and dbeta.
void layerNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                      int rows, int cols, float eps, cudaStream_t stream);
void layerNormBackward(const float* x, const float* gamma, const float* mean, const float* rstd, const float* dy,
                       float* dx, float* dgamma, float* dbeta, int rows, int cols, bool accumulate,
                       cudaStream_t stream);

// AdamW.cu: one bias-corrected AdamW step with decoupled weight decay.
// beta1Correction = 1 - beta1^step, beta2Correction = 1 - beta2^step (computed by the caller).
void adamw(float* param, const float* grad, float* m, float* v, std::size_t n, float lr, float beta1, float beta2,
           float eps, float weightDecay, float beta1Correction, float beta2Correction, cudaStream_t stream);

// Launch shape for the elementwise kernels: 256 threads a block, a grid-stride loop
// covers the rest when n is larger than the grid.
constexpr int kBlockSize = 256;
inline unsigned gridFor(std::size_t n) {
  const std::size_t blocks = (n + kBlockSize - 1) / kBlockSize;
  const std::size_t maxBlocks = 1u << 20;
  return static_cast<unsigned>(blocks == 0 ? 1 : (blocks < maxBlocks ? blocks : maxBlocks));
}

} // namespace shardlab::cuda
