#include "comm/WireMonitor.h"

#include "comm/MpiCheck.h"

#include <vector>

namespace shardlab {

WireMonitor::WireMonitor(MPI_Comm comm) {
  int provided = 0;
  if (MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
    inactiveReason_ = "the MPI tool interface (MPI_T) could not be initialised";
    return;
  }
  toolInterface_ = true;
  MPI_CHECK(MPI_T_pvar_session_create(&session_));
  collective_ = bind("coll_monitoring_messages_size", comm, inactiveReason_);
  std::string ignored; // point-to-point is optional (open-mpi/ompi#9260)
  pointToPoint_ = bind("pml_monitoring_messages_size", comm, ignored);
}

WireMonitor::~WireMonitor() {
  if (!toolInterface_) return;
  // No checks here: a destructor must not throw, and MPI may already be failing.
  for (auto* v : {&collective_, &pointToPoint_})
    if (v->bound) MPI_T_pvar_handle_free(session_, &v->handle);
  MPI_T_pvar_session_free(&session_);
  MPI_T_finalize();
}

WireMonitor::Variable WireMonitor::bind(const char* name, MPI_Comm comm, std::string& why) {
  Variable v;
  int index = -1;
  // The variable exists only when the launcher turned monitoring on (and the build has
  // the component); Open MPI 4.1 reports the pml's own variables as invalid.
  if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_SIZE, &index) != MPI_SUCCESS) {
    why = std::string("Open MPI's monitoring is off or absent (no performance variable ") + name + ")";
    return v;
  }
  if (MPI_T_pvar_handle_alloc(session_, index, &comm, &v.handle, &v.count) != MPI_SUCCESS) {
    why = std::string("the performance variable ") + name + " cannot be bound to the communicator";
    return v;
  }
  // Monitoring variables are not continuous: they count only once started.
  const int started = MPI_T_pvar_start(session_, v.handle);
  if (started != MPI_SUCCESS && started != MPI_T_ERR_PVAR_NO_STARTSTOP) {
    MPI_T_pvar_handle_free(session_, &v.handle);
    why = std::string("the performance variable ") + name + " cannot be started";
    return v;
  }
  v.bound = true;
  return v;
}

std::optional<std::int64_t> WireMonitor::read(const Variable& v) const {
  if (!v.bound) return std::nullopt;
  std::vector<unsigned long long> perPeer(static_cast<std::size_t>(v.count), 0);
  MPI_CHECK(MPI_T_pvar_read(session_, v.handle, perPeer.data()));
  std::int64_t sum = 0;
  for (auto bytes : perPeer) sum += static_cast<std::int64_t>(bytes);
  return sum;
}

} // namespace shardlab
