// nccl::Comm on one rank (MPI singleton, no mpirun needed): the MPI bootstrap, each
// collective wrapper, and the timeout-bounded wait. Multi-rank runs are covered by
// the engine jobs in scripts/gpu-check.sh. Skipped without a GPU.
#include "cuda/CudaCheck.h"
#include "cuda/CudaDevice.h"
#include "cuda/NcclComm.h"
#include "cuda/Spin.h"

#include "RequireGpu.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace shardlab {
namespace {

class NcclOneRank : public ::testing::Test {
protected:
  void SetUp() override {
    SHARDLAB_NEED_GPU();
    device_ = std::make_unique<CudaDevice>(0);
    comm_ = nccl::Comm::fromMpi(MPI_COMM_WORLD, 0);
  }
  void TearDown() override {
    for (void* p : buffers_) device_->release(p);
  }

  float* upload(const std::vector<float>& host) {
    auto* p = static_cast<float*>(device_->allocate(host.size() * sizeof(float)));
    buffers_.push_back(p);
    device_->copyToDevice(p, host.data(), host.size() * sizeof(float));
    return p;
  }
  std::vector<float> download(const float* p, std::size_t n) {
    std::vector<float> v(n);
    device_->copyToHost(v.data(), p, n * sizeof(float));
    return v;
  }
  cudaStream_t stream() const { return device_->computeStream(); }

  std::unique_ptr<CudaDevice> device_;
  nccl::Comm comm_;
  std::vector<void*> buffers_;
};

TEST_F(NcclOneRank, Bootstrap) {
  EXPECT_TRUE(comm_.valid());
  EXPECT_EQ(comm_.rank(), 0);
  EXPECT_EQ(comm_.size(), 1);
  EXPECT_EQ(nccl::localRank(MPI_COMM_WORLD), 0);
  EXPECT_FALSE(nccl::ranksShareGpu(MPI_COMM_WORLD, 0));
  // The H200's NCCL comes from pip (nvidia-nccl-cu13) and may be older than the
  // 2.28 headers we build with: what the engine uses (nonblocking communicators,
  // ncclCommAbort, grouped send/recv) is in every NCCL since 2.14. Say which it is.
  const int version = nccl::libraryVersion();
  RecordProperty("nccl_version", std::to_string(version));
  std::printf("NCCL library version %d\n", version);
  EXPECT_GE(version, 21400);
}

TEST_F(NcclOneRank, CollectivesOnOneRankCopy) {
  const std::vector<float> data = {1.5f, -2.0f, 3.25f, 4.0f, -0.5f};
  const std::size_t n = data.size();
  float* send = upload(data);
  float* recv = upload(std::vector<float>(n, -99.0f));

  comm_.allReduce(send, recv, n, stream());
  comm_.waitFor(stream(), std::chrono::seconds(30));
  EXPECT_EQ(download(recv, n), data);

  device_->zero(recv, n * sizeof(float));
  comm_.allGather(send, recv, n, stream());
  comm_.waitFor(stream(), std::chrono::seconds(30));
  EXPECT_EQ(download(recv, n), data);

  device_->zero(recv, n * sizeof(float));
  comm_.reduceScatter(send, recv, n, stream());
  comm_.waitFor(stream(), std::chrono::seconds(30));
  EXPECT_EQ(download(recv, n), data);

  device_->zero(recv, n * sizeof(float));
  comm_.sendRecv(send, n, 0, recv, n, 0, stream()); // to and from itself, grouped
  comm_.waitFor(stream(), std::chrono::seconds(30));
  EXPECT_EQ(download(recv, n), data);
}

TEST_F(NcclOneRank, WaitTimesOutAndAborts) {
  constexpr int kSpinMs = 2000;
  cuda::spin(1'000'000ull * kSpinMs, stream()); // the stream stays busy for 2 s
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(comm_.waitFor(stream(), std::chrono::milliseconds(200)), nccl::TimeoutError);
  const auto waited = std::chrono::steady_clock::now() - start;
  // The throw shows the timeout worked (without it waitFor returns normally once the
  // spin ends). ncclCommAbort frees NCCL's device memory, and those frees may wait
  // for the spin: bound by the spin plus a margin, not 1.5 s.
  EXPECT_LT(waited, std::chrono::milliseconds(kSpinMs + 1500)) << "waitFor or the abort hung past the spin";
  EXPECT_FALSE(comm_.valid()); // aborted
  EXPECT_THROW(comm_.allReduce(nullptr, nullptr, 1, stream()), std::logic_error);
  device_->synchronize(); // the spin ends by itself
}

} // namespace
} // namespace shardlab

// MPI is started only when there is a GPU to test (the tests skip otherwise) and
// not when gtest only lists the tests; as a singleton: no mpirun needed.
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
#ifdef GTEST_FLAG_GET
  const bool listing = GTEST_FLAG_GET(list_tests);
#else
  const bool listing = ::testing::GTEST_FLAG(list_tests);
#endif
  const bool withMpi = !listing && shardlab::cudaDeviceCount() > 0;
  if (withMpi) MPI_Init(&argc, &argv);
  const int rc = RUN_ALL_TESTS();
  if (withMpi) MPI_Finalize();
  return rc;
}
