// Fused softmax + cross-entropy over the rows of logits (rows x vocab), one block per
// row, numerically stable (subtract the row max before exp):
//   p[j]        = exp(x[j] - max) / sum_k exp(x[k] - max)
//   rowLoss     = -log p[target] = log(sum) - (x[target] - max)
//   dlogits[j]  = gradScale * (p[j] - (j == target))
// dlogits may alias logits (each thread reads x[j] before it writes dx[j], and the
// target logit is read before any write). A target outside [0, vocab) gives a NaN
// loss for that row, which the caller sees in the summed loss.
#include "cuda/BlockReduce.cuh"
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

#include <cmath>

namespace shardlab::cuda {
namespace {

constexpr int kSoftmaxBlock = 256;

__global__ void softmaxCrossEntropyKernel(const float* logits, const std::int32_t* targets, float* dlogits,
                                          float* rowLoss, int vocab, float gradScale) {
  const std::size_t row = blockIdx.x;
  const float* x = logits + row * static_cast<std::size_t>(vocab);
  float* dx = dlogits + row * static_cast<std::size_t>(vocab);
  const int target = targets[row];
  const bool targetValid = target >= 0 && target < vocab;

  // 1. the row max
  float localMax = -INFINITY;
  for (int j = threadIdx.x; j < vocab; j += blockDim.x) localMax = fmaxf(localMax, x[j]);
  const float rowMax = blockReduce(localMax, MaxOp{}, -INFINITY);

  // 2. the sum of exp(x - max); the target logit is read here, before any write
  float localSum = 0.0f;
  for (int j = threadIdx.x; j < vocab; j += blockDim.x) localSum += expf(x[j] - rowMax);
  const float targetLogit = targetValid ? x[target] : NAN;
  const float sum = blockReduce(localSum, SumOp{}, 0.0f);

  // 3. the gradient, and the row's loss
  for (int j = threadIdx.x; j < vocab; j += blockDim.x) {
    const float p = expf(x[j] - rowMax) / sum;
    dx[j] = gradScale * (p - (j == target ? 1.0f : 0.0f));
  }
  if (threadIdx.x == 0) rowLoss[row] = logf(sum) - (targetLogit - rowMax);
}

} // namespace

void softmaxCrossEntropy(const float* logits, const std::int32_t* targets, float* dlogits, float* rowLoss, int rows,
                         int vocab, float gradScale, cudaStream_t stream) {
  if (rows <= 0 || vocab <= 0) return;
  softmaxCrossEntropyKernel<<<static_cast<unsigned>(rows), kSoftmaxBlock, 0, stream>>>(logits, targets, dlogits,
                                                                                        rowLoss, vocab, gradScale);
  CUDA_CHECK_LAUNCH("softmaxCrossEntropyKernel");
}

} // namespace shardlab::cuda
