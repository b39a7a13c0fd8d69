#include "WorkerSetup.h"

#include "Clock.h"
#include "MpiCheck.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace shardlab {
namespace {

struct ClockSync {
  std::int64_t epoch = 0, offset = 0, uncertainty = 0;
  bool sameHost = true;
};

// Rank 0's monotonic clock is the run's clock. Ranks on rank 0's host read the same
// clock; a rank on another host estimates its offset by ping-pong with rank 0
// (Cristian's method: offset = t0 - midpoint, uncertainty = half the round trip).
ClockSync synchroniseClock(int rank, int size) {
  ClockSync s;
  MPI_Comm local;
  MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local));
  int localSize = 0;
  MPI_CHECK(MPI_Comm_size(local, &localSize));
  MPI_Comm_free(&local);
  int allOnOneHost = localSize == size ? 1 : 0;
  MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, &allOnOneHost, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  s.sameHost = allOnOneHost == 1;

  std::int64_t epoch = monotonicNs();
  MPI_CHECK(MPI_Bcast(&epoch, 1, MPI_INT64_T, 0, MPI_COMM_WORLD));
  s.epoch = epoch;
  if (s.sameHost) return s;

  constexpr int kRounds = 8;
  for (int peer = 1; peer < size; ++peer) {
    if (rank == 0) {
      for (int i = 0; i < kRounds; ++i) {
        std::int64_t dummy = 0;
        MPI_CHECK(MPI_Recv(&dummy, 1, MPI_INT64_T, peer, 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        std::int64_t t = monotonicNs();
        MPI_CHECK(MPI_Send(&t, 1, MPI_INT64_T, peer, 91, MPI_COMM_WORLD));
      }
    } else if (rank == peer) {
      std::int64_t best = INT64_MAX;
      for (int i = 0; i < kRounds; ++i) {
        const std::int64_t a = monotonicNs();
        std::int64_t zero = 0, remote = 0;
        MPI_CHECK(MPI_Send(&zero, 1, MPI_INT64_T, 0, 90, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Recv(&remote, 1, MPI_INT64_T, 0, 91, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        const std::int64_t b = monotonicNs();
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

} // namespace

WorkerSetup prepareRank(const JobConfig& job, Recorder& recorder) {
  int rank = 0, size = 1;
  MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  const ClockSync clock = synchroniseClock(rank, size);
  recorder.clock().set(clock.epoch, clock.offset);

  WorkerSetup setup;
  setup.device = makeCpuDevice();
  (void)job;

  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string mpi(version, static_cast<std::size_t>(length));
  if (auto nl = mpi.find_first_of(",\n"); nl != std::string::npos) mpi.resize(nl);

  nlohmann::json meta = {{"host", hostName()},
                         {"pid", static_cast<long long>(getpid())},
                         {"device", setup.device->kind()},
                         {"device_name", setup.device->kind() == "cpu"
                                             ? std::string(clock.sameHost ? "CPU rank (Open MPI, shared memory)"
                                                                          : "CPU rank (Open MPI)")
                                             : setup.device->name()},
                         {"communication", "Open MPI"},
                         {"mpi_library", mpi},
                         {"clock_offset_ns", clock.offset},
                         {"clock_uncertainty_ns", clock.uncertainty},
                         {"same_host", clock.sameHost}};
  recorder.header(meta);
  return setup;
}

void injectFaultIfAsked(int rank, int step) {
  const char* spec = std::getenv("SHARDLAB_FAULT");
  if (!spec) return;
  int faultRank = -1, faultStep = -1;
  char kind[16] = {};
  if (std::sscanf(spec, "%d:%d:%15s", &faultRank, &faultStep, kind) != 3) return;
  if (faultRank != rank || faultStep != step) return;
  const std::string k = kind;
  std::fflush(nullptr);
  if (k == "kill") std::raise(SIGKILL);
  if (k == "segv") std::raise(SIGSEGV);
  if (k == "exit") std::_Exit(7);
}

void recordDeviceMemory(Device& device, Recorder& recorder) {
  (void)device;
  (void)recorder; // GPU ranks record cudaMemGetInfo here (engine/cuda)
}

} // namespace shardlab
