// Token embedding lookup and its gradient.
//   forward:  out[i, :] = table[tokens[i], :]
//   backward: dtable[tokens[i], :] += dout[i, :]
// One thread per (i, j) element. The backward is deterministic, with no atomicAdd:
// a token's row is written by the thread of its first occurrence in the batch, which
// adds that column of every occurrence in token order, exactly as the CPU device's
// loop does. So the gradient is bitwise the same run to run and on every rank
// (tensor parallelism keeps the embedding replicated and relies on that: GPU review
// defect 9), and equal to the CPU's up to the GEMMs that produced `dout`. The
// first-occurrence scan costs O(n) per token, shared by a warp (same i); batches are
// lesson-sized (n = tokens per rank, tens to a few thousand).
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

namespace shardlab::cuda {
namespace {

__global__ void embeddingForwardKernel(const std::int32_t* tokens, const float* table, float* out, std::size_t total,
                                       int width) {
  for (std::size_t idx = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = idx / static_cast<std::size_t>(width);
    const std::size_t j = idx % static_cast<std::size_t>(width);
    const std::size_t row = static_cast<std::size_t>(tokens[i]);
    out[idx] = table[row * static_cast<std::size_t>(width) + j];
  }
}

__global__ void embeddingBackwardKernel(const std::int32_t* tokens, const float* dout, float* dtable,
                                        std::size_t total, std::size_t n, int width) {
  for (std::size_t idx = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = idx / static_cast<std::size_t>(width);
    const std::size_t j = idx % static_cast<std::size_t>(width);
    const std::int32_t token = tokens[i];
    bool first = true;
    for (std::size_t k = 0; k < i && first; ++k) first = tokens[k] != token;
    if (!first) continue; // an earlier occurrence's thread adds this one
    const std::size_t w = static_cast<std::size_t>(width);
    float* out = &dtable[static_cast<std::size_t>(token) * w + j];
    float acc = *out;
    for (std::size_t k = i; k < n; ++k) {
      if (tokens[k] == token) acc = __fadd_rn(acc, dout[k * w + j]); // no contraction: as the CPU adds
    }
    *out = acc;
  }
}

} // namespace

void embeddingForward(const std::int32_t* tokens, const float* table, float* out, int n, int width,
                      cudaStream_t stream) {
  if (n <= 0 || width <= 0) return;
  const std::size_t total = static_cast<std::size_t>(n) * static_cast<std::size_t>(width);
  embeddingForwardKernel<<<gridFor(total), kBlockSize, 0, stream>>>(tokens, table, out, total, width);
  CUDA_CHECK_LAUNCH("embeddingForwardKernel");
}

void embeddingBackward(const std::int32_t* tokens, const float* dout, float* dtable, int n, int width,
                       cudaStream_t stream) {
  if (n <= 0 || width <= 0) return;
  const std::size_t total = static_cast<std::size_t>(n) * static_cast<std::size_t>(width);
  embeddingBackwardKernel<<<gridFor(total), kBlockSize, 0, stream>>>(tokens, dout, dtable, total,
                                                                     static_cast<std::size_t>(n), width);
  CUDA_CHECK_LAUNCH("embeddingBackwardKernel");
}

} // namespace shardlab::cuda
