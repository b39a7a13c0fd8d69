// Bytes this rank really put on the wire, counted at Open MPI's pml as its monitoring
// component sees each message go out.
//
// The launcher turns Open MPI's monitoring on (`--mca pml_monitoring_enable 2`, see
// docs/trace-format.md, "Bytes on the wire"): the `monitoring` pml then sits over the
// real one (ob1) and, for every message any algorithm sends — an all-reduce's ring
// steps as much as a pipeline's MPI_Send —, calls `mca_common_monitoring_record_pml(
// world_rank, bytes, tag)` in libmca_common_monitoring. That call is where the bytes
// are counted here: the worker exports a function of that name (engine/comm/
// CMakeLists.txt), which the pml's call resolves to first; it adds the bytes to this
// process's counters and passes the call on to Open MPI's own. Messages with a negative
// tag are a collective's internal ones (Open MPI's coll tags are negative), the others
// the application's point-to-point messages.
//
// Why not MPI_T, Open MPI's documented way? In Open MPI 4.1 MPI_T cannot read the pml's
// variables at all (open-mpi/ompi#9260: invalid once the pml is selected), and the
// variable it can read, `coll_monitoring_messages_size`, is not what was sent: the coll
// monitoring component adds the call's nominal size for every peer before the algorithm
// runs (an all-reduce of B: B to each of the N−1 others, whatever the algorithm sent; an
// in-place all-gather: 0, since MPI_IN_PLACE leaves its send count unused).
//
// The communication thread reads the counters before and after each MPI call: the
// difference is what that call sent. Messages sent outside the communication thread
// (the clock sync, the barrier before step 0, the parameter dump) fall between two
// readings and are never attributed to a call.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace shardlab {

class WireMonitor {
public:
  // Active when Open MPI's monitoring is on in this process and its calls reach the
  // counters here; otherwise every reading is nullopt. Never throws.
  WireMonitor();

  // Bytes sent so far inside collectives (this process, every communicator); nullopt: not measured.
  std::optional<std::int64_t> collectiveBytes() const;
  // Bytes sent so far in point-to-point messages; nullopt: not measured.
  std::optional<std::int64_t> pointToPointBytes() const;
  // Why nothing is measured ("" when it is): for the rank metadata.
  const std::string& inactiveReason() const { return inactiveReason_; }

private:
  bool active_ = false;
  std::string inactiveReason_;
};

} // namespace shardlab
