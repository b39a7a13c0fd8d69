// Which device a job's ranks use, and why (shardlab-run prints the reason).
#pragma once

#include "core/JobConfig.h"

#include <string>

namespace shardlab {

struct DeviceChoice {
  std::string device; // "cpu", "cuda" (NCCL) or "cuda+mpi-staged"
  std::string reason;
  std::string error;  // set when the request cannot be met (exit 2)
};

DeviceChoice chooseDevice(const JobConfig& job);

} // namespace shardlab
