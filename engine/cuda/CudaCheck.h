// Checked CUDA and cuBLAS calls, llm.c style: every call goes through a macro that
// throws std::runtime_error naming the failed call, the error, the file and the line.
//
//   CUDA_CHECK(cudaMalloc(&p, bytes));
//   myKernel<<<grid, block, 0, stream>>>(...);
//   CUDA_CHECK_LAUNCH("myKernel");            // cudaGetLastError after every launch
//   CUBLAS_CHECK(cublasSgemm(handle, ...));
//
// Internal to the CUDA backend (it includes the CUDA headers); code that must build
// without CUDA includes CudaDevice.h instead.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace shardlab::cuda {

inline std::string where(const char* call, const char* file, int line) {
  return std::string(" in ") + call + " at " + file + ":" + std::to_string(line);
}

inline void checkCuda(cudaError_t err, const char* call, const char* file, int line) {
  if (err != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA error ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
                             ")" + where(call, file, line));
  }
}

inline void checkCublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cuBLAS error ") + cublasGetStatusName(status) + " (" +
                             cublasGetStatusString(status) + ")" + where(call, file, line));
  }
}

} // namespace shardlab::cuda

#define CUDA_CHECK(call) ::shardlab::cuda::checkCuda((call), #call, __FILE__, __LINE__)
#define CUBLAS_CHECK(call) ::shardlab::cuda::checkCublas((call), #call, __FILE__, __LINE__)
// After a kernel launch: catches a bad launch configuration at once (errors inside
// the kernel surface at the next synchronising call, which is checked too).
#define CUDA_CHECK_LAUNCH(kernel) \
  ::shardlab::cuda::checkCuda(cudaGetLastError(), "launch of " kernel, __FILE__, __LINE__)
