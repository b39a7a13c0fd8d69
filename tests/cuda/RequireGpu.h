// The gpu tests' "no GPU" rule: without a usable CUDA device a
// test skips and says why, so `ctest -L gpu` on a CPU machine is green with nothing
// run. With SHARDLAB_REQUIRE_GPU=1 (scripts/gpu-check.sh sets it whenever nvidia-smi
// sees a GPU) the same test fails instead: a driver too old for the runtime, a busy
// EXCLUSIVE_PROCESS GPU or a GPU below compute capability 8.0 is then a failure,
// not a pass.
#pragma once

#include "cuda/CudaDevice.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace shardlab::testing {

inline bool gpuRequired() {
  const char* v = std::getenv("SHARDLAB_REQUIRE_GPU");
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0;
}

} // namespace shardlab::testing

// In a test body or SetUp: returns from it, skipped or failed, when there is no GPU.
#define SHARDLAB_NEED_GPU()                                                                                  \
  do {                                                                                                      \
    std::string shardlabWhyNoGpu_;                                                                          \
    if (::shardlab::cudaDeviceCount(&shardlabWhyNoGpu_) == 0) {                                             \
      if (::shardlab::testing::gpuRequired())                                                               \
        FAIL() << "no CUDA device, and SHARDLAB_REQUIRE_GPU is set: " << shardlabWhyNoGpu_;                 \
      GTEST_SKIP() << "no CUDA device: " << shardlabWhyNoGpu_;                                              \
    }                                                                                                       \
  } while (0)
