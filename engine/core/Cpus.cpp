#include "core/Cpus.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>

namespace shardlab {

std::vector<int> usableCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    return cpus;
  }
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  for (int c = 0; c < std::max(1L, n); ++c) cpus.push_back(c);
  return cpus;
}

int usableCpuCount() { return std::max(1, static_cast<int>(usableCpus().size())); }

} // namespace shardlab
