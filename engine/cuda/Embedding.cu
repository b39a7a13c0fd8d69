// Token embedding lookup and its gradient.
//   forward:  out[i, :] = table[tokens[i], :]
//   backward: dtable[tokens[i], :] += dout[i, :]
// One thread per (i, j) element. The backward uses atomicAdd because a token that
// appears several times in the batch adds into the same row from several threads
// (the order of those float additions varies run to run: last-bit differences).
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
                                        std::size_t total, int width) {
  for (std::size_t idx = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; idx < total;
       idx += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::size_t i = idx / static_cast<std::size_t>(width);
    const std::size_t j = idx % static_cast<std::size_t>(width);
    const std::size_t row = static_cast<std::size_t>(tokens[i]);
    atomicAdd(&dtable[row * static_cast<std::size_t>(width) + j], dout[idx]);
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
  embeddingBackwardKernel<<<gridFor(total), kBlockSize, 0, stream>>>(tokens, dout, dtable, total, width);
  CUDA_CHECK_LAUNCH("embeddingBackwardKernel");
}

} // namespace shardlab::cuda
