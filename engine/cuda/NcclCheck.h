// NCCL_CHECK: every NCCL call goes through it, like CUDA_CHECK (CudaCheck.h). On
// failure it throws std::runtime_error naming the call, NCCL's error, NCCL's last
// error message (which says what went wrong: a peer gone, a bad argument), file and line.
#pragma once

#include <nccl.h>

#include <stdexcept>
#include <string>

namespace shardlab::nccl {

inline void checkNccl(ncclResult_t result, const char* call, const char* file, int line) {
  if (result != ncclSuccess && result != ncclInProgress) {
    std::string message = std::string("NCCL error ") + ncclGetErrorString(result);
    const char* last = ncclGetLastError(nullptr);
    if (last != nullptr && last[0] != '\0') message += std::string(" (") + last + ")";
    throw std::runtime_error(message + " in " + call + " at " + file + ":" + std::to_string(line));
  }
}

} // namespace shardlab::nccl

#define NCCL_CHECK(call) ::shardlab::nccl::checkNccl((call), #call, __FILE__, __LINE__)
