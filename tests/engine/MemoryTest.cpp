// The tracked allocator measures every byte by category and enforces the budget at
// allocation time, recording what the failed allocation needed and what was held.
#include "core/Memory.h"
#include "core/Recorder.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace shardlab;
using trace::Category;

namespace {
std::string readAll(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  return s;
}
} // namespace

TEST(MemoryTracker, CountsByCategoryAndReleasesOnDestruction) {
  std::FILE* f = std::tmpfile();
  Recorder rec(f, 0, {"embedding", "block0"});
  rec.header({{"device", "cpu"}});
  auto dev = makeCpuDevice();
  MemoryTracker mem(*dev, rec, 0, {"embedding", "block0"});
  {
    Buffer a = mem.allocate(Category::ParamShard, 0, 100);
    Buffer b = mem.allocate(Category::Activations, 1, 50);
    EXPECT_EQ(mem.current(Category::ParamShard), 400);
    EXPECT_EQ(mem.current(Category::Activations), 200);
    EXPECT_EQ(mem.total(), 600);
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a.data()[i], 0.0f);
    Buffer moved = std::move(b);
    EXPECT_EQ(mem.total(), 600);
  }
  EXPECT_EQ(mem.total(), 0);
  EXPECT_EQ(mem.peak(), 600);
  rec.flush();
  auto r = trace::readTrace(readAll(f));
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_EQ(r.trace.events.size(), 4u); // two allocations, two frees
  EXPECT_EQ(r.trace.events[3].bytes, -400);
  EXPECT_EQ(r.trace.events[3].total, 0);
  std::fclose(f);
}

TEST(MemoryTracker, AllocationPastTheBudgetFailsAndIsRecorded) {
  std::FILE* f = std::tmpfile();
  Recorder rec(f, 2, {"embedding", "block0"});
  rec.header({{"device", "cpu"}});
  auto dev = makeCpuDevice();
  MemoryTracker mem(*dev, rec, 1000, {"embedding", "block0"});
  Buffer a = mem.allocate(Category::ParamReplica, 0, 200); // 800 B
  try {
    Buffer b = mem.allocate(Category::GatheredParams, 1, 100); // 400 B more: over
    FAIL() << "allocation past the budget succeeded";
  } catch (const OutOfMemory& e) {
    EXPECT_EQ(e.rank, 2);
    EXPECT_EQ(e.needed, 400);
    EXPECT_EQ(e.budget, 1000);
    EXPECT_EQ(e.holding, 800);
    EXPECT_EQ(e.unit, "block0");
    EXPECT_NE(std::string(e.what()).find("out of memory on rank 2: needs 400 B"), std::string::npos) << e.what();
  }
  EXPECT_EQ(mem.total(), 800); // nothing half-allocated
  a.reset();                   // the rank unwinding after the failure...
  rec.flush();                 // ...records nothing more: the trace ends on what it held
  auto r = trace::readTrace(readAll(f));
  ASSERT_TRUE(r.ok());
  const auto& oom = r.trace.events.back();
  EXPECT_EQ(oom.record, trace::Record::OutOfMemory);
  EXPECT_EQ(oom.category, Category::GatheredParams);
  EXPECT_EQ(oom.bytes, 400);
  EXPECT_EQ(oom.total, 800);
  std::fclose(f);
}

TEST(Recorder, TracingOffWritesNothing) {
  Recorder rec(nullptr, 0, {});
  EXPECT_FALSE(rec.enabled());
  rec.op(trace::Kind::Forward, 0, 0, -1, 1, 2, 1); // must not crash
  auto dev = makeCpuDevice();
  MemoryTracker mem(*dev, rec, 0, {});
  Buffer a = mem.allocate(Category::Grads, -1, 10);
  EXPECT_EQ(mem.total(), 40);
}

// A device that cannot allocate (a GPU's cudaMallocAsync failing, here the host's
// aligned_alloc of 4 PiB) is an out-of-memory like the budget's: the worker gives the
// OOM report and exit 3, not a generic failure: the learner is told the memory ran out.
TEST(MemoryTracker, DeviceAllocationFailureIsAnOutOfMemory) {
  std::FILE* f = std::tmpfile();
  Recorder rec(f, 1, {"embedding", "block0"});
  rec.header({{"device", "cpu"}});
  auto dev = makeCpuDevice();
  MemoryTracker mem(*dev, rec, 0, {"embedding", "block0"}); // no budget: only the device can refuse
  Buffer a = mem.allocate(Category::ParamReplica, 0, 10);
  const std::size_t huge = std::size_t{1} << 50; // floats: 4 PiB
  try {
    Buffer b = mem.allocate(Category::Activations, 1, huge);
    FAIL() << "a 4 PiB allocation succeeded";
  } catch (const OutOfMemory& e) {
    EXPECT_EQ(e.rank, 1);
    EXPECT_EQ(e.needed, static_cast<std::int64_t>(huge * sizeof(float)));
    EXPECT_EQ(e.holding, 40);
    EXPECT_EQ(e.unit, "block0");
  } catch (const std::bad_alloc&) {
    FAIL() << "std::bad_alloc escaped MemoryTracker::allocate";
  }
  EXPECT_EQ(mem.total(), 40);
  rec.flush();
  auto r = trace::readTrace(readAll(f));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.trace.events.back().record, trace::Record::OutOfMemory);
  std::fclose(f);
}
