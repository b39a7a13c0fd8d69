// Bytes this rank really put on the wire, as Open MPI's own monitoring counted them.
//
// The launcher turns Open MPI's monitoring on (`--mca pml_monitoring_enable 2`, see
// docs/trace-format.md, "Bytes on the wire"). With the value 2 the pml monitoring
// component counts the messages a collective algorithm sends internally apart from the
// application's point-to-point messages, and exposes them per peer through the MPI_T
// performance variable `coll_monitoring_messages_size`. The communication thread reads
// the sum over peers before and after each collective: the difference is what that call
// sent, whatever algorithm Open MPI chose. Messages sent outside the communication
// thread (the clock sync, the barrier before step 0, the calibration, which is another
// job) fall between two readings and are never attributed to a collective.
//
// Point-to-point messages would be `pml_monitoring_messages_size`, but Open MPI 4.1
// invalidates the pml component's variables once the pml framework is selected
// (open-mpi/ompi#9260): when that variable cannot be read, sends are "not measured".
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>

namespace shardlab {

class WireMonitor {
public:
  // Binds the variables to `comm` when monitoring is on; otherwise the monitor is
  // inactive and every reading is nullopt. Never throws for a missing component.
  explicit WireMonitor(MPI_Comm comm);
  ~WireMonitor();
  WireMonitor(const WireMonitor&) = delete;
  WireMonitor& operator=(const WireMonitor&) = delete;

  // Bytes sent so far inside collectives, summed over peers; nullopt: not measured.
  std::optional<std::int64_t> collectiveBytes() const { return read(collective_); }
  // Bytes sent so far in point-to-point messages; nullopt: not measured.
  std::optional<std::int64_t> pointToPointBytes() const { return read(pointToPoint_); }
  // Why nothing is measured ("" when collectives are): for the rank metadata.
  const std::string& inactiveReason() const { return inactiveReason_; }

private:
  struct Variable {
    bool bound = false;
    MPI_T_pvar_handle handle = MPI_T_PVAR_HANDLE_NULL;
    int count = 0; // one counter per peer
  };
  Variable bind(const char* name, MPI_Comm comm, std::string& why);
  std::optional<std::int64_t> read(const Variable& v) const;

  bool toolInterface_ = false;
  MPI_T_pvar_session session_ = MPI_T_PVAR_SESSION_NULL;
  Variable collective_, pointToPoint_;
  std::string inactiveReason_;
};

} // namespace shardlab
