// Warp and block reductions (sum, max) with warp shuffles, as in llm.c.
// blockReduce must be called by every thread of the block; blockDim.x must be a
// multiple of 32 (and at most 1024). Every thread gets the result.
#pragma once

#include <cuda_runtime.h>

namespace shardlab::cuda {

struct SumOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};
struct MaxOp {
  __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

template <typename Op>
__device__ float warpReduce(float v, Op op) {
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}

template <typename Op>
__device__ float blockReduce(float v, Op op, float identity) {
  __shared__ float perWarp[32];
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int warp = static_cast<int>(threadIdx.x / 32);
  const int warps = static_cast<int>(blockDim.x / 32);

  v = warpReduce(v, op); // lane 0 of each warp holds its warp's result
  if (lane == 0) perWarp[warp] = v;
  __syncthreads();
  v = lane < warps ? perWarp[lane] : identity; // every warp reduces the warp results
  v = warpReduce(v, op);
  __syncthreads(); // perWarp may be reused by the next call
  return v;
}

} // namespace shardlab::cuda
