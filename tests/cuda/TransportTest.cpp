// The GPU transports of the communication stream on one rank (MPI singleton, no
// mpirun): staged through pinned host memory, and NCCL on a communication stream.
// Each collective must give the one-rank answer (a copy), tickets must order the
// compute stream, and every operation must be recorded. Skipped without a GPU.
//
// The ordering is tested so that a missing wait fails every time, not by chance
// (docs/gpu.md, "Races that fail every time"): the compute stream spins for
// kComputeSpinMs before the scale that produces the collective's input, and the NCCL
// transport's test hook (commDelay) keeps the communication stream busy for
// kCommDelayMs after its wait for "ready". Without that wait the collective copies
// the input after kCommDelayMs, long before the scale runs (kComputeSpinMs later):
// the output is unscaled. Without the compute stream's wait for the collective's
// end, the download runs right after the scale while the communication stream still
// spins: the output is the value written before. The CMake file builds this test
// once more against CudaTransports.cpp with each of those two cudaStreamWaitEvent
// lines removed; on a GPU each of those builds must fail here.
#include "comm/CommStream.h"
#include "cuda/CudaDevice.h"
#include "comm/CudaTransports.h"
#include "cuda/NcclComm.h"
#include "cuda/Spin.h"
#include "trace/TraceReader.h"

#include "RequireGpu.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace shardlab {
namespace {

enum class Which { Staged, Nccl };

// kCommDelayMs must stay well below kComputeSpinMs: the delay also holds back a
// collective that (wrongly) does not wait for "ready", which must still run first.
constexpr unsigned kComputeSpinMs = 200;
constexpr unsigned kCommDelayMs = 20;

class OneRankTransport : public ::testing::TestWithParam<Which> {
protected:
  void SetUp() override {
    SHARDLAB_NEED_GPU();
    traceFile_ = std::tmpfile();
    recorder_ = std::make_unique<Recorder>(traceFile_, 0, std::vector<std::string>{"embedding", "block0", "output"});
    recorder_->header({{"device", "cuda"}});
    device_ = std::make_unique<CudaDevice>(0);
    GpuTransportOptions options;
    options.unitNames = {"embedding", "block0", "output"};
    options.timeout = std::chrono::seconds(30);
    options.commDelay = std::chrono::milliseconds(kCommDelayMs); // used by the NCCL transport only
    auto clock = std::make_shared<GpuClock>(*recorder_, 0);
    std::unique_ptr<Transport> transport =
        GetParam() == Which::Nccl
            ? makeNcclTransport(MPI_COMM_WORLD, *recorder_, *device_, nccl::Comm::fromMpi(MPI_COMM_WORLD, 0), clock,
                                options)
            : makeStagedTransport(MPI_COMM_WORLD, *recorder_, *device_, options);
    comm_ = std::make_unique<CommStream>(MPI_COMM_WORLD, *recorder_, std::move(transport));
  }
  void TearDown() override {
    comm_.reset();
    for (void* p : buffers_) device_->release(p);
    if (device_) device_->synchronize();
    if (traceFile_) std::fclose(traceFile_);
  }

  float* upload(const std::vector<float>& host) {
    auto* p = static_cast<float*>(device_->allocate(host.size() * sizeof(float)));
    buffers_.push_back(p);
    device_->copyToDevice(p, host.data(), host.size() * sizeof(float));
    return p;
  }
  std::vector<float> download(const float* p, std::size_t n) {
    std::vector<float> v(n);
    device_->copyToHost(v.data(), p, n * sizeof(float)); // on the compute stream: after its waits
    return v;
  }
  trace::Trace readBack() {
    recorder_->end();
    recorder_->flush();
    std::fflush(traceFile_);
    std::rewind(traceFile_);
    std::string text;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, traceFile_)) > 0;) text.append(buf, n);
    auto r = trace::readTrace(text);
    EXPECT_TRUE(r.ok()) << (r.error ? r.error->describe("trace") : "");
    return r.trace;
  }

  std::FILE* traceFile_ = nullptr;
  std::unique_ptr<Recorder> recorder_;
  std::unique_ptr<CudaDevice> device_;
  std::unique_ptr<CommStream> comm_;
  std::vector<void*> buffers_;
};

TEST_P(OneRankTransport, CollectivesGiveTheOneRankAnswer) {
  const std::vector<float> data = {1.5f, -2.0f, 3.25f, 4.0f, -0.5f};
  const std::size_t n = data.size();
  float* a = upload(data);
  float* b = upload(std::vector<float>(n, -99.0f));

  // Compute-stream work before the collective must be seen by it: scale a by 2 first,
  // late (after the spin), so a collective that does not wait for it reads a unscaled.
  cuda::spin(1'000'000ull * kComputeSpinMs, device_->computeStream());
  device_->scale(a, 2.0f, n);
  std::vector<float> twice = data;
  for (float& x : twice) x *= 2.0f;

  // What each missing wait leaves in the output, named (the planted-removal ctests
  // look for these lines).
  const auto expectOrdered = [&](const char* what, const std::vector<float>& got, const std::vector<float>& before) {
    if (got == data)
      ADD_FAILURE() << what << " read its input before the scale: the communication stream did not wait for ready";
    else if (got == before)
      ADD_FAILURE() << "the download ran before the " << what << ": the compute stream did not wait for its end";
    else
      EXPECT_EQ(got, twice) << what;
  };

  auto t = comm_->allGather(a, b, n, {1, 0, -1});
  comm_->wait(t, 0);
  expectOrdered("all_gather", download(b, n), std::vector<float>(n, -99.0f));

  device_->zero(b, n * sizeof(float));
  t = comm_->reduceScatter(a, b, n, {1, 0, -1});
  comm_->wait(t, 0);
  expectOrdered("reduce_scatter", download(b, n), std::vector<float>(n, 0.0f));

  t = comm_->allReduce(a, n, {1, 0, -1});
  comm_->wait(t, 0);
  EXPECT_EQ(download(a, n), twice);

  // Point-to-point to itself: the send runs on the communication thread, the recv here.
  device_->zero(b, n * sizeof(float));
  auto s = comm_->send(a, 1, static_cast<int>(n), 0, 7, {1, 0, 0});
  comm_->recv(b, 1, static_cast<int>(n), 0, 7, {1, 0, 0}, trace::Kind::WaitActivation);
  comm_->wait(s, 0, 0);
  EXPECT_EQ(download(b, n), twice);
  device_->synchronize();
  EXPECT_TRUE(comm_->done(s));

  comm_.reset(); // joins the communication thread: every record is written
  const auto tr = readBack();
  int collectives = 0, recvs = 0;
  for (const auto& e : tr.events) {
    if (e.record != trace::Record::Collective) continue;
    EXPECT_LE(e.t0, e.t1);
    EXPECT_GE(e.t0, 0);
    if (e.kind == trace::Kind::Recv) ++recvs;
    else ++collectives;
  }
  EXPECT_EQ(collectives, 4); // all_gather, reduce_scatter, all_reduce, send
  EXPECT_EQ(recvs, 1);
}

// done() is what lets a caller free a collective's buffers without wait(): it may say
// true only once the device has written the output and read the input for the last
// time. The read below runs on the compute stream with no wait() before it, so nothing
// orders it after the communication stream: a done() that said true early (when the
// host enqueued the call, say) leaves the output as it was before, every time, since
// the NCCL transport's comm stream spins kCommDelayMs before the call.
TEST_P(OneRankTransport, DoneMeansTheBufferMayBeFreed) {
  const std::size_t n = 1 << 20;
  float* in = upload(std::vector<float>(n, 3.0f));
  float* out = upload(std::vector<float>(n, -1.0f));
  device_->synchronize(); // both uploads complete before the collective is issued
  auto t = comm_->allGather(in, out, n, {0, 0, -1});
  // A hang guard, not a timing: a done() that never turns true fails here by name.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!comm_->done(t)) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "done() never became true";
    std::this_thread::yield();
  }
  EXPECT_EQ(download(out, n), std::vector<float>(n, 3.0f))
      << "done() said true before the device wrote the all-gather's output";
  // The input may go back now: released before wait(), and nothing fails afterwards.
  device_->release(in);
  buffers_.erase(std::find(buffers_.begin(), buffers_.end(), static_cast<void*>(in)));
  comm_->wait(t, 0);
  EXPECT_NO_THROW(comm_->drain());
  device_->synchronize();
}

INSTANTIATE_TEST_SUITE_P(Gpu, OneRankTransport, ::testing::Values(Which::Staged, Which::Nccl),
                         [](const ::testing::TestParamInfo<Which>& p) { return p.param == Which::Nccl ? "Nccl" : "Staged"; });

} // namespace
} // namespace shardlab

// MPI as a singleton (no mpirun), started only when there is a GPU to test and not
// when gtest only lists the tests (as NcclCommTest.cpp). The communication thread
// calls MPI: MPI_THREAD_MULTIPLE.
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
#ifdef GTEST_FLAG_GET
  const bool listing = GTEST_FLAG_GET(list_tests);
#else
  const bool listing = ::testing::GTEST_FLAG(list_tests);
#endif
  const bool withMpi = !listing && shardlab::cudaDeviceCount() > 0;
  if (withMpi) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  }
  const int rc = RUN_ALL_TESTS();
  if (withMpi) MPI_Finalize();
  return rc;
}
