// CommStream::drain: on a GPU transport wait() does not block
// the host, so an operation that fails after the step's last wait() was only seen at
// the next issue(); after the last step there is none, and the worker exited 0. A
// transport whose operations fail late, with a device-side wait like NCCL's, shows
// it on the CPU: wait() returns, drain() must rethrow. One rank, MPI singleton.
#include "comm/CommStream.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <thread>

namespace shardlab {
namespace {

// Like the NCCL transport: `work` runs on the communication thread (and may fail),
// `deviceWait` is what wait() calls instead of blocking the host.
class LateFailingTransport final : public Transport {
public:
  // `gate`, when given, holds every operation after the failure until it opens: as long
  // as a collective whose peer is gone.
  LateFailingTransport(MPI_Comm comm, Recorder& recorder, int failAt, std::atomic<int>& ran,
                       const std::atomic<bool>* gate = nullptr)
      : Transport(comm, recorder), failAt_(failAt), ran_(ran), gate_(gate) {}
  std::string name() const override { return "late-failing test transport"; }
  Issued issue(const CommOp&) override {
    const int index = issued_++;
    Issued out;
    out.work = [this, index] {
      // Still running when wait() returns.
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (gate_ && index > failAt_ && failAt_ >= 0)
        while (!*gate_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++ran_;
      if (index == failAt_) throw std::runtime_error("operation " + std::to_string(index) + " failed");
    };
    out.deviceWait = [](int, int) { return std::function<void()>{}; };
    return out;
  }
  void recv(float*, int, int, int, int, CollectiveTag, trace::Kind) override {}

private:
  int failAt_;
  int issued_ = 0;
  std::atomic<int>& ran_;
  const std::atomic<bool>* gate_;
};

struct Stream {
  explicit Stream(int failAt, bool gated = false) : recorder(nullptr, 0, {"block0"}) {
    comm = std::make_unique<CommStream>(
        MPI_COMM_WORLD, recorder,
        std::make_unique<LateFailingTransport>(MPI_COMM_WORLD, recorder, failAt, ran, gated ? &gate : nullptr));
  }
  Recorder recorder;
  std::atomic<int> ran{0};
  std::atomic<bool> gate{false};
  std::unique_ptr<CommStream> comm;
};

TEST(CommStreamDrain, RethrowsAFailureOfTheLastOperation) {
  Stream s(/*failAt=*/2);
  float buffer[4] = {};
  for (int i = 0; i < 3; ++i) {
    auto ticket = s.comm->allReduce(buffer, 4, CollectiveTag{});
    EXPECT_NO_THROW(s.comm->wait(ticket, 0)); // device-side: returns before the work ran
  }
  EXPECT_THROW(s.comm->drain(), std::runtime_error);
  EXPECT_EQ(s.ran.load(), 3);
}

TEST(CommStreamDrain, WaitsForEveryOperationAndPassesWhenNoneFailed) {
  Stream s(/*failAt=*/-1);
  float buffer[4] = {};
  for (int i = 0; i < 3; ++i) s.comm->wait(s.comm->allReduce(buffer, 4, CollectiveTag{}), 0);
  EXPECT_NO_THROW(s.comm->drain());
  EXPECT_EQ(s.ran.load(), 3); // drain returned only after all three ran
  EXPECT_NO_THROW(s.comm->drain()); // idle: returns at once
}

// A failure ends drain() at once: the operations queued after it may never finish
// (their peer is gone), and waiting for them delayed a failed job's abort by seconds.
TEST(CommStreamDrain, AFailureEndsTheWaitWithoutTheRestOfTheQueue) {
  Stream s(/*failAt=*/0, /*gated=*/true);
  float buffer[4] = {};
  for (int i = 0; i < 3; ++i) s.comm->wait(s.comm->allReduce(buffer, 4, CollectiveTag{}), 0);
  // The operations after the failure are held until the gate opens: a drain() that waited
  // for them would never return (ctest's timeout is the hang guard), and none has run.
  EXPECT_THROW(s.comm->drain(), std::runtime_error);
  EXPECT_EQ(s.ran.load(), 1);
  s.gate = true;
}

} // namespace
} // namespace shardlab

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
#ifdef GTEST_FLAG_GET
  const bool listing = GTEST_FLAG_GET(list_tests);
#else
  const bool listing = ::testing::GTEST_FLAG(list_tests);
#endif
  int provided = 0;
  if (!listing) MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  const int rc = RUN_ALL_TESTS();
  if (!listing) MPI_Finalize();
  return rc;
}
