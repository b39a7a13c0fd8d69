// An independent count of the collectives each communicator carried, not the trace's:
// a PMPI interposer, preloaded into each rank (LD_PRELOAD, by the wrapper worker the
// mesh test names in SHARDLAB_WORKER). It counts MPI_Allreduce, MPI_Allgather and
// MPI_Reduce_scatter per communicator, the communicator named by its members' world
// ranks (a mask, as the trace's PARTICIPANTS), and at MPI_Finalize each rank writes one
// line "MASK KIND COUNT" per pair (hexadecimal mask; KIND all_reduce, all_gather,
// reduce_scatter) to $SHARDLAB_TEST_COLLECTIVE_COUNTS/rank-R.counts.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace {

std::mutex countsMutex;
std::map<std::pair<std::uint64_t, std::string>, long> counts;

std::uint64_t worldMask(MPI_Comm comm) {
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> local(static_cast<std::size_t>(size)), global(static_cast<std::size_t>(size));
  std::iota(local.begin(), local.end(), 0);
  PMPI_Group_translate_ranks(group, size, local.data(), world, global.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  std::uint64_t mask = 0;
  for (int r : global) mask |= std::uint64_t{1} << r;
  return mask;
}

void count(MPI_Comm comm, const char* kind) {
  const std::uint64_t mask = worldMask(comm);
  std::lock_guard lock(countsMutex);
  ++counts[{mask, kind}];
}

} // namespace

extern "C" {

int MPI_Allreduce(const void* send, void* recv, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  count(comm, "all_reduce");
  return PMPI_Allreduce(send, recv, n, type, op, comm);
}

int MPI_Allgather(const void* send, int sendCount, MPI_Datatype sendType, void* recv, int recvCount,
                  MPI_Datatype recvType, MPI_Comm comm) {
  count(comm, "all_gather");
  return PMPI_Allgather(send, sendCount, sendType, recv, recvCount, recvType, comm);
}

int MPI_Reduce_scatter(const void* send, void* recv, const int recvCounts[], MPI_Datatype type, MPI_Op op,
                       MPI_Comm comm) {
  count(comm, "reduce_scatter");
  return PMPI_Reduce_scatter(send, recv, recvCounts, type, op, comm);
}

int MPI_Finalize() {
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (const char* dir = std::getenv("SHARDLAB_TEST_COLLECTIVE_COUNTS")) {
    const std::string path = std::string(dir) + "/rank-" + std::to_string(rank) + ".counts";
    if (std::FILE* out = std::fopen(path.c_str(), "w")) {
      std::lock_guard lock(countsMutex);
      for (const auto& [key, n] : counts)
        std::fprintf(out, "%llx %s %ld\n", static_cast<unsigned long long>(key.first), key.second.c_str(), n);
      std::fclose(out);
    }
  }
  return PMPI_Finalize();
}

} // extern "C"
