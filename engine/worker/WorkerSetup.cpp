#include "worker/WorkerSetup.h"

#include "core/Clock.h"
#include "comm/CorePlacement.h"
#include "comm/MpiCheck.h"

#ifdef SHARDLAB_HAVE_CUDA
#include "cuda/CudaCheck.h"
#include "cuda/CudaDevice.h"
#include "comm/CudaTransports.h"
#include "cuda/NcclComm.h"

#include <cuda_runtime.h>
#endif

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace shardlab {
namespace {

struct ClockSync {
  std::int64_t epoch = 0, offset = 0, uncertainty = 0;
  bool sameHost = true;
};

// SHARDLAB_TEST_CLOCK_SHIFT_NS=RANK:NS (tests, passed as --test-clock-shift-ns): rank
// RANK reads its clock NS nanoseconds ahead (negative: behind), as a rank on a machine
// whose clock differs would. This rank's shift, 0 when not asked.
std::int64_t testClockShift(const TestHooks& hooks, int rank) {
  return hooks.clockShift && hooks.clockShift->rank == rank ? hooks.clockShift->ns : 0;
}

// Rank 0's clock is the run's clock. Ranks on rank 0's host read the same monotonic
// clock; a rank on another host (or whose clock a test shifted) estimates its offset by
// ping-pong with rank 0 (Cristian's method: offset = t0 - midpoint, uncertainty = half
// the round trip). `shift` is added to every reading of this rank's clock.
ClockSync synchroniseClock(int rank, int size, std::int64_t shift) {
  ClockSync s;
  MPI_Comm local;
  MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local));
  int localSize = 0;
  MPI_CHECK(MPI_Comm_size(local, &localSize));
  MPI_Comm_free(&local);
  int allOnOneHost = localSize == size ? 1 : 0;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &allOnOneHost, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  s.sameHost = allOnOneHost == 1;
  int clocksShared = s.sameHost && shift == 0 ? 1 : 0;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &clocksShared, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  auto clockNs = [shift] { return monotonicNs() + shift; };

  std::int64_t epoch = clockNs();
  MPI_CHECK(MPI_Bcast(&epoch, 1, MPI_INT64_T, 0, MPI_COMM_WORLD));
  s.epoch = epoch;
  if (clocksShared == 1) return s;

  constexpr int kRounds = 8;
  for (int peer = 1; peer < size; ++peer) {
    if (rank == 0) {
      for (int i = 0; i < kRounds; ++i) {
        std::int64_t dummy = 0;
        MPI_CHECK(MPI_Recv(&dummy, 1, MPI_INT64_T, peer, 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        std::int64_t t = clockNs();
        MPI_CHECK(MPI_Send(&t, 1, MPI_INT64_T, peer, 91, MPI_COMM_WORLD));
      }
    } else if (rank == peer) {
      std::int64_t best = INT64_MAX;
      for (int i = 0; i < kRounds; ++i) {
        const std::int64_t a = clockNs();
        std::int64_t zero = 0, remote = 0;
        MPI_CHECK(MPI_Send(&zero, 1, MPI_INT64_T, 0, 90, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Recv(&remote, 1, MPI_INT64_T, 0, 91, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        const std::int64_t b = clockNs();
        if (b - a < best) {
          best = b - a;
          s.offset = remote - (a + b) / 2;
          s.uncertainty = (b - a) / 2;
        }
      }
    }
  }
  return s;
}

std::string hostName() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

#ifdef SHARDLAB_HAVE_CUDA
std::string versionText(int code) { // 13000 -> "13.0" (CUDA driver and runtime)
  return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

// A GPU rank: its device, transport and op timer, and what its rank record says.
void prepareGpuRank(const JobConfig& job, Recorder& recorder, const Tuning& tuning, const TestHooks& hooks,
                    WorkerSetup& setup, nlohmann::json& meta) {
  const bool useNccl = job.device == DeviceKind::Cuda;
  std::string why;
  const int gpus = cudaDeviceCount(&why);
  if (gpus == 0) throw std::runtime_error("device " + std::string(name(job.device)) + ": no CUDA device on this rank: " + why);
  const int local = nccl::localRank(MPI_COMM_WORLD); // collective
  if (useNccl && local >= gpus) {
    throw std::runtime_error("device cuda needs one GPU per rank, but this is local rank " + std::to_string(local) +
                             " with " + std::to_string(gpus) + " GPU(s) visible (the launcher picks cuda+mpi-staged "
                             "when ranks outnumber GPUs)");
  }
  const int gpu = local % gpus;
  auto device = std::make_unique<CudaDevice>(gpu);
  CudaDevice& cuda = *device;
  if (useNccl && nccl::ranksShareGpu(MPI_COMM_WORLD, gpu)) // collective
    throw std::runtime_error("device cuda: two ranks would share GPU " + std::to_string(gpu) + ", which NCCL cannot do");

  GpuTransportOptions options;
  options.timeout = tuning.gpuTimeout;
  options.commDelay = hooks.commDelay;
  options.unitNames = job.unitNames();
  auto clock = std::make_shared<GpuClock>(recorder, gpu);
  if (useNccl) {
    setup.transport = makeNcclTransport(MPI_COMM_WORLD, recorder, cuda, nccl::Comm::fromMpi(MPI_COMM_WORLD, gpu),
                                        clock, options);
  } else {
    setup.transport = makeStagedTransport(MPI_COMM_WORLD, recorder, cuda, options);
  }
  setup.opTimer = std::make_shared<CudaOpTimer>(recorder, cuda, clock, job.unitNames());

  const CudaDeviceInfo info = cudaDeviceInfo(gpu);
  const int ncclVersion = nccl::libraryVersion();
  meta["device_name"] = info.name;
  meta["gpu"] = {{"index", gpu},
                 {"local_rank", local},
                 {"name", info.name},
                 {"compute_capability", std::to_string(info.computeMajor) + "." + std::to_string(info.computeMinor)},
                 {"pci_bus_id", info.pciBusId},
                 {"memory_total_bytes", static_cast<std::int64_t>(info.totalBytes)},
                 {"multiprocessors", info.multiProcessors},
                 {"driver", versionText(info.driverVersion)},
                 {"cuda_runtime", versionText(info.runtimeVersion)},
                 {"nccl", std::to_string(ncclVersion / 10000) + "." + std::to_string((ncclVersion / 100) % 100) + "." +
                              std::to_string(ncclVersion % 100)}};
  meta["communication"] = setup.transport->name();
  meta["gpu_timing"] = "CUDA events on the run clock (anchored by cudaEventSynchronize)";
  meta["gpu_clock_uncertainty_ns"] = clock->uncertaintyNs();
  meta["gpu_timeout_ms"] = static_cast<std::int64_t>(options.timeout.count());
  setup.device = std::move(device);
}
#endif

} // namespace

WorkerSetup prepareRank(const JobConfig& job, Recorder& recorder, const Tuning& tuning, const TestHooks& hooks) {
  int rank = 0, size = 1;
  MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const std::int64_t shift = testClockShift(hooks, rank);
  const ClockSync clock = synchroniseClock(rank, size, shift);
  // The run clock reads monotonic + offset - epoch; a shifted clock reads monotonic + shift.
  recorder.clock().set(clock.epoch, clock.offset + shift);
  // After handOffSpinOnThisNode (main.cpp), which counts the host's cores, not the slice.
  const CorePlacement placement = bindRankToItsCores(MPI_COMM_WORLD, tuning.bindRanks);

  WorkerSetup setup;
  nlohmann::json meta;
  if (job.device == DeviceKind::Cuda || job.device == DeviceKind::CudaMpiStaged) {
#ifdef SHARDLAB_HAVE_CUDA
    prepareGpuRank(job, recorder, tuning, hooks, setup, meta);
#else
    throw std::runtime_error("device " + std::string(name(job.device)) + ": this worker was built without the CUDA backend");
#endif
  } else {
    setup.device = makeCpuDevice(tuning.blasThreads);
    meta["device_name"] = clock.sameHost ? "CPU rank (Open MPI, shared memory)" : "CPU rank (Open MPI)";
    meta["communication"] = "Open MPI";
  }

  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string mpi(version, static_cast<std::size_t>(length));
  if (auto nl = mpi.find_first_of(",\n"); nl != std::string::npos) mpi.resize(nl);

  meta["host"] = hostName();
  meta["pid"] = static_cast<long long>(getpid());
  meta["device"] = setup.device->kind(); // "cpu" or "cuda"; "communication" says NCCL or staged
  meta["mpi_library"] = mpi;
  meta["clock_offset_ns"] = clock.offset;
  meta["clock_uncertainty_ns"] = clock.uncertainty;
  meta["same_host"] = clock.sameHost;
  meta["cpus"] = placement.cpus;
  meta["bound_to_cpus"] = placement.bound;
  if (!job.mesh.empty()) meta["mesh"] = job.mesh.coordinatesJson(rank); // docs/mesh.md
  if (shift != 0) meta["test_clock_shift_ns"] = shift; // the trace says this rank's clock was shifted on purpose
  recorder.header(meta);
  recorder.setOpTimer(setup.opTimer.get());
  return setup;
}

void injectFault(const InjectedFailure& failure, int rank, int step) {
  if (failure.rank != rank || failure.step != step) return;
  std::fflush(nullptr);
  switch (failure.kind) {
  case InjectedFailure::Kind::Kill: std::raise(SIGKILL); break;
  case InjectedFailure::Kind::Segv: std::raise(SIGSEGV); break;
  case InjectedFailure::Kind::Exit: std::_Exit(7);
  case InjectedFailure::Kind::Hang:
    for (;;) ::pause(); // until mpirun stops the job
  }
}

void recordDeviceMemory(Device& device, Recorder& recorder) {
#ifdef SHARDLAB_HAVE_CUDA
  if (device.kind() == "cuda") {
    std::size_t freeBytes = 0, totalBytes = 0;
    CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes)); // the rank's GPU is current on this thread
    recorder.deviceMemory(static_cast<std::int64_t>(freeBytes), static_cast<std::int64_t>(totalBytes));
  }
#else
  (void)device;
  (void)recorder; // no GPU ranks without the CUDA backend
#endif
}

} // namespace shardlab
