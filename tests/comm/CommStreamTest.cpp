// The communication stream's own threading (engine/comm/CommStream): the queue, the
// tickets, wait/done and the failure path, with a fake Transport whose operations
// run on the communication thread without moving bytes through MPI (and one test
// with the real Open MPI transport on one rank). MPI is initialised as a singleton
// (no mpirun): the Transport base asks the communicator for its rank and size.
// The tsan preset runs this binary under ThreadSanitizer (docs/testing.md).
#include "comm/CommStream.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace shardlab {
namespace {

// A gate the test opens; operations whose unit is `gatedUnit` wait at it.
struct Gate {
  std::mutex mutex;
  std::condition_variable cv;
  bool open = false;
  void release() {
    {
      std::lock_guard lock(mutex);
      open = true;
    }
    cv.notify_all();
  }
  void pass() {
    std::unique_lock lock(mutex);
    cv.wait(lock, [&] { return open; });
  }
};

// One rank's answers without MPI: all-gather and reduce-scatter copy, all-reduce
// adds 1 to every element (so the test sees that the work ran, and ran once). The
// order operations ran in is kept (written only on the communication thread).
class FakeTransport final : public Transport {
public:
  FakeTransport(Recorder& recorder, Gate* gate, int gatedUnit, int failingUnit)
      : Transport(MPI_COMM_WORLD, recorder), gate_(gate), gatedUnit_(gatedUnit), failingUnit_(failingUnit) {}
  std::string name() const override { return "fake"; }
  void startThread() override { threadId_ = std::this_thread::get_id(); }

  Issued issue(const CommOp& op) override {
    return {[this, op] {
              if (std::this_thread::get_id() != threadId_) throw std::logic_error("work ran off the communication thread");
              if (gate_ && op.tag.unit == gatedUnit_) gate_->pass();
              if (op.tag.unit == failingUnit_) throw std::runtime_error("fake transport: unit " + std::to_string(op.tag.unit) + " failed");
              const auto t0 = recorder_.now();
              while (recorder_.now() - t0 < busyNs) {
              }
              switch (op.kind) {
              case trace::Kind::AllReduce:
                for (std::size_t i = 0; i < op.count; ++i) op.recv[i] += 1.0f;
                break;
              case trace::Kind::AllGather:
              case trace::Kind::ReduceScatter:
                if (op.send != op.recv) std::copy(op.send, op.send + op.count, op.recv);
                break;
              default: break;
              }
              order.push_back(op.tag.unit);
              record(op, t0, recorder_.now());
            },
            nullptr};
  }
  void recv(float*, int, int, int, int, CollectiveTag, trace::Kind) override {
    throw std::logic_error("fake transport: no receives");
  }

  std::vector<int> order; // units, in the order their work ran
  std::int64_t busyNs = 0; // each operation computes this long first (set before the first)

private:
  Gate* gate_;
  int gatedUnit_, failingUnit_;
  std::thread::id threadId_;
};

class CommStreamBase : public ::testing::Test {
protected:
  void SetUp() override {
    file_ = std::tmpfile();
    ASSERT_NE(file_, nullptr);
    std::vector<std::string> units;
    for (int u = 0; u < 64; ++u) units.push_back("u" + std::to_string(u));
    recorder_ = std::make_unique<Recorder>(file_, 0, units);
    recorder_->header({{"device", "cpu"}});
  }
  void TearDown() override {
    stream_.reset();
    if (file_) std::fclose(file_);
  }
  FakeTransport& make(Gate* gate, int gatedUnit, int failingUnit, HandOffSpin spin) {
    auto t = std::make_unique<FakeTransport>(*recorder_, gate, gatedUnit, failingUnit);
    fake_ = t.get();
    stream_ = std::make_unique<CommStream>(MPI_COMM_WORLD, *recorder_, std::move(t), spin);
    return *fake_;
  }
  trace::Trace readBack() {
    stream_.reset(); // joins the communication thread: every record is written
    recorder_->end();
    recorder_->flush();
    std::fflush(file_);
    std::rewind(file_);
    std::string text;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, file_)) > 0;) text.append(buf, n);
    auto r = trace::readTrace(text);
    EXPECT_TRUE(r.ok()) << (r.error ? r.error->describe("trace") : "");
    return r.trace;
  }
  static long count(const trace::Trace& t, trace::Kind kind) {
    return std::count_if(t.events.begin(), t.events.end(), [&](const trace::Event& e) { return e.kind == kind; });
  }

  std::FILE* file_ = nullptr;
  std::unique_ptr<Recorder> recorder_;
  std::unique_ptr<CommStream> stream_;
  FakeTransport* fake_ = nullptr;
};

// Every behaviour holds whichever way the hand-off waits: the parameter is the spin
// bound in µs (0: both threads sleep at once; 50: they poll first, then sleep).
class CommStreamTest : public CommStreamBase, public ::testing::WithParamInterface<int> {
protected:
  static HandOffSpin spin() { return HandOffSpin{std::chrono::microseconds(GetParam())}; }
  FakeTransport& make(Gate* gate = nullptr, int gatedUnit = -1, int failingUnit = -1) {
    return CommStreamBase::make(gate, gatedUnit, failingUnit, spin());
  }
};

TEST_P(CommStreamTest, OperationsRunOnceEachInIssueOrder) {
  auto& fake = make();
  std::vector<std::vector<float>> buffers(50, std::vector<float>(257, 0.0f));
  std::vector<CommStream::Ticket> tickets;
  for (int u = 0; u < 50; ++u)
    tickets.push_back(stream_->allReduce(buffers[static_cast<std::size_t>(u)].data(), 257, {u, 0, -1}));
  for (auto& t : tickets) stream_->wait(t, 0);
  for (auto& t : tickets) EXPECT_TRUE(stream_->done(t));
  std::vector<int> expected(50);
  for (int u = 0; u < 50; ++u) expected[static_cast<std::size_t>(u)] = u;
  EXPECT_EQ(fake.order, expected); // read after the waits: the tickets order it
  for (const auto& b : buffers)
    for (float x : b) ASSERT_EQ(x, 1.0f);
  EXPECT_EQ(count(readBack(), trace::Kind::AllReduce), 50);
}

TEST_P(CommStreamTest, WaitBlocksUntilTheOperationEndsAndRecordsTheWait) {
  Gate gate;
  make(&gate, 7);
  std::vector<float> shard(16, 2.0f), full(16, 0.0f);
  auto ticket = stream_->allGather(shard.data(), full.data(), 16, {7, 3, -1});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(stream_->done(ticket)); // held at the gate
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    gate.release();
  });
  stream_->wait(ticket, 3);
  opener.join();
  EXPECT_TRUE(stream_->done(ticket));
  EXPECT_EQ(full, shard);
  const auto t = readBack();
  EXPECT_EQ(count(t, trace::Kind::AllGather), 1);
  const auto waits = std::count_if(t.events.begin(), t.events.end(), [](const trace::Event& e) {
    return e.kind == trace::Kind::WaitCollective && e.step == 3 && e.t1 > e.t0;
  });
  EXPECT_EQ(waits, 1);
}

TEST_P(CommStreamTest, AFailedOperationIsRethrownByItsWaitAndByEveryLaterCall) {
  make(nullptr, -1, 2);
  std::vector<float> a(8, 0.0f), b(8, 0.0f), c(8, 0.0f);
  auto first = stream_->allReduce(a.data(), 8, {1, 0, -1});
  auto failing = stream_->allReduce(b.data(), 8, {2, 0, -1});
  stream_->wait(first, 0);
  EXPECT_EQ(a[0], 1.0f);
  try {
    stream_->wait(failing, 0);
    FAIL() << "wait on the failed operation returned";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("unit 2 failed"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(stream_->done(failing));
  EXPECT_EQ(b[0], 0.0f);
  EXPECT_THROW(stream_->allReduce(c.data(), 8, {3, 0, -1}), std::runtime_error); // nothing more is issued
  EXPECT_EQ(c[0], 0.0f);
}

TEST_P(CommStreamTest, DestroyingTheStreamRunsWhatIsQueued) {
  Gate gate;
  make(&gate, 0);
  std::vector<std::vector<float>> buffers(10, std::vector<float>(4, 0.0f));
  for (int u = 0; u < 10; ++u) stream_->allReduce(buffers[static_cast<std::size_t>(u)].data(), 4, {u, 0, -1});
  std::thread opener([&] { gate.release(); });
  const auto t = readBack(); // the destructor drains the queue before joining
  opener.join();
  EXPECT_EQ(count(t, trace::Kind::AllReduce), 10);
  for (const auto& b : buffers) EXPECT_EQ(b[0], 1.0f);
}

TEST_P(CommStreamTest, TicketsAreWaitedFromAnotherThreadWhileTheComputeThreadIssues) {
  make();
  constexpr int kOps = 400;
  std::vector<std::vector<float>> buffers(kOps, std::vector<float>(32, 0.0f));
  std::vector<CommStream::Ticket> tickets(kOps);
  std::atomic<int> issued{0};
  std::atomic<int> seenDone{0};
  std::thread watcher([&] { // polls done() as a strategy's "can I free this buffer" check does
    for (int i = 0; i < kOps; ++i) {
      while (issued.load(std::memory_order_acquire) <= i) std::this_thread::yield();
      while (!stream_->done(tickets[static_cast<std::size_t>(i)])) std::this_thread::yield();
      if (buffers[static_cast<std::size_t>(i)][31] == 1.0f) seenDone.fetch_add(1);
    }
  });
  for (int i = 0; i < kOps; ++i) {
    tickets[static_cast<std::size_t>(i)] = stream_->allReduce(buffers[static_cast<std::size_t>(i)].data(), 32, {i % 64, i, -1});
    issued.store(i + 1, std::memory_order_release);
  }
  watcher.join();
  EXPECT_EQ(seenDone.load(), kOps); // done() makes the operation's writes visible
}

TEST_P(CommStreamTest, TheOpenMpiTransportOnOneRank) {
  stream_ = std::make_unique<CommStream>(MPI_COMM_WORLD, *recorder_, nullptr, spin());
  ASSERT_EQ(stream_->size(), 1);
  std::vector<float> buffer{1.0f, 2.0f, 3.0f};
  std::vector<float> full(3, 0.0f);
  auto a = stream_->allReduce(buffer.data(), 3, {0, 0, -1});
  auto g = stream_->allGather(buffer.data(), full.data(), 3, {1, 0, -1});
  stream_->wait(a, 0);
  stream_->wait(g, 0);
  EXPECT_EQ(buffer, (std::vector<float>{1.0f, 2.0f, 3.0f})); // the sum over one rank
  EXPECT_EQ(full, buffer);
  const auto t = readBack();
  EXPECT_EQ(count(t, trace::Kind::AllReduce), 1);
  EXPECT_EQ(count(t, trace::Kind::AllGather), 1);
}

INSTANTIATE_TEST_SUITE_P(HandOff, CommStreamTest, ::testing::Values(0, 50), [](const ::testing::TestParamInfo<int>& p) {
  return p.param == 0 ? std::string("sleeps") : "polls" + std::to_string(p.param) + "us";
});

// The hand-off itself (docs/performance.md, "the communication stream's hand-off").
using CommStreamHandOff = CommStreamBase;

// Times the calling thread blocked (voluntary context switches: a futex sleep) while
// it issued and waited for `calls` operations one after the other.
long blockedWhileCalling(CommStream& stream, int calls) {
  std::vector<float> buffer(16, 0.0f);
  stream.wait(stream.allReduce(buffer.data(), 16, {0, 0, -1}), 0); // the thread has started
  rusage before{}, after{};
  getrusage(RUSAGE_THREAD, &before);
  for (int i = 0; i < calls; ++i) stream.wait(stream.allReduce(buffer.data(), 16, {0, i, -1}), i);
  getrusage(RUSAGE_THREAD, &after);
  return after.ru_nvcsw - before.ru_nvcsw;
}

TEST_F(CommStreamHandOff, AWaitAnsweredWithinTheBoundDoesNotSleep) {
  // Each fake operation takes 100 µs, so the caller always reaches its wait first.
  // Sleeping at once, nearly every wait blocks. Polling with a bound far above the
  // operation's time, the caller sees its answer without blocking (a few blocks on a
  // mutex or a descheduled thread remain). With the operation taking nanoseconds, the
  // answer was sometimes there before the wait under ASan: 47 of 200 waits blocked.
  constexpr std::int64_t kOperationNs = 100'000;
  make(nullptr, -1, -1, HandOffSpin{}).busyNs = kOperationNs;
  const long sleeping = blockedWhileCalling(*stream_, 200);
  make(nullptr, -1, -1, HandOffSpin{std::chrono::milliseconds(20)}).busyNs = kOperationNs;
  const long polling = blockedWhileCalling(*stream_, 200);
  std::printf("waits that blocked, of 200: %ld sleeping at once, %ld polling\n", sleeping, polling);
  EXPECT_GT(sleeping, 150);
  EXPECT_LT(polling, 20) << "sleeping at once: " << sleeping;
}

TEST_F(CommStreamHandOff, AnIdleStreamStopsPollingAfterItsBound) {
  // The communication thread polls for 2 ms after its last operation, then sleeps: over
  // 300 ms idle the process's CPU time (the main thread sleeps) stays near the bound.
  make(nullptr, -1, -1, HandOffSpin{std::chrono::milliseconds(2)});
  std::vector<float> buffer(16, 0.0f);
  stream_->wait(stream_->allReduce(buffer.data(), 16, {0, 0, -1}), 0);
  auto cpu = [](clockid_t clock) {
    timespec t{};
    clock_gettime(clock, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
  };
  const double before = cpu(CLOCK_PROCESS_CPUTIME_ID) - cpu(CLOCK_THREAD_CPUTIME_ID);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const double burnt = cpu(CLOCK_PROCESS_CPUTIME_ID) - cpu(CLOCK_THREAD_CPUTIME_ID) - before;
  EXPECT_LT(burnt, 0.020) << "CPU seconds used by the other threads over 300 ms idle";
}

TEST(HandOffSpin, PollsOnlyWhenEveryThreadHasACore) {
  // Two threads a rank: a compute and a communication thread.
  EXPECT_GT(handOffSpinFor(1, 2).bound.count(), 0);
  EXPECT_GT(handOffSpinFor(2, 4).bound.count(), 0);
  EXPECT_GT(handOffSpinFor(4, 16).bound.count(), 0);
  EXPECT_EQ(handOffSpinFor(2, 2).bound.count(), 0); // this 2-core machine's lessons
  EXPECT_EQ(handOffSpinFor(4, 2).bound.count(), 0);
  EXPECT_EQ(handOffSpinFor(3, 4).bound.count(), 0);
}

// The bound the launcher read (Tuning::commSpin, the worker's --comm-spin-us) replaces
// the node's choice, 0 included; the stream never reads the environment itself (the
// variable's form is checked where it is read: EnvSettingsTest).
TEST_F(CommStreamHandOff, TheGivenBoundReplacesTheNodesChoice) {
  EXPECT_EQ(handOffSpinOnThisNode(MPI_COMM_WORLD, std::chrono::microseconds(30)).bound, std::chrono::microseconds(30));
  EXPECT_EQ(handOffSpinOnThisNode(MPI_COMM_WORLD, std::chrono::microseconds(0)).bound, std::chrono::microseconds(0));
  setenv("SHARDLAB_COMM_SPIN_US", "30", 1);
  EXPECT_NE(handOffSpinOnThisNode(MPI_COMM_WORLD).bound, std::chrono::microseconds(30))
      << "without a given bound, the node's choice (0 or 50 us), whatever the environment says";
  unsetenv("SHARDLAB_COMM_SPIN_US");
}

} // namespace
} // namespace shardlab

// MPI starts when the tests run (not when CTest lists them).
class MpiEnvironment : public ::testing::Environment {
public:
  void SetUp() override {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
  }
  void TearDown() override { MPI_Finalize(); }
};

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new MpiEnvironment);
  return RUN_ALL_TESTS();
}
