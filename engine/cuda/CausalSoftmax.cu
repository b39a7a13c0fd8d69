// Causal softmax over S x S attention scores and its backward, one block per row.
// Row r of the stack is row i = r mod S of its matrix: it sees columns 0..i, and the
// columns past i are written 0 (probabilities there are exactly zero).
//   forward   p[j]  = exp(z[j] - max) / sum_{k<=i} exp(z[k] - max)          (j <= i)
//   backward  ds[j] = p[j] * (dp[j] - sum_{k<=i} p[k] dp[k])               (j <= i)
// ds may alias dp: every thread reads its dp[j] for the dot product before the block
// reduction, and writes ds[j] only after it.
#include "cuda/BlockReduce.cuh"
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

#include <cmath>

namespace shardlab::cuda {
namespace {

constexpr int kRowBlock = 128;

__global__ void causalSoftmaxForwardKernel(const float* scores, float* probs, int S) {
  const std::size_t row = blockIdx.x;
  const int i = static_cast<int>(row % static_cast<std::size_t>(S));
  const float* z = scores + row * static_cast<std::size_t>(S);
  float* p = probs + row * static_cast<std::size_t>(S);

  float localMax = -INFINITY;
  for (int j = threadIdx.x; j <= i; j += blockDim.x) localMax = fmaxf(localMax, z[j]);
  const float rowMax = blockReduce(localMax, MaxOp{}, -INFINITY);
  float localSum = 0.0f;
  for (int j = threadIdx.x; j <= i; j += blockDim.x) localSum += expf(z[j] - rowMax);
  const float sum = blockReduce(localSum, SumOp{}, 0.0f);
  for (int j = threadIdx.x; j < S; j += blockDim.x) p[j] = j <= i ? expf(z[j] - rowMax) / sum : 0.0f;
}

__global__ void causalSoftmaxBackwardKernel(const float* probs, const float* dprobs, float* dscores, int S) {
  const std::size_t row = blockIdx.x;
  const int i = static_cast<int>(row % static_cast<std::size_t>(S));
  const float* p = probs + row * static_cast<std::size_t>(S);
  const float* dp = dprobs + row * static_cast<std::size_t>(S);
  float* ds = dscores + row * static_cast<std::size_t>(S);

  float localDot = 0.0f;
  for (int j = threadIdx.x; j <= i; j += blockDim.x) localDot += p[j] * dp[j];
  const float dot = blockReduce(localDot, SumOp{}, 0.0f);
  for (int j = threadIdx.x; j < S; j += blockDim.x) ds[j] = j <= i ? p[j] * (dp[j] - dot) : 0.0f;
}

} // namespace

void causalSoftmaxForward(const float* scores, float* probs, int matrices, int S, cudaStream_t stream) {
  if (matrices <= 0 || S <= 0) return;
  const auto rows = static_cast<unsigned>(static_cast<std::size_t>(matrices) * static_cast<std::size_t>(S));
  causalSoftmaxForwardKernel<<<rows, kRowBlock, 0, stream>>>(scores, probs, S);
  CUDA_CHECK_LAUNCH("causalSoftmaxForwardKernel");
}

void causalSoftmaxBackward(const float* probs, const float* dprobs, float* dscores, int matrices, int S,
                           cudaStream_t stream) {
  if (matrices <= 0 || S <= 0) return;
  const auto rows = static_cast<unsigned>(static_cast<std::size_t>(matrices) * static_cast<std::size_t>(S));
  causalSoftmaxBackwardKernel<<<rows, kRowBlock, 0, stream>>>(probs, dprobs, dscores, S);
  CUDA_CHECK_LAUNCH("causalSoftmaxBackwardKernel");
}

} // namespace shardlab::cuda
