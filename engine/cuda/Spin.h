// A test hook, not a Device operation (Spin.cu): keeps a stream busy for a given
// time. The NCCL transport's SHARDLAB_TEST_COMM_DELAY_US and the GPU tests use it to
// make stream-ordering races lose every time instead of by chance.
#pragma once

#include <cuda_runtime.h>

namespace shardlab::cuda {

// Enqueues one kernel (one thread, asleep most of the time) on `stream` that returns
// after about `nanoseconds` by the GPU's global timer.
void spin(unsigned long long nanoseconds, cudaStream_t stream);

} // namespace shardlab::cuda
