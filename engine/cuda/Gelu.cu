// Tanh-approximated GELU, as in GPT-2 (and llm.c's gelu_forward/gelu_backward):
//   gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

namespace shardlab::cuda {
namespace {

constexpr float kGeluScale = 0.7978845608028654f; // sqrt(2 / pi)

__global__ void geluForwardKernel(const float* x, float* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float xi = x[i];
    const float cube = 0.044715f * xi * xi * xi;
    y[i] = 0.5f * xi * (1.0f + tanhf(kGeluScale * (xi + cube)));
  }
}

__global__ void geluBackwardKernel(const float* x, const float* dy, float* dx, std::size_t n, bool accumulate) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float xi = x[i];
    const float cube = 0.044715f * xi * xi * xi;
    const float tanhArg = kGeluScale * (xi + cube);
    const float tanhOut = tanhf(tanhArg);
    const float sech2 = 1.0f - tanhOut * tanhOut; // sech^2 = 1 - tanh^2
    const float localGrad =
        0.5f * (1.0f + tanhOut) + xi * 0.5f * sech2 * kGeluScale * (1.0f + 3.0f * 0.044715f * xi * xi);
    const float g = localGrad * dy[i];
    dx[i] = accumulate ? dx[i] + g : g;
  }
}

} // namespace

void geluForward(const float* x, float* y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  geluForwardKernel<<<gridFor(n), kBlockSize, 0, stream>>>(x, y, n);
  CUDA_CHECK_LAUNCH("geluForwardKernel");
}

void geluBackward(const float* x, const float* dy, float* dx, std::size_t n, bool accumulate, cudaStream_t stream) {
  if (n == 0) return;
  geluBackwardKernel<<<gridFor(n), kBlockSize, 0, stream>>>(x, dy, dx, n, accumulate);
  CUDA_CHECK_LAUNCH("geluBackwardKernel");
}

} // namespace shardlab::cuda
