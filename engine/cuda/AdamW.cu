// One AdamW step, elementwise (Loshchilov & Hutter; PyTorch's torch.optim.AdamW):
//   m = beta1 m + (1 - beta1) g
//   v = beta2 v + (1 - beta2) g^2
//   param -= lr * ( (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps) + weightDecay * param )
// The weight decay is decoupled: it uses the parameter before this step and is not
// part of the gradient the moments see.
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

namespace shardlab::cuda {
namespace {

__global__ void adamwKernel(float* param, const float* grad, float* m, float* v, std::size_t n, float lr, float beta1,
                            float beta2, float eps, float weightDecay, float beta1Correction, float beta2Correction) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float g = grad[i];
    const float mi = beta1 * m[i] + (1.0f - beta1) * g;
    const float vi = beta2 * v[i] + (1.0f - beta2) * g * g;
    m[i] = mi;
    v[i] = vi;
    const float mHat = mi / beta1Correction;
    const float vHat = vi / beta2Correction;
    const float p = param[i];
    param[i] = p - lr * (mHat / (sqrtf(vHat) + eps) + weightDecay * p);
  }
}

} // namespace

void adamw(float* param, const float* grad, float* m, float* v, std::size_t n, float lr, float beta1, float beta2,
           float eps, float weightDecay, float beta1Correction, float beta2Correction, cudaStream_t stream) {
  if (n == 0) return;
  adamwKernel<<<gridFor(n), kBlockSize, 0, stream>>>(param, grad, m, v, n, lr, beta1, beta2, eps, weightDecay,
                                                     beta1Correction, beta2Correction);
  CUDA_CHECK_LAUNCH("adamwKernel");
}

} // namespace shardlab::cuda
