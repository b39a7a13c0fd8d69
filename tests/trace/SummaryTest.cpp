// The summary's arithmetic on traces whose answer is known by construction.
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

using namespace shardlab::trace;

namespace {
ReadResult parse(const std::string& body) {
  return readTrace("shardlab-trace 1\njob {\"strategy\":\"fsdp\",\"ranks\":4,\"steps\":2,\"model\":{\"units\":[\"a\",\"b\"],\"parameters\":10}}\n" + body);
}
} // namespace

TEST(Summary, ExposedCommunicationIsWhatComputeDidNotCover) {
  // compute [0,100) and [200,300); comm [50,250): covered 50 + 50, exposed 100.
  auto r = parse("op 0 0 100 forward a 0 -1\n"
                 "op 0 200 300 forward b 0 -1\n"
                 "coll 0 50 250 all_gather b 0 -1 4000 f -1 0x0\n");
  ASSERT_TRUE(r.ok()) << r.error->message;
  auto s = summarize(r.trace);
  EXPECT_DOUBLE_EQ(s.ranksDetail[0].computeS, 200e-9);
  EXPECT_DOUBLE_EQ(s.ranksDetail[0].commS, 200e-9);
  EXPECT_DOUBLE_EQ(s.ranksDetail[0].exposedCommS, 100e-9);
}

TEST(Summary, RingWireBytesFollowNcclTestsConventions) {
  auto r = parse("coll 0 0 1 all_gather a 0 -1 4000 f -1 0x0\n"
                 "coll 0 1 2 reduce_scatter a 0 -1 4000 f -1 0x0\n"
                 "coll 0 2 3 all_reduce a 0 -1 4000 f -1 0x0\n"
                 "coll 0 3 4 all_reduce b 0 -1 4000 f -1 0x0\n");
  auto s = summarize(r.trace);
  EXPECT_EQ(s.collectives["all_gather"].wireBytes, 3000);     // (N-1)/N
  EXPECT_EQ(s.collectives["reduce_scatter"].wireBytes, 3000); // (N-1)/N
  EXPECT_EQ(s.collectives["all_reduce"].count, 2);
  EXPECT_EQ(s.collectives["all_reduce"].bytes, 8000);
  EXPECT_EQ(s.collectives["all_reduce"].wireBytes, 12000);   // 2(N-1)/N each
  EXPECT_EQ(s.ranksDetail[0].sentBytes, 18000);
}

// WIRE_BYTES, the trailing field Open MPI's monitoring fills: summed per kind and per
// rank when every call carries it, null (nullopt) as soon as one call of the kind (or one
// sending call of the rank) does not, and for traces written before the field.
TEST(Summary, MeasuredWireBytesAreSummedOnlyWhenEveryCallWasMeasured) {
  auto measured = parse("coll 0 0 1 all_gather a 0 -1 4000 f -1 0x0 3000\n"
                        "coll 0 1 2 all_reduce a 0 -1 4000 f -1 0x0 12000\n"
                        "coll 0 2 3 all_reduce b 0 -1 4000 f -1 0x0 12000\n"
                        "coll 0 3 4 recv b 0 -1 64 3 1 4x4 -1\n");
  ASSERT_TRUE(measured.ok()) << measured.error->message;
  auto s = summarize(measured.trace);
  ASSERT_TRUE(s.collectives["all_gather"].measuredWireBytes);
  EXPECT_EQ(*s.collectives["all_gather"].measuredWireBytes, 3000);
  ASSERT_TRUE(s.collectives["all_reduce"].measuredWireBytes);
  EXPECT_EQ(*s.collectives["all_reduce"].measuredWireBytes, 24000); // what Open MPI sent, not the ring's 12000
  EXPECT_EQ(s.collectives["all_reduce"].wireBytes, 12000);
  EXPECT_FALSE(s.collectives["recv"].measuredWireBytes); // a receive sends nothing to measure
  ASSERT_TRUE(s.ranksDetail[0].measuredSentBytes);        // ... and does not spoil the rank's total
  EXPECT_EQ(*s.ranksDetail[0].measuredSentBytes, 27000);
  const auto j = s.toJson();
  EXPECT_EQ(j["collectives"]["all_reduce"]["measured_wire_bytes"], 24000);
  EXPECT_TRUE(j["collectives"]["recv"]["measured_wire_bytes"].is_null());
  EXPECT_TRUE(j["collectives"]["broadcast"]["measured_wire_bytes"].is_null()); // no call
  EXPECT_EQ(j["ranks_detail"][0]["measured_sent_bytes"], 27000);

  auto partly = parse("coll 0 0 1 all_reduce a 0 -1 4000 f -1 0x0 12000\n"
                      "coll 0 1 2 all_reduce b 0 -1 4000 f -1 0x0 -1\n"
                      "coll 0 2 3 all_gather b 0 -1 4000 f -1 0x0 3000\n");
  ASSERT_TRUE(partly.ok()) << partly.error->message;
  s = summarize(partly.trace);
  EXPECT_FALSE(s.collectives["all_reduce"].measuredWireBytes); // half a measurement is no measurement
  ASSERT_TRUE(s.collectives["all_gather"].measuredWireBytes);
  EXPECT_FALSE(s.ranksDetail[0].measuredSentBytes);
  EXPECT_TRUE(s.toJson()["ranks_detail"][0]["measured_sent_bytes"].is_null());

  auto older = parse("coll 0 0 1 all_reduce a 0 -1 4000 f -1 0x0\n"); // written before the field
  ASSERT_TRUE(older.ok()) << older.error->message;
  s = summarize(older.trace);
  EXPECT_FALSE(s.collectives["all_reduce"].measuredWireBytes);
  EXPECT_TRUE(s.toJson()["collectives"]["all_reduce"]["measured_wire_bytes"].is_null());
  EXPECT_EQ(s.toJson()["collectives"]["all_reduce"]["wire_bytes"], 6000);
}

TEST(Summary, LossIsSummedOverRanksPerToken) {
  auto r = parse("step 0 10 0 40 16\nstep 1 11 0 24 16\nstep 0 20 1 8 16\nstep 1 21 1 8 16\n");
  auto s = summarize(r.trace);
  ASSERT_EQ(s.lossPerStep.size(), 2u);
  EXPECT_DOUBLE_EQ(s.lossPerStep[0], 2.0);
  EXPECT_DOUBLE_EQ(s.lossPerStep[1], 0.5);
  EXPECT_EQ(s.toJson()["loss"]["first"], 2.0);
}

TEST(Summary, PeaksAndPersistentBytesComeFromMemoryRecords) {
  auto r = parse("mem 0 1 param_shard a 100 100 100\n"
                 "mem 0 2 gathered_params a 400 400 500\n"
                 "mem 0 3 gathered_params a -400 0 100\n"
                 "step 0 4 0 1 1\n"
                 "oom 1 5 grads b 300 200 150\n");
  auto s = summarize(r.trace);
  EXPECT_EQ(s.ranksDetail[0].peakBytes, 500);
  EXPECT_EQ(s.ranksDetail[0].persistentBytes, 100);
  EXPECT_EQ(s.ranksDetail[0].peakByCategory[static_cast<int>(Category::GatheredParams)], 400);
  ASSERT_TRUE(s.outOfMemory);
  EXPECT_EQ(s.outOfMemory->rank, 1);
  EXPECT_EQ(s.outOfMemory->message(), "out of memory on rank 1: needs 300 B (grads of b), budget 200 B, holding 150 B");
}

TEST(Summary, TheoreticalBubble) {
  EXPECT_DOUBLE_EQ(theoreticalBubble(shardlab::Schedule::GPipe, 4, 4, 1), 3.0 / 7.0);
  EXPECT_DOUBLE_EQ(theoreticalBubble(shardlab::Schedule::OneFOneB, 2, 8, 1), 1.0 / 9.0);
  EXPECT_DOUBLE_EQ(theoreticalBubble(shardlab::Schedule::Interleaved, 4, 8, 2), 3.0 / 19.0);
  EXPECT_DOUBLE_EQ(theoreticalBubble(shardlab::Schedule::Naive, 4, 8, 1), 3.0 / 4.0);
  EXPECT_DOUBLE_EQ(theoreticalBubble(shardlab::Schedule::GPipe, 1, 8, 1), 0.0);
}

// Rank 0, two steps: step 0 from its first record (10) to its step record (100),
// step 1 from there to 200. Setup before 10 is not step time.
//   compute   [10,40) [60,90) [100,130) [170,190)        = 110
//   comm      [30,70) [130,160)                          = 70, exposed [40,60) [130,160) = 50
//   idle      [130,165) (wait_collective: 30 under comm, 5 other) [90,95) (other)
//   untracked [95,100) [165,170) [190,200)               = 20
// 110 + 50 + 10 + 20 = 190 = step time.
TEST(Summary, StepTimeIsComputeExposedCommOtherIdleAndUntracked) {
  auto r = parse("mem 0 1 param_shard a 100 100 100\n"
                 "op 0 10 40 forward a 0 -1 30\n"
                 "coll 0 30 70 all_gather b 0 -1 4000 f -1 0x0\n"
                 "op 0 60 90 forward b 0 -1 20\n"
                 "idle 0 90 95 wait_activation 0 -1\n"
                 "step 0 100 0 1 1\n"
                 "op 0 100 130 backward b 1 -1 30\n"
                 "coll 0 130 160 reduce_scatter b 1 -1 4000 f -1 0x0\n"
                 "idle 0 130 165 wait_collective 1 -1\n"
                 "op 0 170 190 optimizer b 1 -1 5\n"
                 "step 0 200 1 1 1\n");
  ASSERT_TRUE(r.ok()) << r.error->message;
  const auto summary = summarize(r.trace); // kept: rs refers into it
  const auto& rs = summary.ranksDetail[0];
  EXPECT_NEAR(rs.stepS, 190e-9, 1e-15);
  EXPECT_NEAR(rs.computeS, 110e-9, 1e-15);
  EXPECT_NEAR(rs.commS, 70e-9, 1e-15);
  EXPECT_NEAR(rs.exposedCommS, 50e-9, 1e-15);
  EXPECT_NEAR(rs.otherIdleS, 10e-9, 1e-15);
  EXPECT_NEAR(rs.untrackedS, 20e-9, 1e-15);
  EXPECT_NEAR(rs.idleS, 40e-9, 1e-15);
  // Core wait: wall minus CPU time inside each op: 0 + 10 + 0 + 15.
  ASSERT_TRUE(rs.coreWaitS);
  EXPECT_NEAR(*rs.coreWaitS, 25e-9, 1e-15);
}

// A pipeline stage waiting for its input while its own send is still pending is in
// the bubble, not communicating: [20,40) is other idle, the send's [40,50) exposed.
TEST(Summary, APipelineWaitIsBubbleEvenUnderAPendingSend) {
  auto r = parse("op 0 0 10 forward a 0 0 10\n"
                 "coll 0 10 50 send a 0 0 4096 3 1 16x64\n"
                 "idle 0 20 40 wait_activation 0 1\n"
                 "step 0 50 0 1 1\n");
  ASSERT_TRUE(r.ok()) << r.error->message;
  const auto summary = summarize(r.trace); // kept: rs refers into it
  const auto& rs = summary.ranksDetail[0];
  EXPECT_NEAR(rs.commS, 40e-9, 1e-15);
  EXPECT_NEAR(rs.otherIdleS, 20e-9, 1e-15);
  EXPECT_NEAR(rs.exposedCommS, 20e-9, 1e-15);
  EXPECT_NEAR(rs.untrackedS, 0.0, 1e-15);
}

TEST(Summary, AStepTheRankDidNotFinishRunsToItsLastRecord) {
  auto r = parse("op 0 0 10 forward a 0 -1 10\n"
                 "step 0 10 0 1 1\n"
                 "op 0 20 50 forward a 1 -1 30\n"
                 "fail 0 60 \"boom\"\n");
  ASSERT_TRUE(r.ok()) << r.error->message;
  const auto summary = summarize(r.trace); // kept: rs refers into it
  const auto& rs = summary.ranksDetail[0];
  EXPECT_NEAR(rs.stepS, 50e-9, 1e-15);
  EXPECT_NEAR(rs.computeS, 40e-9, 1e-15);
  EXPECT_NEAR(rs.untrackedS, 10e-9, 1e-15);
}

TEST(Summary, CoreWaitIsUnknownWithoutCpuTimes) {
  auto r = parse("op 0 0 100 forward a 0 -1\nstep 0 100 0 1 1\n"); // a trace from before CPU times
  ASSERT_TRUE(r.ok()) << r.error->message;
  const auto s = summarize(r.trace);
  EXPECT_FALSE(s.ranksDetail[0].coreWaitS);
  EXPECT_TRUE(s.toJson()["ranks_detail"][0]["core_wait_s"].is_null());
  EXPECT_NEAR(s.ranksDetail[0].computeS, 100e-9, 1e-15);
}

TEST(Summary, AModelSizeOfTheWrongTypeIsRefusedWithTheJobRecord) {
  // A float where an integer belongs (1e300 overflows every integer type: converting it
  // is undefined behaviour, which the asan preset's UBSan stops on) and a string: the
  // record is refused by name, so the summary never reads them.
  Trace t;
  const auto job = nlohmann::json::parse(R"({"strategy":"ddp","ranks":2,"model":{"parameters":1e300,"units":["a"]}})");
  const auto error = t.setJob(job);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("model.parameters"), std::string::npos) << *error;
  auto text = job;
  text["model"]["parameters"] = "12";
  EXPECT_TRUE(t.setJob(text));
  EXPECT_FALSE(t.job);
  EXPECT_EQ(summarize(t).parameters, 0);
  auto good = job;
  good["model"]["parameters"] = 12;
  ASSERT_FALSE(t.setJob(good));
  EXPECT_EQ(summarize(t).parameters, 12);
}
