// coresForLocalRank: which CPUs each rank on a host is bound to (engine/comm/CorePlacement.h).
#include "comm/CorePlacement.h"

#include <gtest/gtest.h>

#include <set>

using namespace shardlab;

TEST(CorePlacement, EachRankGetsItsOwnCoresAndTogetherTheyUseThemAll) {
  const std::vector<int> usable{0, 1, 2, 3, 4, 5, 6}; // 7 CPUs
  for (int ranks : {1, 2, 3, 7}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    std::multiset<int> seen;
    std::size_t fewest = usable.size(), most = 0;
    for (int r = 0; r < ranks; ++r) {
      const auto cpus = coresForLocalRank(usable, r, ranks);
      ASSERT_FALSE(cpus.empty());
      fewest = std::min(fewest, cpus.size());
      most = std::max(most, cpus.size());
      seen.insert(cpus.begin(), cpus.end());
    }
    EXPECT_EQ(seen, std::multiset<int>(usable.begin(), usable.end())); // each CPU once
    EXPECT_LE(most - fewest, 1u);                                       // as even as it can be
  }
  EXPECT_EQ(coresForLocalRank({0, 1}, 1, 2), std::vector<int>{1});
  EXPECT_EQ(coresForLocalRank({4, 6, 8, 10, 12}, 0, 2), (std::vector<int>{4, 6, 8})); // the CPUs given, not 0..n
}

TEST(CorePlacement, MoreRanksThanCpusStayUnbound) {
  EXPECT_TRUE(coresForLocalRank({0, 1}, 0, 4).empty());
  EXPECT_TRUE(coresForLocalRank({0, 1}, 3, 4).empty());
  EXPECT_TRUE(coresForLocalRank({}, 0, 1).empty());
  EXPECT_TRUE(coresForLocalRank({0, 1}, 2, 2).empty()); // not a local rank
}
