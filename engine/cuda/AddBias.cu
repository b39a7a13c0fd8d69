// y[r, c] += bias[c] over a row-major rows x cols matrix, one thread per element.
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

namespace shardlab::cuda {
namespace {

__global__ void addBiasKernel(float* y, const float* bias, std::size_t total, int cols) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    y[i] += bias[i % static_cast<std::size_t>(cols)];
  }
}

} // namespace

void addBias(float* y, const float* bias, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const std::size_t total = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  addBiasKernel<<<gridFor(total), kBlockSize, 0, stream>>>(y, bias, total, cols);
  CUDA_CHECK_LAUNCH("addBiasKernel");
}

} // namespace shardlab::cuda
