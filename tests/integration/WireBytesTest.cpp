// Bytes on the wire measured by Open MPI's monitoring (engine/comm/WireMonitor.h) on
// real jobs: what each collective really sent, against what its algorithm implies, and
// null where nothing was measured. docs/trace-format.md, "Bytes on the wire".
#include "RunShardlab.h"
#include "TracedRun.h"
#include "trace/Summary.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <bit>
#include <fstream>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

using Run = TracedRun;

Run run(const std::string& name, std::vector<std::string> args) { return runTraced(name, std::move(args), 3); }

std::int64_t ringBytes(const trace::Event& e) {
  const std::int64_t n = std::popcount(e.participants);
  return e.kind == trace::Kind::AllReduce ? 2 * e.bytes * (n - 1) / n : e.bytes * (n - 1) / n;
}

// Every collective record of `kind`: its measured bytes, checked by `check`.
template <class Check>
int forEachMeasured(const trace::Trace& t, trace::Kind kind, Check check) {
  int seen = 0;
  for (const auto& e : t.events) {
    if (e.record != trace::Record::Collective || e.kind != kind) continue;
    ++seen;
    EXPECT_GE(e.wireBytes, 0) << "rank " << e.rank << " step " << e.step << ": not measured";
    check(e);
  }
  return seen;
}

} // namespace

// All-gather and reduce-scatter run as rings (the launcher's default), which send exactly
// (N−1)/N of the buffer: every rank's block is the same size.
// Exact equality also shows nothing else was counted: not the clock sync's messages, not
// the barrier before step 0, not another rank's traffic.
TEST(WireBytes, FsdpAllGatherAndReduceScatterSendTheRingShareExactly) {
  const auto r = run("fsdp4", {"--strategy", "fsdp", "--ranks", "4"});
  ASSERT_FALSE(r.trace.events.empty());
  auto exact = [](const trace::Event& e) {
    EXPECT_EQ(e.wireBytes, ringBytes(e)) << "rank " << e.rank << " " << trace::toString(e.kind) << " of " << e.bytes;
  };
  EXPECT_GT(forEachMeasured(r.trace, trace::Kind::AllGather, exact), 0);
  EXPECT_GT(forEachMeasured(r.trace, trace::Kind::ReduceScatter, exact), 0);
  // The summary sums them per kind, for the rank the other figures come from.
  for (const char* kind : {"all_gather", "reduce_scatter"}) {
    const auto& c = r.summary["collectives"][kind];
    ASSERT_TRUE(c["measured_wire_bytes"].is_number_integer()) << kind << ": " << c.dump();
    EXPECT_EQ(c["measured_wire_bytes"], c["wire_bytes"]) << kind;
  }
  for (const auto& rank : r.summary["ranks_detail"]) {
    ASSERT_TRUE(rank["measured_sent_bytes"].is_number_integer()) << rank.dump();
    EXPECT_EQ(rank["measured_sent_bytes"], rank["sent_bytes"]);
  }
}

// All-reduce: the launcher runs it as a ring (--collective-algorithms ring), which sends
// 2(N−1)/N·B per rank: B on 2 ranks, 1.5·B on 4, within a few bytes where the buffer's
// floats do not divide by N. (What once read (N−1)·B on 4 ranks was Open MPI's coll
// monitoring adding the call's size per peer, not the algorithm's messages.)
TEST(WireBytes, DdpAllReduceSendsTheRingShare) {
  for (int ranks : {2, 4}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    const auto r = run("ddp" + std::to_string(ranks), {"--strategy", "ddp", "--ranks", std::to_string(ranks)});
    ASSERT_FALSE(r.trace.events.empty());
    const int calls = forEachMeasured(r.trace, trace::Kind::AllReduce, [&](const trace::Event& e) {
      EXPECT_NEAR(static_cast<double>(e.wireBytes), static_cast<double>(ringBytes(e)), 16.0)
          << "rank " << e.rank << " all_reduce of " << e.bytes;
    });
    EXPECT_GT(calls, 0);
    const auto& c = r.summary["collectives"]["all_reduce"];
    ASSERT_TRUE(c["measured_wire_bytes"].is_number_integer()) << c.dump();
    EXPECT_NEAR(c["measured_wire_bytes"].get<double>() / c["wire_bytes"].get<double>(), 1.0, 0.01) << c.dump();
  }
}

// --no-wire-monitoring: Open MPI's monitoring stays off, every record says "not
// measured" (-1) and the summary's measured figures are null, next to the ring model.
TEST(WireBytes, WithoutMonitoringNothingIsMeasuredAndTheSummarySaysNull) {
  const auto r = run("ddp-off", {"--strategy", "ddp", "--ranks", "2", "--no-wire-monitoring"});
  ASSERT_FALSE(r.trace.events.empty());
  int collectives = 0;
  for (const auto& e : r.trace.events)
    if (e.record == trace::Record::Collective) {
      ++collectives;
      EXPECT_EQ(e.wireBytes, -1);
    }
  EXPECT_GT(collectives, 0);
  const auto& c = r.summary["collectives"]["all_reduce"];
  EXPECT_TRUE(c["measured_wire_bytes"].is_null()) << c.dump();
  EXPECT_GT(c["wire_bytes"].get<std::int64_t>(), 0);
  EXPECT_TRUE(r.summary["ranks_detail"][0]["measured_sent_bytes"].is_null());
}

// Pipeline messages are point-to-point, counted at the pml like a collective's own
// messages; a send is either measured as exactly its message or, where monitoring is
// not active, not measured at all, and then the summary says null rather than a guess.
// (WireBytesEverySharding.PipelineSendsMeasureExactlyTheirMessage requires the former.)
TEST(WireBytes, PipelineSendsAreTheirMessageOrNotMeasured) {
  const auto r = run("pp2", {"--strategy", "pipeline", "--ranks", "2", "--microbatches", "2"});
  ASSERT_FALSE(r.trace.events.empty());
  int sends = 0;
  bool anyUnmeasured = false;
  for (const auto& e : r.trace.events) {
    if (e.record != trace::Record::Collective || e.kind != trace::Kind::Send) continue;
    ++sends;
    if (e.wireBytes < 0) anyUnmeasured = true;
    else EXPECT_EQ(e.wireBytes, e.bytes);
  }
  EXPECT_GT(sends, 0);
  const auto& c = r.summary["collectives"]["send"];
  EXPECT_EQ(c["measured_wire_bytes"].is_null(), anyUnmeasured) << c.dump();
}
