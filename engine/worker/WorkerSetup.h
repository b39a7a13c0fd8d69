// What a rank does before training: agree on the run's clock, choose its device,
// and describe itself in its trace's rank record.
#pragma once

#include "Device.h"
#include "JobConfig.h"
#include "Recorder.h"

#include <memory>

namespace shardlab {

struct WorkerSetup {
  std::unique_ptr<Device> device;
};

// Collective over MPI_COMM_WORLD.
WorkerSetup prepareRank(const JobConfig& job, Recorder& recorder);

// Test hook: SHARDLAB_FAULT="RANK:STEP:KIND" makes rank RANK fail at the start of
// step STEP, KIND being `kill` (SIGKILL itself), `segv` (SIGSEGV) or `exit` (exit 7).
// It lets the tests check how a real mpirun job reports and stops a failed rank.
void injectFaultIfAsked(int rank, int step);

void recordDeviceMemory(Device& device, Recorder& recorder);

} // namespace shardlab
