// The flight record (trace format 2) round-trips, traces of format 1 still read, and
// hangReport() names who never entered the call the others wait in.
#include "trace/HangReport.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <gtest/gtest.h>

#include <string>

using namespace shardlab::trace;

namespace {

const std::string kJob = "job {\"ranks\":4,\"model\":{\"units\":[\"embedding\",\"block0\",\"block1\",\"output\"]}}\n";

// A flight entry line: `end` -1 for a call in flight.
std::string flight(int rank, long seq, const char* kind, const char* unit, int step, long start, long end,
                   const char* participants = "f", int peer = -1, int micro = -1) {
  return "flight " + std::to_string(rank) + " 9000000 " + std::to_string(seq) + " " + kind + " " + unit + " " +
         std::to_string(step) + " " + std::to_string(micro) + " 4096 " + participants + " " + std::to_string(peer) +
         " world " + std::to_string(start) + " " + std::to_string(end) + "\n";
}

std::string coll(int rank, const char* kind, const char* unit, int step, long t0) {
  return "coll " + std::to_string(rank) + " " + std::to_string(t0) + " " + std::to_string(t0 + 10) + " " + kind + " " +
         unit + " " + std::to_string(step) + " -1 4096 f -1 0x0 -1 world\n";
}

} // namespace

TEST(FlightRecord, RoundTripsThroughTheWriterAndReader) {
  Event e;
  e.record = Record::Flight;
  e.rank = 3;
  e.t0 = e.t1 = 5'000'000'000;
  e.seq = 17;
  e.kind = Kind::AllGather;
  e.unit = 2;
  e.step = 4;
  e.micro = -1;
  e.bytes = 65536;
  e.participants = 0xf;
  e.group = CommGroup::Shard;
  e.value = 4'000'000'000; // start
  e.total = -1;            // still in flight
  const std::vector<std::string> units{"embedding", "block0", "block1", "output"};
  const std::string line = formatEvent(e, units);
  EXPECT_EQ(line, "flight 3 5000000000 17 all_gather block1 4 -1 65536 f -1 shard 4000000000 -1");
  auto r = readTrace("shardlab-trace 2\n" + kJob + line + "\n");
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_EQ(r.trace.events.size(), 1u);
  const Event& back = r.trace.events[0];
  EXPECT_EQ(back.record, Record::Flight);
  EXPECT_EQ(back.rank, 3);
  EXPECT_EQ(back.t0, e.t0);
  EXPECT_EQ(back.seq, 17);
  EXPECT_EQ(back.kind, Kind::AllGather);
  EXPECT_EQ(r.trace.unitName(back.unit), "block1");
  EXPECT_EQ(back.step, 4);
  EXPECT_EQ(back.bytes, 65536);
  EXPECT_EQ(back.participants, 0xfu);
  EXPECT_EQ(back.group, CommGroup::Shard);
  EXPECT_EQ(back.value, 4'000'000'000);
  EXPECT_EQ(back.total, -1);
}

TEST(FlightRecord, DamageIsReportedAndOlderFormatsStillRead) {
  EXPECT_FALSE(readTrace("shardlab-trace 2\n" + kJob + "flight 0 10 3 all_gather block0 1 -1 64 f -1 world 5\n").ok());
  EXPECT_FALSE(readTrace("shardlab-trace 2\n" + kJob + "flight 0 10 3 forward block0 1 -1 64 f -1 world 5 -1\n").ok());
  EXPECT_FALSE(readTrace("shardlab-trace 2\n" + kJob + "flight 0 10 3 all_gather block0 1 -1 64 f -1 world 5 4\n").ok())
      << "an end before the start is damage";
  // Version 1, written before the flight record: read as before.
  auto v1 = readTrace("shardlab-trace 1\n" + kJob + coll(0, "all_gather", "block0", 0, 100) + "end 0 200\n");
  ASSERT_TRUE(v1.ok()) << v1.error->message;
  EXPECT_EQ(v1.trace.version, 1);
  EXPECT_EQ(v1.trace.events.size(), 2u);
  EXPECT_FALSE(hangReport(v1.trace));
  // A version newer than this reader is refused.
  EXPECT_FALSE(readTrace("shardlab-trace " + std::to_string(kFormatVersion + 1) + "\n").ok());
}

TEST(HangReport, NamesTheRankThatNeverEnteredAndThoseWaiting) {
  // Every rank did 2 world collectives; ranks 0, 1 and 3 are waiting in the third
  // (seq 2: the all_gather of block1 in step 4); rank 2 wrote nothing more.
  std::string text = "shardlab-trace 2\n" + kJob;
  for (int r = 0; r < 4; ++r)
    text += coll(r, "all_gather", "embedding", 4, 100) + coll(r, "all_gather", "block0", 4, 200);
  for (int r : {0, 1, 3})
    text += flight(r, 1, "all_gather", "block0", 4, 200, 210) + flight(r, 2, "all_gather", "block1", 4, 300 + r, -1);
  auto t = readTrace(text);
  ASSERT_TRUE(t.ok()) << t.error->message;
  const auto report = hangReport(t.trace);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->kind, Kind::AllGather);
  EXPECT_EQ(report->unit, "block1");
  EXPECT_EQ(report->step, 4);
  EXPECT_EQ(report->waiting, (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(report->missing, (std::vector<int>{2}));
  EXPECT_EQ(report->message, "rank 2 never entered all_gather of block1 in step 4; ranks 0, 1, 3 are waiting in it");
}

TEST(HangReport, ARankThatFinishedTheCallIsNotMissing) {
  // The same all_gather twice in a step (forward and backward): rank 1 finished the
  // first (seq 0) and never entered the second (seq 1), which rank 0 waits in.
  std::string text = "shardlab-trace 2\n" + kJob;
  text += coll(0, "all_gather", "block0", 1, 100) + coll(1, "all_gather", "block0", 1, 100);
  text += flight(0, 0, "all_gather", "block0", 1, 100, 110, "3") + flight(0, 1, "all_gather", "block0", 1, 500, -1, "3");
  auto t = readTrace(text);
  ASSERT_TRUE(t.ok()) << t.error->message;
  auto report = hangReport(t.trace);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->missing, (std::vector<int>{1}));
  EXPECT_EQ(report->message, "rank 1 never entered all_gather of block0 in step 1; rank 0 is waiting in it");

  // Had rank 1 recorded the second call too, nobody would be missing.
  t = readTrace(text + coll(1, "all_gather", "block0", 1, 600));
  ASSERT_TRUE(t.ok());
  report = hangReport(t.trace);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->missing.empty());
  EXPECT_EQ(report->passed, (std::vector<int>{1}));
}

TEST(HangReport, AReceiveNamesThePeerThatNeverSent) {
  std::string text = "shardlab-trace 2\n" + kJob;
  text += flight(1, 0, "recv", "block0", 2, 100, -1, "3", 0, 0);
  auto t = readTrace(text);
  ASSERT_TRUE(t.ok()) << t.error->message;
  const auto report = hangReport(t.trace);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->message, "rank 1 is waiting in recv from rank 0 of block0 in step 2 (micro-batch 0); rank 0 never sent it");
}
