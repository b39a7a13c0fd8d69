// Where a job's ranks run (engine/comm/CorePlacement.h): ranks that fit the host's
// cores are each bound to their own; more ranks than cores, or SHARDLAB_BIND_RANKS=0,
// leave them as mpirun started them. The trace's rank records say which.
#include "RunShardlab.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <sched.h>

#include <algorithm>
#include <set>

using namespace shardlab;
using namespace shardlab::testing;

namespace {
std::vector<int> usableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

// Each rank's `cpus` and `bound_to_cpus` from a tiny DDP run's trace.
std::vector<std::pair<std::vector<int>, bool>> placementOf(int ranks, const std::string& name,
                                                           const std::vector<std::pair<std::string, std::string>>& env = {}) {
  const auto dir = freshDir(name);
  auto r = runShardlab({"--strategy", "ddp", "--ranks", std::to_string(ranks), "--layers", "1", "--hidden", "16",
                        "--vocab", "16", "--batch", "8", "--steps", "1", "--trace", dir + "/run.trace", "-q"},
                       env);
  EXPECT_EQ(r.status, 0) << r.err;
  auto t = trace::readTraceFile(dir + "/run.trace");
  EXPECT_TRUE(t.ok());
  std::vector<std::pair<std::vector<int>, bool>> out;
  for (const auto& rank : t.trace.ranks)
    out.emplace_back(rank.meta.value("cpus", std::vector<int>{}), rank.meta.value("bound_to_cpus", false));
  return out;
}
} // namespace

// The trace records the affinity the kernel reports after binding.
TEST(RankPlacement, RanksThatFitTheCoresAreEachBoundToTheirOwn) {
  const auto usable = usableCpus();
  if (usable.size() < 2) GTEST_SKIP() << "needs 2 CPUs, this process may use " << usable.size();
  const auto ranks = placementOf(2, "bind-2");
  ASSERT_EQ(ranks.size(), 2u);
  std::set<int> seen;
  for (const auto& [cpus, bound] : ranks) {
    EXPECT_TRUE(bound);
    EXPECT_EQ(cpus.size(), usable.size() / 2);
    for (int c : cpus) {
      EXPECT_TRUE(std::find(usable.begin(), usable.end(), c) != usable.end()) << c;
      EXPECT_TRUE(seen.insert(c).second) << "CPU " << c << " given to both ranks";
    }
  }
}

TEST(RankPlacement, MoreRanksThanCoresOrBindingTurnedOffLeaveTheRanksUnbound) {
  const auto usable = usableCpus();
  if (usable.size() < 2 || usable.size() >= 4) GTEST_SKIP() << "needs 2 or 3 CPUs (4 ranks must outnumber them), has " << usable.size();
  for (const auto& [cpus, bound] : placementOf(4, "bind-4")) {
    EXPECT_FALSE(bound);
    EXPECT_EQ(cpus, usable);
  }
  for (const auto& [cpus, bound] : placementOf(2, "bind-off", {{"SHARDLAB_BIND_RANKS", "0"}})) {
    EXPECT_FALSE(bound);
    EXPECT_EQ(cpus, usable);
  }
}
