// A kernel that keeps a stream busy for a given time: lets the tests drive
// nccl::Comm::waitFor into its timeout without needing a broken peer.
#include "Spin.h"

#include "cuda/CudaCheck.h"

namespace shardlab::testing {
namespace {

__global__ void spinKernel(unsigned long long nanoseconds) {
  unsigned long long start = 0, now = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    __nanosleep(100000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

} // namespace

void spin(cudaStream_t stream, unsigned milliseconds) {
  spinKernel<<<1, 1, 0, stream>>>(1000000ull * milliseconds);
  CUDA_CHECK_LAUNCH("spinKernel");
}

} // namespace shardlab::testing
