// The bf16 conversion FSDP's mixed precision packs its all-gathers and reductions with:
// round to nearest, ties to even, as PyTorch's float -> bfloat16 cast.
#include "core/Bf16.h"
#include "core/Device.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace shardlab;

TEST(Bf16, KeepsWhatItCanHoldAndRoundsToNearestEven) {
  for (float f : {0.0f, 1.0f, -2.0f, 0.5f, 3.0f, 1.0f / 128.0f}) EXPECT_EQ(fromBf16(toBf16(f)), f) << f;
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7 (bf16 has 7 mantissa bits): ties go to even, 1.
  EXPECT_EQ(fromBf16(toBf16(1.0f + 1.0f / 256.0f)), 1.0f);
  // 1 + 3·2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: ties go to even, 1 + 2^-6.
  EXPECT_EQ(fromBf16(toBf16(1.0f + 3.0f / 256.0f)), 1.0f + 1.0f / 64.0f);
  // Just above the halfway point rounds up.
  EXPECT_EQ(fromBf16(toBf16(std::nextafter(1.0f + 1.0f / 256.0f, 2.0f))), 1.0f + 1.0f / 128.0f);
  // At most half a bf16 step, 2^-8 relative, in the normal range (truncation would err by up to 2^-7).
  for (float f = 0.001f; f < 1000.0f; f *= 1.37f) EXPECT_LE(std::fabs(fromBf16(toBf16(f)) - f), f / 256.0f) << f;
}

TEST(Bf16, InfinitiesAndNaNsSurvive) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(fromBf16(toBf16(inf)), inf);
  EXPECT_EQ(fromBf16(toBf16(-inf)), -inf);
  EXPECT_TRUE(std::isnan(fromBf16(toBf16(std::numeric_limits<float>::quiet_NaN()))));
  // The largest float rounds up past bf16's largest finite value: infinity, as in PyTorch.
  EXPECT_EQ(fromBf16(toBf16(std::numeric_limits<float>::max())), inf);
}

// The wire layout FSDP's bf16 all-gathers and reductions rely on: value k in the low
// half of word k/2 when k is even, the high half when odd (little-endian, as the bf16
// MPI_Op reads it); an odd count leaves the last word's second half zero; each slice
// starts a word of its own, so slice r of a packed unit is rank r's.
TEST(Bf16, PacksTwoValuesAWordAndEachSliceFromItsOwnWord) {
  auto device = makeCpuDevice();
  const std::vector<float> values{1.0f, -2.0f, 0.5f, 3.0f, 1.0f / 128.0f, 1.0f + 1.0f / 256.0f};
  std::vector<float> packed(bf16Words(3) * 2, -1.0f);
  packBf16Slices(*device, values.data(), packed.data(), 3, 2);
  ASSERT_EQ(bf16Words(3), 2u);
  std::vector<std::uint16_t> halves(packed.size() * 2);
  std::memcpy(halves.data(), packed.data(), packed.size() * sizeof(float));
  EXPECT_EQ(halves, (std::vector<std::uint16_t>{toBf16(1.0f), toBf16(-2.0f), toBf16(0.5f), 0, toBf16(3.0f),
                                                toBf16(1.0f / 128.0f), toBf16(1.0f + 1.0f / 256.0f), 0}));

  std::vector<float> back(values.size(), -1.0f);
  unpackBf16Slices(*device, packed.data(), back.data(), 3, 2);
  // 1 + 1/256 is a tie between 1 and 1 + 1/128: to even, 1.
  EXPECT_EQ(back, (std::vector<float>{1.0f, -2.0f, 0.5f, 3.0f, 1.0f / 128.0f, 1.0f}));
}
