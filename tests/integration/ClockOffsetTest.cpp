// The clock-offset estimate (docs/trace-format.md, "Time"), checked against a known
// offset: SHARDLAB_TEST_CLOCK_SHIFT_NS=RANK:NS makes one rank read its clock NS ahead,
// as a rank on a machine with another clock would, on a plain local mpirun (no
// namespaces needed, so it runs in every CI). Since the ranks really share one clock,
// the true offset of rank r to rank 0 is shift(0) - shift(r) exactly.
#include "RunShardlab.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

using namespace shardlab;
using namespace shardlab::testing;

struct ClockShift : ::testing::TestWithParam<std::tuple<int, std::int64_t>> {};

TEST_P(ClockShift, TheEstimatedOffsetRecoversTheShiftWithinItsUncertainty) {
  // Named copies, not a structured binding: clang 14 (the asan preset) does not let a
  // lambda capture a binding.
  const int shiftedRank = std::get<0>(GetParam());
  const std::int64_t shift = std::get<1>(GetParam());
  const int ranks = 3;
  const auto dir = freshDir("clock-shift-" + std::to_string(shiftedRank));
  auto r = runShardlab({"--strategy", "ddp", "--ranks", std::to_string(ranks), "--layers", "2", "--hidden", "32",
                        "--vocab", "32", "--batch", "24", "--steps", "3", "--trace", dir + "/run.trace", "-q"},
                       {{"SHARDLAB_TEST_CLOCK_SHIFT_NS", std::to_string(shiftedRank) + ":" + std::to_string(shift)}});
  ASSERT_EQ(r.status, 0) << r.err;
  auto t = trace::readTraceFile(dir + "/run.trace");
  ASSERT_TRUE(t.ok()) << t.error->message;
  ASSERT_EQ(t.trace.ranks.size(), static_cast<std::size_t>(ranks));

  auto shiftOf = [&](int rank) { return rank == shiftedRank ? shift : 0; };
  std::vector<std::int64_t> uncertainty(ranks, 0);
  for (int rank = 0; rank < ranks; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const auto& meta = t.trace.ranks[static_cast<std::size_t>(rank)].meta;
    EXPECT_EQ(meta["same_host"], true);  // the shift, not the topology, made the ranks estimate
    EXPECT_EQ(meta.value("test_clock_shift_ns", std::int64_t{0}), shiftOf(rank));
    if (rank == 0) {
      EXPECT_EQ(meta["clock_offset_ns"], 0);
      continue;
    }
    const auto offset = meta["clock_offset_ns"].get<std::int64_t>();
    uncertainty[static_cast<std::size_t>(rank)] = meta["clock_uncertainty_ns"].get<std::int64_t>();
    const std::int64_t u = uncertainty[static_cast<std::size_t>(rank)];
    EXPECT_GT(u, 0) << "no ping-pong with rank 0";
    // Much smaller than the shift, or recovering it would say nothing.
    EXPECT_LT(u, 100'000'000);
    EXPECT_LE(std::llabs(offset - (shiftOf(0) - shiftOf(rank))), u + 1) << "offset " << offset << ", uncertainty " << u;
  }

  // And the events are on one time axis: no rank's all-reduce ends before another
  // rank's same all-reduce begins (within the two ranks' uncertainties). Left
  // uncorrected, the shifted rank's events would lie seconds away from the others'.
  std::map<std::pair<int, int>, std::map<int, std::pair<std::int64_t, std::int64_t>>> allReduces; // (step, unit) -> rank -> (t0, t1)
  for (const auto& e : t.trace.events)
    if (e.record == trace::Record::Collective && e.kind == trace::Kind::AllReduce)
      allReduces[{e.step, e.unit}][e.rank] = {e.t0, e.t1};
  ASSERT_EQ(allReduces.size(), 3u * 4u);  // 3 steps, 4 units
  for (const auto& [key, byRank] : allReduces) {
    ASSERT_EQ(byRank.size(), static_cast<std::size_t>(ranks));
    for (const auto& [r1, a] : byRank)
      for (const auto& [r2, b] : byRank) {
        const std::int64_t slack = uncertainty[static_cast<std::size_t>(r1)] + uncertainty[static_cast<std::size_t>(r2)] + 1;
        EXPECT_GE(a.second + slack, b.first) << "step " << key.first << " unit " << key.second << ": rank " << r1
                                             << "'s all-reduce ended before rank " << r2 << "'s began";
      }
  }
}

INSTANTIATE_TEST_SUITE_P(OneRankShifted, ClockShift,
                         ::testing::Values(std::make_tuple(1, std::int64_t{2'500'000'000}),
                                           std::make_tuple(0, std::int64_t{-1'500'000'000})),
                         [](const auto& test) {
                           return "rank" + std::to_string(std::get<0>(test.param)) +
                                  (std::get<1>(test.param) < 0 ? "_behind" : "_ahead");
                         });

// Read by the launcher once: refused before anything runs (exit 2), not by the ranks.
TEST(ClockShift, AMalformedShiftIsRefusedNamingTheVariable) {
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "1", "-q"},
                       {{"SHARDLAB_TEST_CLOCK_SHIFT_NS", "soon"}});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("SHARDLAB_TEST_CLOCK_SHIFT_NS: 'soon' is not RANK:NS"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("mpirun -np"), std::string::npos) << "nothing may be launched: " << r.err;
}
