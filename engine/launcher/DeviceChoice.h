// Which device a job's ranks use, and why (shardlab-run prints the reason).
#pragma once

#include "job/JobConfig.h"

#include <string>

namespace shardlab {

struct DeviceChoice {
  DeviceKind device = DeviceKind::Cpu; // Cpu, Cuda (NCCL) or CudaMpiStaged
  std::string reason;
  std::string error;  // set when the request cannot be met (exit 2)
};

// The choice for this machine: its visible CUDA devices, and whether this build has
// the CUDA backend.
DeviceChoice chooseDevice(const JobConfig& job);
// The same rule, pure: `gpus` visible CUDA devices, `cudaBuilt` the backend is built.
DeviceChoice chooseDevice(const JobConfig& job, int gpus, bool cudaBuilt);

} // namespace shardlab
