// FSDP's sharding arithmetic, as the engine does it: each unit padded to a multiple
// of the rank count, each rank owning one contiguous slice; the slices of all ranks,
// concatenated and trimmed, give back the unit exactly.
#include "job/ModelShape.h"

#include <gtest/gtest.h>

#include <vector>

using namespace shardlab;

TEST(Sharding, PaddingAndSlicesCoverEveryParameterOnce) {
  ModelShape s{64, 64, 4};
  for (int ranks : {1, 2, 3, 4, 5, 7}) {
    const auto N = static_cast<std::size_t>(ranks);
    for (int u = 0; u < s.unitCount(); ++u) {
      const std::size_t n = s.unitSize(u);
      const std::size_t shard = s.shardSize(u, ranks);
      EXPECT_GE(shard * N, n);
      EXPECT_LT(shard * N - n, N) << "padding is less than one element per rank";
      std::vector<int> owner(n, -1);
      for (std::size_t r = 0; r < N; ++r)
        for (std::size_t i = r * shard; i < (r + 1) * shard && i < n; ++i) {
          EXPECT_EQ(owner[i], -1);
          owner[i] = static_cast<int>(r);
        }
      for (int o : owner) EXPECT_GE(o, 0);
    }
  }
}

TEST(Sharding, OddRankCountsPadTheOutputLayer) {
  ModelShape s{64, 64, 4};
  // output: 64*64 + 64 = 4160 parameters; over 3 ranks: 1387 each, 1 padding element
  EXPECT_EQ(s.unitSize(5), 4160u);
  EXPECT_EQ(s.shardSize(5, 3), 1387u);
  EXPECT_EQ(1387u * 3 - 4160u, 1u);
}
