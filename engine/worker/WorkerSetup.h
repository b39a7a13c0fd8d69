// What a rank does before training: agree on the run's clock, choose its device,
// and describe itself in its trace's rank record.
#pragma once

#include "core/Device.h"
#include "job/EnvSettings.h"
#include "job/Faults.h"
#include "job/JobConfig.h"
#include "core/Recorder.h"
#include "comm/Transport.h"

#include <memory>
#include <optional>

namespace shardlab {

// What the rank computes and communicates with, by job.device (the launcher's choice):
//   "cpu"             CPU device, Open MPI on host buffers
//   "cuda"            one GPU per rank (node-local rank), NCCL on a communication stream
//   "cuda+mpi-staged" GPU node-local rank % GPUs, Open MPI staged through pinned host memory
struct WorkerSetup {
  std::unique_ptr<Device> device;
  std::unique_ptr<Transport> transport; // for the CommStream; null: Open MPI on host buffers
  std::shared_ptr<OpTimer> opTimer;     // set on the recorder; null: host timing
  // (destroyed in reverse order: the timer's events go before the device)
};

// Collective over MPI_COMM_WORLD. Throws std::runtime_error (with the reason) when the
// device cannot be set up; a CUDA device is only possible in a build with CUDA.
// `tuning` and `hooks` are what the launcher read from its environment and passed as
// the worker's options: the core binding, BLAS threads, GPU timeout, the test clock
// shift (recorded in the rank record) and the NCCL transport's test delay.
WorkerSetup prepareRank(const JobConfig& job, Recorder& recorder, const Tuning& tuning, const TestHooks& hooks);

// Test hook: the failure the worker was given (--fault, from the launcher's
// SHARDLAB_FAULT): when this is its rank and step, the rank fails as it says. It lets the
// tests check how a real mpirun job reports and stops a failed or hung rank.
void injectFault(const InjectedFailure& failure, int rank, int step);

// A GPU rank records cudaMemGetInfo (devmem); a CPU rank records nothing.
void recordDeviceMemory(Device& device, Recorder& recorder);

} // namespace shardlab
