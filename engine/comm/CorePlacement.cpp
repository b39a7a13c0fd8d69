#include "comm/CorePlacement.h"

#include "comm/MpiCheck.h"
#include "core/Cpus.h"

#include <dirent.h>
#include <sched.h>
#include <sys/types.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace shardlab {

std::vector<int> coresForLocalRank(const std::vector<int>& usable, int localRank, int localRanks) {
  const int n = static_cast<int>(usable.size());
  if (localRanks < 1 || localRank < 0 || localRank >= localRanks || n < localRanks) return {};
  // n / localRanks each, the first n % localRanks ranks one more.
  const int each = n / localRanks, extra = n % localRanks;
  const int first = localRank * each + std::min(localRank, extra);
  const int count = each + (localRank < extra ? 1 : 0);
  return {usable.begin() + first, usable.begin() + first + count};
}

namespace {

// Every thread of this process, not only the caller: Open MPI's and OpenBLAS's own
// threads already run when the rank binds.
void bindEveryThread(const cpu_set_t& set) {
  DIR* tasks = opendir("/proc/self/task");
  if (!tasks) {
    sched_setaffinity(0, sizeof set, &set);
    return;
  }
  while (const dirent* d = readdir(tasks)) {
    if (d->d_name[0] == '.') continue;
    sched_setaffinity(static_cast<pid_t>(std::atoi(d->d_name)), sizeof set, &set);
  }
  closedir(tasks);
}

} // namespace

CorePlacement bindRankToItsCores(MPI_Comm comm, bool bind) {
  CorePlacement placement;
  placement.cpus = usableCpus();
  cpu_set_t start;
  CPU_ZERO(&start);
  for (int c : placement.cpus) CPU_SET(c, &start);

  MPI_Comm local;
  MPI_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local));
  int localRank = 0, localRanks = 1;
  MPI_CHECK(MPI_Comm_rank(local, &localRank));
  MPI_CHECK(MPI_Comm_size(local, &localRanks));
  // The same starting affinity on every local rank: compare the masks word by word,
  // min against max.
  constexpr int kWords = static_cast<int>(sizeof(cpu_set_t) / sizeof(unsigned long));
  unsigned long mine[kWords], lo[kWords], hi[kWords];
  std::memcpy(mine, &start, sizeof start);
  MPI_CHECK(MPI_Allreduce(mine, lo, kWords, MPI_UNSIGNED_LONG, MPI_MIN, local));
  MPI_CHECK(MPI_Allreduce(mine, hi, kWords, MPI_UNSIGNED_LONG, MPI_MAX, local));
  MPI_Comm_free(&local);
  const bool same = std::memcmp(lo, hi, sizeof lo) == 0;

  const auto slice = coresForLocalRank(placement.cpus, localRank, localRanks);
  if (!bind || !same || slice.empty()) return placement;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : slice) CPU_SET(c, &set);
  bindEveryThread(set);
  // What the kernel now says, not what was asked: the trace records the binding as it is.
  placement.cpus = usableCpus();
  placement.bound = placement.cpus == slice;
  return placement;
}

} // namespace shardlab
