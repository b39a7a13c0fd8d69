// The GPU-against-CPU comparison (Parity.h), shown on the CPU: the same CPU job run
// twice passes; a planted difference in one parameter or one step's loss, just over
// the tolerance, fails, and so does a NaN. The GPU parity tests use this function.
#include "Parity.h"
#include "RunShardlab.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace shardlab::testing {
namespace {

RunOutputs runCpu(const std::string& name) {
  const auto dir = freshDir(name);
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--device", "cpu", "--layers", "2", "--hidden", "32",
                        "--vocab", "32", "--batch", "24", "--steps", "3", "--dump-params", dir + "/p.bin",
                        "--summary-json", dir + "/s.json", "-q"});
  EXPECT_EQ(r.status, 0) << r.err;
  return readRunOutputs(dir + "/p.bin", dir + "/s.json");
}

TEST(Parity, SameJobTwiceIsEqualAndPlantedDifferencesFail) {
  const RunOutputs a = runCpu("parity-a"), b = runCpu("parity-b");
  ASSERT_FALSE(a.params.empty());
  ASSERT_EQ(a.losses.size(), 3u);
  const auto same = compareRuns(a, b);
  EXPECT_TRUE(same.ok) << same.report;
  EXPECT_EQ(same.params, 0.0) << "the CPU job is deterministic";

  double maxAbs = 0;
  for (float x : b.params) maxAbs = std::max(maxAbs, static_cast<double>(std::fabs(x)));
  RunOutputs planted = a;
  planted.params[planted.params.size() / 2] += static_cast<float>(2e-4 * maxAbs); // twice the tolerance
  const auto p = compareRuns(planted, b);
  EXPECT_FALSE(p.ok) << "a planted parameter difference passed: " << p.report;
  EXPECT_NEAR(p.params, 2e-4, 1e-5);

  RunOutputs within = a;
  within.params[0] += static_cast<float>(2e-5 * maxAbs); // a fifth of it: fp32 noise passes
  EXPECT_TRUE(compareRuns(within, b).ok) << compareRuns(within, b).report;

  RunOutputs loss = a;
  loss.losses.back() *= 1.0 + 3e-4;
  EXPECT_FALSE(compareRuns(loss, b).ok) << "a planted loss difference passed";

  RunOutputs nan = a;
  nan.params[1] = NAN;
  EXPECT_FALSE(compareRuns(nan, b).ok) << "a NaN parameter passed";

  RunOutputs shorter = a;
  shorter.losses.pop_back();
  EXPECT_FALSE(compareRuns(shorter, b).ok) << "a run with a step missing passed";
}

} // namespace
} // namespace shardlab::testing
