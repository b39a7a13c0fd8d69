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

DeviceChoice chooseDevice(const JobConfig& job);

} // namespace shardlab
