// x *= s, elementwise (gradient averaging, loss scaling).
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

namespace shardlab::cuda {
namespace {

__global__ void scaleKernel(float* x, float s, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    x[i] *= s;
  }
}

} // namespace

void scale(float* x, float s, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  scaleKernel<<<gridFor(n), kBlockSize, 0, stream>>>(x, s, n);
  CUDA_CHECK_LAUNCH("scaleKernel");
}

} // namespace shardlab::cuda
