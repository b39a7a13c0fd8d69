#pragma once
// Where a rank's threads run on its host. mpirun starts the ranks unbound
// (--bind-to none: binding 4 ranks to 2 cores would serialise them); where the host
// has a core or more for each of its ranks, each rank then binds all its threads
// (compute, communication, OpenBLAS) to a slice of its own. Unbound on 2 cores, a
// receiving rank's compute thread spinning in MPI_Probe sometimes held the core the
// sending rank's communication thread needed, for a whole run: GPipe's hand-offs
// then took 0.12-0.14 of the stage time instead of 0.002-0.01 (docs/performance.md,
// "Ranks bound to their own cores").
#include <mpi.h>

#include <vector>

namespace shardlab {

// The CPUs of local rank `localRank` of `localRanks` sharing `usable` (each rank's
// affinity at start, the same on every local rank): usable.size() / localRanks of
// them in a row, the first usable.size() % localRanks ranks one more. Empty (stay
// unbound) when there are fewer CPUs than ranks.
std::vector<int> coresForLocalRank(const std::vector<int>& usable, int localRank, int localRanks);

struct CorePlacement {
  std::vector<int> cpus; // what this rank's threads may run on now
  bool bound = false;    // true: bound to a slice of its own; false: left as started
};

// Collective over `comm` (the ranks on this host, by MPI_Comm_split_type shared): binds
// every thread of this process to coresForLocalRank, where every local rank started
// with the same affinity (a launcher or batch system that bound the ranks itself has
// its way). `bind` false (Tuning::bindRanks: SHARDLAB_BIND_RANKS=0, passed as the
// worker's --no-bind-ranks) leaves the ranks unbound (measuring).
CorePlacement bindRankToItsCores(MPI_Comm comm, bool bind = true);

} // namespace shardlab
