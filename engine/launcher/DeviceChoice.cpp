#include "launcher/DeviceChoice.h"

#ifdef SHARDLAB_HAVE_CUDA
#include "cuda/CudaDevice.h"
#endif

namespace shardlab {

DeviceChoice chooseDevice(const JobConfig& job) {
#ifdef SHARDLAB_HAVE_CUDA
  return chooseDevice(job, cudaDeviceCount(), true);
#else
  return chooseDevice(job, 0, false);
#endif
}

DeviceChoice chooseDevice(const JobConfig& job, int gpus, bool built) {
  DeviceChoice c;
  // "cuda" and "cuda+mpi-staged" both ask for GPUs: refuse rather than fall back to CPU.
  const bool gpuAskedFor = job.device == DeviceKind::Cuda || job.device == DeviceKind::CudaMpiStaged;
  const std::string asked(name(job.device));
  if (job.device == DeviceKind::Cpu) {
    c.device = DeviceKind::Cpu;
    c.reason = "asked for (--device cpu)";
    return c;
  }
  // FSDP's bf16 mixed precision is host code on Open MPI: the fp32 -> bf16 packing and the
  // bf16 sum (a user-defined MPI_Op); no CUDA kernel converts, and NCCL's ncclBfloat16 is
  // not wired in. A job that asks for it runs on CPU ranks, or is refused on GPU ranks.
  const bool bf16 = job.strategy == StrategyKind::Fsdp && (job.paramDtype == Dtype::Bf16 || job.reduceDtype == Dtype::Bf16);
  if (bf16) {
    const std::string option = job.paramDtype == Dtype::Bf16 ? "--param-dtype bf16" : "--reduce-dtype bf16";
    if (gpuAskedFor)
      c.error = asked + " was asked for with " + option + ", but FSDP's bf16 mixed precision runs on CPU ranks only " +
                "in this version (its bf16 conversion and bf16 sum are host code on Open MPI; NCCL's ncclBfloat16 " +
                "is not wired in): use --device cpu (or auto) for bf16, or fp32 (the default) on GPU ranks";
    c.device = DeviceKind::Cpu;
    c.reason = option + ": FSDP's bf16 mixed precision runs on CPU ranks only in this version";
    return c;
  }
  if (!built) {
    if (gpuAskedFor) c.error = asked + " was asked for, but this build of ShardLab has no CUDA backend (the CUDA toolkit, cuBLAS or NCCL was not found when it was built)";
    c.device = DeviceKind::Cpu;
    c.reason = "this build has no CUDA backend";
    return c;
  }
  if (gpus == 0) {
    if (gpuAskedFor) c.error = asked + " was asked for, but no CUDA device was found on this machine";
    c.device = DeviceKind::Cpu;
    c.reason = "no CUDA device found";
    return c;
  }
  // --device cuda is NCCL, one GPU per rank. On one machine, more ranks than GPUs
  // cannot have that: refuse rather than quietly stage (which --device auto does).
  // With a hostfile the ranks spread over machines whose GPUs this one cannot count;
  // the worker refuses there when two ranks would share a GPU.
  if (job.device == DeviceKind::Cuda && gpus < job.ranks && job.hostfile.empty()) {
    c.error = asked + " was asked for with --ranks " + std::to_string(job.ranks) + ", but this machine has " +
              std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs") +
              ": NCCL needs one GPU per rank; use --device cuda+mpi-staged (ranks share GPUs, collectives through "
              "Open MPI staged in host memory) or --device auto, or at most " + std::to_string(gpus) +
              (gpus == 1 ? " rank" : " ranks");
    c.device = DeviceKind::Cuda;
    c.reason = "asked for (--device cuda)";
    return c;
  }
  if (gpus >= job.ranks && job.device != DeviceKind::CudaMpiStaged) {
    c.device = DeviceKind::Cuda;
    c.reason = std::to_string(gpus) + (gpus == 1 ? " GPU for " : " GPUs for ") + std::to_string(job.ranks) +
               (job.ranks == 1 ? " rank" : " ranks") + ": one GPU per rank, NCCL collectives";
  } else if (job.device == DeviceKind::CudaMpiStaged) {
    c.device = DeviceKind::CudaMpiStaged;
    c.reason = "asked for (--device cuda+mpi-staged): collectives go through Open MPI, staged in host memory";
  } else {
    c.device = DeviceKind::CudaMpiStaged;
    c.reason = std::to_string(gpus) + (gpus == 1 ? " GPU for " : " GPUs for ") + std::to_string(job.ranks) +
               " ranks: ranks share GPUs, so NCCL cannot be used; collectives go through Open MPI, staged in host memory";
  }
  return c;
}

} // namespace shardlab
