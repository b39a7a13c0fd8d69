// The launcher's device rule (engine/launcher/DeviceChoice.cpp) with given GPU counts,
// so the GPU cases are checked on machines without one.
#include "launcher/DeviceChoice.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {
JobConfig job(DeviceKind device, int ranks) {
  JobConfig j;
  j.device = device;
  j.ranks = ranks;
  return j;
}
} // namespace

TEST(DeviceChoice, CudaWithMoreRanksThanGpusIsRefusedNamingTheOptionAndTheWayOut) {
  const auto c = chooseDevice(job(DeviceKind::Cuda, 4), 1, true);
  ASSERT_FALSE(c.error.empty());
  EXPECT_NE(c.error.find("cuda was asked for with --ranks 4, but this machine has 1 GPU"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("--device cuda+mpi-staged"), std::string::npos) << c.error;
}

TEST(DeviceChoice, CudaWithAGpuPerRankIsNccl) {
  const auto c = chooseDevice(job(DeviceKind::Cuda, 2), 2, true);
  EXPECT_TRUE(c.error.empty()) << c.error;
  EXPECT_EQ(c.device, DeviceKind::Cuda);
}

TEST(DeviceChoice, AutoWithMoreRanksThanGpusStages) {
  const auto c = chooseDevice(job(DeviceKind::Auto, 4), 1, true);
  EXPECT_TRUE(c.error.empty()) << c.error;
  EXPECT_EQ(c.device, DeviceKind::CudaMpiStaged);
}

TEST(DeviceChoice, CudaOverAHostfileIsLeftToTheWorkers) {
  // The GPUs of the other machines are not this machine's to count.
  auto j = job(DeviceKind::Cuda, 4);
  j.hostfile = "hosts";
  const auto c = chooseDevice(j, 1, true);
  EXPECT_TRUE(c.error.empty()) << c.error;
}

TEST(DeviceChoice, CudaWithoutAGpuIsRefusedAsBefore) {
  const auto c = chooseDevice(job(DeviceKind::Cuda, 1), 0, true);
  EXPECT_NE(c.error.find("no CUDA device was found"), std::string::npos) << c.error;
}
