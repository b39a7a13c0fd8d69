// What one rank of a job will hold, estimated from the job alone (no MPI, no run):
// the arithmetic the launcher's pre-flight check uses, and which the app's memory
// ledger can reuse. Bytes are fp32 (4 per value), for the busiest rank.
//
//   parameters   the rank's own parameters: a replica (DDP, pipeline stage, TP slice,
//                FSDP no-shard/optimizer, padded) or its FSDP shard
//   gradients    the same size as its parameters (FSDP: the gradient shard)
//   optimizer    AdamW's two moments of the rank's slice (FSDP: of its shard)
//   gathered     FSDP: units' full parameters rebuilt by all-gather (two units with
//                prefetch, one without; every unit under grad-op, kept through the backward)
//   reducing     FSDP: gradients being reduced (grad-op/full/hybrid: two units' full
//                gradients, one reduce-scattered while the next is computed; optimizer:
//                a unit's reduced slice)
//   activations  what the forward saves for the backward, plus the backward's
//                temporaries of one unit, for the tokens the rank computes at once
//
// Persistent state (parameters, gradients, optimizer) matches the engine's allocations
// exactly (tests/engine/MemoryEstimateTest.cpp); gathered and activations are an upper
// estimate of the peak, within the same order. Pipeline stages without `stages` are
// estimated as an even split (the balanced split's DP is too slow for huge models).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct JobConfig;

struct MemoryEstimate {
  double parameters = 0, gradients = 0, optimizer = 0, gathered = 0, reducing = 0, activations = 0;
  double persistent() const { return parameters + gradients + optimizer; }
  double total() const { return persistent() + gathered + reducing + activations; }
  // "parameters 24.4 TiB, gradients 24.4 TiB, optimizer 48.8 TiB, activations 12.0 MiB"
  std::string breakdown() const;
};

// Bytes held by the busiest rank of `job` (which must be valid).
MemoryEstimate estimateRankMemory(const JobConfig& job);

// "97.7 TiB", "22.0 GiB", "3.00 MiB": binary units, three significant digits.
std::string formatEstimate(double bytes);

// The launcher's pre-flight check (docs/architecture.md, "Failures"): why the job
// cannot run on this machine, or nullopt when it can.
//   memory  the busiest rank's estimate times the ranks this machine runs (all of them
//           without a hostfile, one with) must fit in `availableBytes` (MemAvailable);
//           a --memory-budget is a simulated device, named in the message only;
//   ranks   without a hostfile, at most maxLocalRanks(cores) ranks.
struct PreflightHost {
  std::int64_t availableBytes = 0; // /proc/meminfo MemAvailable; <= 0: unknown, not checked
  int cores = 1;                   // cores this process may run on
  bool hostfile = false;           // ranks spread over the hostfile's machines
};
std::optional<std::string> preflightRefusal(const JobConfig& job, const PreflightHost& host);
// Ranks one machine may run without a hostfile: 4 per core, and at least 8.
int maxLocalRanks(int cores);

// The same check for GPU ranks (--device cuda, cuda+mpi-staged): each GPU's free
// memory (cudaMemGetInfo, read by the launcher) against the ranks it will carry. Rank r
// runs on GPU r % gpus.size() of this machine (its local rank modulo the visible GPUs,
// as the worker picks it); with a hostfile the ranks per machine are unknown, so each
// GPU is checked against one rank. An empty list (no GPU visible, or a build without
// CUDA) is not checked: the launcher then fails as it always did, on the device choice.
struct GpuMemory {
  int index = 0;           // CUDA device index (CUDA_VISIBLE_DEVICES applies)
  std::string name;        // "NVIDIA H200"
  std::int64_t freeBytes = 0, totalBytes = 0;
};
std::optional<std::string> gpuPreflightRefusal(const JobConfig& job, const std::vector<GpuMemory>& gpus,
                                               bool hostfile);

} // namespace shardlab
