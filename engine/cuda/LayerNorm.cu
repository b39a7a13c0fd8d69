// LayerNorm over the rows of x (rows x cols), forward and backward.
//   forward   one block per row: mean, then the biased variance around it (two
//             passes, as the CPU device does), y = (x - mean) * rstd * gamma + beta.
//   backward  one block per row for dx:
//               xhat = (x - mean) * rstd, dxhat = dy * gamma,
//               dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat));
//             then dgamma += sum_r dy * xhat and dbeta += sum_r dy, a column
//             reduction laid out as BiasGrad.cu's (32 columns a block, 8 row lanes),
//             so no atomics and the same sum on every run.
#include "cuda/BlockReduce.cuh"
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

namespace shardlab::cuda {
namespace {

constexpr int kRowBlock = 128;
constexpr int kColsPerBlock = 32;
constexpr int kRowLanes = 8;

__global__ void layerNormForwardKernel(const float* x, const float* gamma, const float* beta, float* y, float* mean,
                                       float* rstd, int cols, float eps) {
  const std::size_t row = blockIdx.x;
  const float* xr = x + row * static_cast<std::size_t>(cols);
  float* yr = y + row * static_cast<std::size_t>(cols);
  float local = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) local += xr[c];
  const float mu = blockReduce(local, SumOp{}, 0.0f) / static_cast<float>(cols);
  float localSq = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) localSq += (xr[c] - mu) * (xr[c] - mu);
  const float var = blockReduce(localSq, SumOp{}, 0.0f) / static_cast<float>(cols);
  const float rs = rsqrtf(var + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) yr[c] = (xr[c] - mu) * rs * gamma[c] + beta[c];
  if (threadIdx.x == 0) {
    mean[row] = mu;
    rstd[row] = rs;
  }
}

__global__ void layerNormInputGradKernel(const float* x, const float* gamma, const float* mean, const float* rstd,
                                         const float* dy, float* dx, int cols, bool accumulate) {
  const std::size_t row = blockIdx.x;
  const float* xr = x + row * static_cast<std::size_t>(cols);
  const float* g = dy + row * static_cast<std::size_t>(cols);
  float* d = dx + row * static_cast<std::size_t>(cols);
  const float mu = mean[row], rs = rstd[row];
  float localD = 0.0f, localDX = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float dxhat = g[c] * gamma[c];
    localD += dxhat;
    localDX += dxhat * (xr[c] - mu) * rs;
  }
  const float meanD = blockReduce(localD, SumOp{}, 0.0f) / static_cast<float>(cols);
  const float meanDX = blockReduce(localDX, SumOp{}, 0.0f) / static_cast<float>(cols);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    const float xhat = (xr[c] - mu) * rs;
    const float v = rs * (g[c] * gamma[c] - meanD - xhat * meanDX);
    d[c] = accumulate ? d[c] + v : v;
  }
}

__global__ void layerNormParamGradKernel(const float* x, const float* mean, const float* rstd, const float* dy,
                                         float* dgamma, float* dbeta, int rows, int cols) {
  __shared__ float partialGamma[kRowLanes][kColsPerBlock];
  __shared__ float partialBeta[kRowLanes][kColsPerBlock];
  const int col = blockIdx.x * kColsPerBlock + threadIdx.x;
  float sumGamma = 0.0f, sumBeta = 0.0f;
  if (col < cols) {
    for (int r = threadIdx.y; r < rows; r += kRowLanes) {
      const std::size_t i = static_cast<std::size_t>(r) * cols + col;
      sumGamma += dy[i] * (x[i] - mean[r]) * rstd[r];
      sumBeta += dy[i];
    }
  }
  partialGamma[threadIdx.y][threadIdx.x] = sumGamma;
  partialBeta[threadIdx.y][threadIdx.x] = sumBeta;
  __syncthreads();
  if (threadIdx.y == 0 && col < cols) {
    float g = 0.0f, b = 0.0f;
    for (int lane = 0; lane < kRowLanes; ++lane) {
      g += partialGamma[lane][threadIdx.x];
      b += partialBeta[lane][threadIdx.x];
    }
    dgamma[col] += g;
    dbeta[col] += b;
  }
}

} // namespace

void layerNormForward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                      int rows, int cols, float eps, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  layerNormForwardKernel<<<static_cast<unsigned>(rows), kRowBlock, 0, stream>>>(x, gamma, beta, y, mean, rstd, cols,
                                                                                 eps);
  CUDA_CHECK_LAUNCH("layerNormForwardKernel");
}

void layerNormBackward(const float* x, const float* gamma, const float* mean, const float* rstd, const float* dy,
                       float* dx, float* dgamma, float* dbeta, int rows, int cols, bool accumulate,
                       cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  layerNormInputGradKernel<<<static_cast<unsigned>(rows), kRowBlock, 0, stream>>>(x, gamma, mean, rstd, dy, dx, cols,
                                                                                   accumulate);
  CUDA_CHECK_LAUNCH("layerNormInputGradKernel");
  const dim3 block(kColsPerBlock, kRowLanes);
  const dim3 grid(static_cast<unsigned>((cols + kColsPerBlock - 1) / kColsPerBlock));
  layerNormParamGradKernel<<<grid, block, 0, stream>>>(x, mean, rstd, dy, dgamma, dbeta, rows, cols);
  CUDA_CHECK_LAUNCH("layerNormParamGradKernel");
}

} // namespace shardlab::cuda
