// Each lesson's own check (quiz/observations/LessonCheck.h) on hand-made summaries: what
// passes, what does not, and what the verdict names as the cause. The same checks on
// real runs: tests/app/LessonCheckTest.cpp and PaneAgreementTest.cpp.
#include "quiz/observations/LessonCheck.h"

#include "trace/Summary.h"
#include "trace/Trace.h"

#include <gtest/gtest.h>

using namespace shardlab;
using namespace shardlab::quiz;

namespace {

trace::Summary pipeline(double measured, double theory) {
  trace::Summary s;
  s.strategy = "pipeline";
  s.steps = s.stepsCompleted = 4;
  s.ranks = 2;
  s.ranksDetail.resize(2);
  s.bubble.present = true;
  s.bubble.schedule = "gpipe";
  s.bubble.stages = 2;
  s.bubble.microbatches = 8;
  s.bubble.measured = measured;
  s.bubble.theory = theory;
  return s;
}

trace::Summary fsdp(int zeroStage, std::int64_t persistent) {
  trace::Summary s;
  s.strategy = "fsdp";
  s.steps = s.stepsCompleted = 3;
  s.ranks = 4;
  s.ranksDetail.resize(4);
  s.ranksDetail[0].persistentBytes = persistent;
  trace::ShardingSummary sh;
  sh.zeroStage = zeroStage;
  sh.shardDegree = 4;
  s.sharding = sh;
  return s;
}

} // namespace

TEST(LessonCheck, AGPipeBubbleNearTheTheoryShowsThePoint) {
  const trace::Trace t;
  const auto naive = pipeline(0.47, 0.5), gpipe = pipeline(0.13, 0.111);
  auto n = naive;
  n.bubble.schedule = "naive";
  const auto c = checkLesson("pipeline-bubble", {{&t, &n, "naive"}, {&t, &gpipe, "GPipe"}}, {});
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->passed);
  EXPECT_EQ(c->figure, "GPipe bubble (GPipe)");
  EXPECT_EQ(c->measured, "0.130");
  EXPECT_NE(c->verdict.get("en").find("showed the lesson's point"), std::string::npos) << c->verdict.get("en");
  EXPECT_NE(c->verdict.get("fr").find("13,0\u00a0%"), std::string::npos) << c->verdict.get("fr");
  EXPECT_EQ(c->replay, ReplayToShow::None);
}

TEST(LessonCheck, ABubbleFarFromTheTheoryNamesItsLargestMeasuredPartsAndOffersTheReplay) {
  const trace::Trace t;
  auto gpipe = pipeline(0.30, 0.111);
  trace::BubbleBreakdown d;
  d.measured = 0.30;
  d.theory = 0.111;
  d.scheduleAlone = 0.10;
  d.scheduleAsRun = -0.011;
  d.handoffs = 0.15;
  d.slowerOps = 0.005;
  d.coreWaits = 0.04;
  d.unexplained = 0.005;
  d.cpuTimes = true;
  gpipe.replay.breakdown = d;
  gpipe.ranksDetail[1].stepS = 1.0;
  gpipe.ranksDetail[1].coreWaitS = 0.2; // a fifth of its step waiting for a core
  const auto c = checkLesson("gpipe-vs-1f1b", {{&t, &gpipe, "GPipe"}}, {});
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->passed);
  const std::string& en = c->verdict.get("en");
  EXPECT_NE(en.find("did not show"), std::string::npos) << en;
  // Largest first: hand-offs, then core waits; parts under a point are not named.
  const auto handoffs = en.find("hand-offs between stages +15.0"), cores = en.find("waiting for CPU cores +4.0");
  ASSERT_NE(handoffs, std::string::npos) << en;
  ASSERT_NE(cores, std::string::npos) << en;
  EXPECT_LT(handoffs, cores);
  EXPECT_EQ(en.find("slower ops"), std::string::npos) << en;
  EXPECT_NE(en.find("10.0\u00a0%"), std::string::npos) << "the schedule-alone replay's bubble: " << en;
  EXPECT_NE(en.find("up to 20.0\u00a0%"), std::string::npos) << "the core waits: " << en;
  EXPECT_NE(c->verdict.get("ru").find("передачи между стадиями +15,0"), std::string::npos) << c->verdict.get("ru");
  EXPECT_EQ(c->replay, ReplayToShow::ScheduleAlone);
}

TEST(LessonCheck, ZeroStagesComparesPersistentBytesWithNPlusOneOverTwo) {
  const trace::Trace t;
  const auto one = fsdp(1, 2'500'000), three = fsdp(3, 1'000'000); // 2.5 = (4 + 1) / 2
  const auto c = checkLesson("zero-stages", {{&t, &one, ""}, {&t, &three, ""}}, {});
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->passed) << c->measured;
  const auto off = fsdp(1, 3'000'000);
  const auto d = checkLesson("zero-stages", {{&t, &off, ""}, {&t, &three, ""}}, {"cores_per_rank"});
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->passed);
  EXPECT_EQ(d->figure, "persistent bytes, ZeRO-1 / ZeRO-3 [unmet: cores_per_rank]");
}

TEST(LessonCheck, RunsThatAreNotTheLessonsAreNotChecked) {
  const trace::Trace t;
  const auto three = fsdp(3, 1'000'000);
  EXPECT_FALSE(checkLesson("zero-stages", {{&t, &three, ""}}, {}));
  EXPECT_FALSE(checkLesson("pipeline-bubble", {{&t, &three, ""}}, {}));
  EXPECT_FALSE(checkLesson("ddp-replicas", {}, {}));
  EXPECT_FALSE(checkLesson("ddp-replicas", {{nullptr, &three, ""}}, {}));
}

TEST(LessonCheck, OtherLessonsCheckThatTheirRunsEnded) {
  const trace::Trace t;
  auto done = fsdp(3, 1);
  auto stopped = fsdp(3, 1);
  stopped.stepsCompleted = 1;
  EXPECT_TRUE(checkLesson("fsdp-shard-gather-free", {{&t, &done, ""}}, {})->passed);
  EXPECT_FALSE(checkLesson("fsdp-shard-gather-free", {{&t, &stopped, ""}}, {})->passed);
  // An out-of-memory run is what the out-of-memory lesson shows.
  stopped.outOfMemory = trace::OutOfMemoryReport{};
  EXPECT_TRUE(checkLesson("oom-ddp-vs-fsdp", {{&t, &stopped, ""}, {&t, &done, ""}}, {})->passed);
}

// zero-bubble: each run's schedule-alone replay, not its measured bubble, which a busy
// machine moves by more than the two schedules differ.
TEST(LessonCheck, ZeroBubbleComparesTheSchedulesAloneNotTheMeasuredBubbles) {
  const trace::Trace t;
  const auto withAlone = [](trace::Summary s, const char* schedule, double alone) {
    s.bubble.schedule = schedule;
    trace::ReplayResult r;
    r.mode = trace::ReplayMode::ScheduleAlone;
    r.bubble = alone;
    s.replay.results.push_back(r);
    return s;
  };
  // ZB-H1 measured above 1F1B (its hand-offs were slower), its schedule below.
  const auto oneF = withAlone(pipeline(0.27, 0.111), "1f1b", 0.104);
  auto zb = withAlone(pipeline(0.29, 0.04), "zb-h1", 0.085);
  auto c = checkLesson("zero-bubble", {{&t, &oneF, "1F1B"}, {&t, &zb, "ZB-H1"}}, {});
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->passed) << c->measured;
  EXPECT_EQ(c->measured, "0.085 / 0.104");
  EXPECT_NE(c->verdict.get("en").find("showed the lesson's point"), std::string::npos) << c->verdict.get("en");
  // A ZB-H1 whose W's did not fill the wait: its schedule leaves 1F1B's bubble.
  zb.replay.results[0].bubble = 0.104;
  c = checkLesson("zero-bubble", {{&t, &oneF, "1F1B"}, {&t, &zb, "ZB-H1"}}, {});
  ASSERT_TRUE(c);
  EXPECT_FALSE(c->passed) << c->measured;
  EXPECT_NE(c->verdict.get("ru").find("ZB-H1 / 1F1B"), std::string::npos) << c->verdict.get("ru");
  // Without the 1F1B run there is nothing to compare.
  EXPECT_FALSE(checkLesson("zero-bubble", {{&t, &zb, "ZB-H1"}}, {}));
}
