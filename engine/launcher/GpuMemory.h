// Each visible GPU's free memory, for the launcher's pre-flight check
// (gpuPreflightRefusal, engine/job/MemoryEstimate.h). The comparison is pure and
// tested on CPU; this is only the query.
#pragma once

#include "job/EnvSettings.h"
#include "job/MemoryEstimate.h"

#include <vector>

namespace shardlab {

// cudaMemGetInfo on every GPU this process sees (CUDA_VISIBLE_DEVICES applies), each
// device's primary context released again (cudaDeviceReset), so the launcher holds no
// GPU memory while the ranks run. Empty without a GPU, or in a build without CUDA.
// Test hook: SHARDLAB_GPU_FREE_MEMORY=SIZE[,SIZE...] (hooks.gpuFreeMemory, read by the
// launcher at its start) stands for the GPUs (one SIZE each, free and total), as
// SHARDLAB_FREE_MEMORY stands for the host's free memory.
std::vector<GpuMemory> visibleGpuMemory(const TestHooks& hooks);

} // namespace shardlab
