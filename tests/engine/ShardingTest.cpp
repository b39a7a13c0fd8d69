// FSDP's sharding arithmetic, as the engine does it: each unit padded to a multiple
// of the rank count, each rank owning one contiguous slice; the slices of all ranks,
// concatenated and trimmed, give back the unit exactly.
#include "core/Model.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {
std::size_t shardSize(std::size_t n, std::size_t ranks) { return (n + ranks - 1) / ranks; }
} // namespace

TEST(Sharding, PaddingAndSlicesCoverEveryParameterOnce) {
  ModelShape s{64, 64, 4};
  for (std::size_t N : {1u, 2u, 3u, 4u, 5u, 7u}) {
    for (int u = 0; u < s.unitCount(); ++u) {
      const std::size_t n = s.unitSize(u);
      const std::size_t shard = shardSize(n, N);
      EXPECT_EQ((shard * N) % N, 0u);
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
  EXPECT_EQ(shardSize(4160, 3), 1387u);
  EXPECT_EQ(1387u * 3 - 4160u, 1u);
}
