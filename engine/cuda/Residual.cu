// y += x, elementwise (the residual connection; also sums gradients).
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

namespace shardlab::cuda {
namespace {

__global__ void residualAddKernel(float* y, const float* x, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    y[i] += x[i];
  }
}

} // namespace

void residualAdd(float* y, const float* x, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  residualAddKernel<<<gridFor(n), kBlockSize, 0, stream>>>(y, x, n);
  CUDA_CHECK_LAUNCH("residualAddKernel");
}

} // namespace shardlab::cuda
