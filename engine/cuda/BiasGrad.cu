// dbias[c] (+)= sum over r of dy[r, c]: a column reduction of a row-major matrix.
//
// A block owns 32 adjacent columns and has 32 x 8 threads. Thread (tx, ty) sums the
// rows ty, ty + 8, ty + 16, ... of column blockIdx.x * 32 + tx, so the 32 threads of a
// warp read 32 adjacent floats of one row (coalesced). The 8 partial sums of a
// column then meet in shared memory and thread ty == 0 writes the column's total.
#include "cuda/CudaCheck.h"
#include "cuda/Kernels.h"

namespace shardlab::cuda {
namespace {

constexpr int kColsPerBlock = 32;
constexpr int kRowLanes = 8;

__global__ void biasGradKernel(const float* dy, float* dbias, int rows, int cols, bool accumulate) {
  __shared__ float partial[kRowLanes][kColsPerBlock];
  const int col = blockIdx.x * kColsPerBlock + threadIdx.x;

  float sum = 0.0f;
  if (col < cols) {
    for (int r = threadIdx.y; r < rows; r += kRowLanes) {
      sum += dy[static_cast<std::size_t>(r) * cols + col];
    }
  }
  partial[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();

  if (threadIdx.y == 0 && col < cols) {
    float total = 0.0f;
    for (int lane = 0; lane < kRowLanes; ++lane) total += partial[lane][threadIdx.x];
    dbias[col] = accumulate ? dbias[col] + total : total;
  }
}

} // namespace

void biasGrad(const float* dy, float* dbias, int rows, int cols, bool accumulate, cudaStream_t stream) {
  if (cols <= 0) return;
  if (rows < 0) rows = 0; // rows == 0 writes zeros (or leaves dbias as is when accumulating)
  const dim3 block(kColsPerBlock, kRowLanes);
  const dim3 grid(static_cast<unsigned>((cols + kColsPerBlock - 1) / kColsPerBlock));
  biasGradKernel<<<grid, block, 0, stream>>>(dy, dbias, rows, cols, accumulate);
  CUDA_CHECK_LAUNCH("biasGradKernel");
}

} // namespace shardlab::cuda
