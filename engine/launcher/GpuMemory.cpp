#include "launcher/GpuMemory.h"

#include "job/JobConfig.h"

#include <string>

#ifdef SHARDLAB_HAVE_CUDA
#include "cuda/CudaDevice.h"

#include <cuda_runtime_api.h>
#endif

namespace shardlab {

std::vector<GpuMemory> visibleGpuMemory(const TestHooks& hooks) {
  std::vector<GpuMemory> gpus;
  if (hooks.gpuFreeMemory) {
    int index = 0;
    for (const std::int64_t bytes : *hooks.gpuFreeMemory) gpus.push_back({index++, "SHARDLAB_GPU_FREE_MEMORY", bytes, bytes});
    return gpus;
  }
#ifdef SHARDLAB_HAVE_CUDA
  const int count = cudaDeviceCount();
  for (int d = 0; d < count; ++d) {
    GpuMemory gpu;
    gpu.index = d;
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) == cudaSuccess) gpu.name = prop.name;
    std::size_t freeBytes = 0, totalBytes = 0;
    // cudaMemGetInfo answers for the current device and creates its primary context;
    // cudaDeviceReset releases that context, so the ranks get the memory it took.
    const bool read = cudaSetDevice(d) == cudaSuccess && cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess;
    (void)cudaDeviceReset();
    (void)cudaGetLastError();
    if (!read) return {}; // a GPU that cannot be read: not checked, as without GPUs
    gpu.freeBytes = static_cast<std::int64_t>(freeBytes);
    gpu.totalBytes = static_cast<std::int64_t>(totalBytes);
    gpus.push_back(gpu);
  }
#endif
  return gpus;
}

} // namespace shardlab
