// Runs on every machine, GPU or not (CTest label cuda-build): the "no GPU" path is
// graceful, and the check macros name the call, file and line.
#include "cuda/CudaCheck.h"
#include "cuda/CudaDevice.h"
#include "cuda/NcclCheck.h"
#include "comm/CudaTransports.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace shardlab {
namespace {

TEST(CudaBuild, DeviceCountNeverThrows) {
  std::string why;
  int count = -1;
  EXPECT_NO_THROW(count = cudaDeviceCount(&why));
  EXPECT_GE(count, 0);
  if (count == 0) {
    EXPECT_FALSE(why.empty()) << "no device, but no reason given";
    std::cout << "[ info     ] no CUDA device: " << why << "\n";
  } else {
    std::cout << "[ info     ] " << count << " CUDA device(s)\n";
  }
  EXPECT_NO_THROW(cudaDeviceCount()); // and again, without asking why
}

// CTest runs this one with CUDA_VISIBLE_DEVICES=-1, which hides every GPU: then
// the count is 0 on any machine, and making a device throws with the reason.
TEST(CudaBuild, HiddenDevicesGiveZeroAndAReason) {
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  if (visible == nullptr || std::string(visible) != "-1") {
    GTEST_SKIP() << "needs CUDA_VISIBLE_DEVICES=-1: ctest runs it so as cuda_build.hidden_devices";
  }
  std::string why;
  EXPECT_EQ(cudaDeviceCount(&why), 0);
  EXPECT_FALSE(why.empty());
  try {
    makeCudaDevice(0);
    FAIL() << "makeCudaDevice(0) succeeded with no device";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA device"), std::string::npos) << e.what();
  }
}

TEST(CudaBuild, MakeCudaDeviceWithoutGpuThrowsWithReason) {
  std::string why;
  if (cudaDeviceCount(&why) > 0) GTEST_SKIP() << "a GPU is present: covered by the gpu tests";
  try {
    makeCudaDevice(0);
    FAIL() << "makeCudaDevice(0) succeeded with no device";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

TEST(CudaBuild, CheckMacrosNameCallFileAndLine) {
  try {
    CUDA_CHECK(cudaErrorInvalidValue);
    FAIL() << "CUDA_CHECK did not throw";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cudaErrorInvalidValue"), std::string::npos) << what;
    EXPECT_NE(what.find("CudaBuildTest.cpp:"), std::string::npos) << what;
  }
  try {
    CUBLAS_CHECK(CUBLAS_STATUS_NOT_INITIALIZED);
    FAIL() << "CUBLAS_CHECK did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("CUBLAS_STATUS_NOT_INITIALIZED"), std::string::npos) << e.what();
  }
  try {
    NCCL_CHECK(ncclInvalidArgument);
    FAIL() << "NCCL_CHECK did not throw";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("NCCL error"), std::string::npos) << what;
    EXPECT_NE(what.find("ncclInvalidArgument"), std::string::npos) << what;
    EXPECT_NE(what.find("CudaBuildTest.cpp:"), std::string::npos) << what;
  }
}

// The GPU transports' timeout and the NCCL transport's test delay come from the rank's
// settings (Tuning::gpuTimeout, TestHooks::commDelay: what the launcher read from
// SHARDLAB_GPU_TIMEOUT_S and SHARDLAB_TEST_COMM_DELAY_US), never from the rank's
// environment: the options' defaults are 120 s and no delay whatever it says.
TEST(CudaBuild, TransportOptionsDoNotReadTheEnvironment) {
  setenv("SHARDLAB_GPU_TIMEOUT_S", "30", 1);
  setenv("SHARDLAB_TEST_COMM_DELAY_US", "5000", 1);
  EXPECT_EQ(GpuTransportOptions{}.timeout, std::chrono::seconds(120));
  EXPECT_EQ(GpuTransportOptions{}.commDelay, std::chrono::microseconds(0));
  unsetenv("SHARDLAB_GPU_TIMEOUT_S");
  unsetenv("SHARDLAB_TEST_COMM_DELAY_US");
}

} // namespace
} // namespace shardlab
