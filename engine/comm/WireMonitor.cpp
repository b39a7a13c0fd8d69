#include "comm/WireMonitor.h"

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <cstddef>
#include <cstring>

namespace {

std::atomic<std::int64_t> collectiveSent{0}, pointToPointSent{0};

using RecordPml = void (*)(int, std::size_t, int);

// The loaded libmca_common_monitoring (Open MPI loads it with its monitoring pml), or null.
void* monitoringLibrary() {
  std::string path;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        if (info->dlpi_name && std::strstr(info->dlpi_name, "libmca_common_monitoring.so")) {
          *static_cast<std::string*>(out) = info->dlpi_name;
          return 1;
        }
        return 0;
      },
      &path);
  return path.empty() ? nullptr : dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
}

RecordPml openMpisRecordPml() {
  static const RecordPml real = [] {
    void* library = monitoringLibrary();
    return library ? reinterpret_cast<RecordPml>(dlsym(library, "mca_common_monitoring_record_pml")) : nullptr;
  }();
  return real;
}

} // namespace

// Open MPI's monitoring pml calls this for every message it sends (WireMonitor.h); the
// worker exports it so that the call resolves here before libmca_common_monitoring.
extern "C" __attribute__((visibility("default"))) void mca_common_monitoring_record_pml(int worldRank,
                                                                                       std::size_t bytes, int tag) {
  (tag < 0 ? collectiveSent : pointToPointSent).fetch_add(static_cast<std::int64_t>(bytes), std::memory_order_relaxed);
  if (const auto real = openMpisRecordPml(); real && real != &mca_common_monitoring_record_pml)
    real(worldRank, bytes, tag);
}

namespace shardlab {

WireMonitor::WireMonitor() {
  void* library = monitoringLibrary();
  if (!library) {
    inactiveReason_ = "Open MPI's monitoring is off or absent (libmca_common_monitoring is not loaded)";
    return;
  }
  const auto* enabled = static_cast<const int*>(dlsym(library, "mca_common_monitoring_enabled"));
  if (!enabled || *enabled == 0) {
    inactiveReason_ = "Open MPI's monitoring is off (pml_monitoring_enable 0)";
    return;
  }
  // The library must define the function its pml calls (an Open MPI that renamed it
  // would leave the counters at 0: not measured, rather than a wrong 0).
  const auto real = openMpisRecordPml();
  if (!real || real == &mca_common_monitoring_record_pml) {
    inactiveReason_ = "libmca_common_monitoring has no mca_common_monitoring_record_pml";
    return;
  }
  // Our counter sees the pml's calls only if it is the definition the dynamic linker
  // finds first, i.e. the executable exports it.
  if (dlsym(RTLD_DEFAULT, "mca_common_monitoring_record_pml") !=
      reinterpret_cast<void*>(&mca_common_monitoring_record_pml)) {
    inactiveReason_ = "this program does not export mca_common_monitoring_record_pml, so Open MPI's monitoring "
                      "counts its messages elsewhere";
    return;
  }
  active_ = true;
}

std::optional<std::int64_t> WireMonitor::collectiveBytes() const {
  if (!active_) return std::nullopt;
  return collectiveSent.load(std::memory_order_relaxed);
}

std::optional<std::int64_t> WireMonitor::pointToPointBytes() const {
  if (!active_) return std::nullopt;
  return pointToPointSent.load(std::memory_order_relaxed);
}

} // namespace shardlab
