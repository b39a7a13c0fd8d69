#pragma once
// The CPUs this process may run on: its affinity mask (what a container, a batch system
// or `taskset` left it), not every CPU the machine has. One source for the launcher's
// core counts (warnings, --oversubscribe, calibration, pre-flight), the communication
// stream's hand-off rule and each rank's placement.
#include <vector>

namespace shardlab {

// The CPU numbers, lowest first; the online CPUs 0..n-1 where the mask cannot be read.
std::vector<int> usableCpus();
// usableCpus().size(), at least 1.
int usableCpuCount();

} // namespace shardlab
