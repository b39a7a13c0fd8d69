#pragma once
#include <cuda_runtime.h>

namespace shardlab::testing {
// Enqueues one kernel on `stream` that returns after about `milliseconds`.
void spin(cudaStream_t stream, unsigned milliseconds);
} // namespace shardlab::testing
