// A kernel that keeps a stream busy for a given time and does nothing else (Spin.h).
#include "cuda/CudaCheck.h"
#include "cuda/Spin.h"

namespace shardlab::cuda {
namespace {

// One thread, asleep most of the time: it takes no SM time other streams need.
__global__ void spinKernel(unsigned long long nanoseconds) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(100000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

} // namespace

void spin(unsigned long long nanoseconds, cudaStream_t stream) {
  spinKernel<<<1, 1, 0, stream>>>(nanoseconds);
  CUDA_CHECK_LAUNCH("spinKernel");
}

} // namespace shardlab::cuda
