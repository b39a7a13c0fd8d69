// The sizing rule against fake calibrations: no job runs here (scripts/check-lessons
// measures what the sized lessons really show).
#include "quiz/bank/LessonLibrary.h"
#include "quiz/bank/LessonSizing.h"
#include "TestSupport.h"

using namespace shardlab;
using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {

// A laptop-like CPU rank: 20 GFLOP/s, 100 µs hand-offs, 2 GB/s all-gathers.
Calibration machine(int cores, double latencySeconds = 100e-6, double bytesPerSecond = 2e9) {
  Calibration c;
  c.cores = cores;
  c.gemmFlopsPerSecond = 20e9;
  c.handoffLatencySeconds = latencySeconds;
  c.collectiveBytesPerSecond = bytesPerSecond;
  return c;
}

const Lesson& lesson(const std::string& id) {
  static const auto lessons = LessonLibrary::loadDirectory(assetsDir() / "lessons", &bank());
  const auto* l = lessons.find(id);
  EXPECT_NE(l, nullptr) << id;
  return *l;
}

std::vector<JobSpec> runsOf(const Lesson& l) {
  std::vector<JobSpec> runs;
  for (const auto& r : l.runs) runs.push_back(r.spec);
  return runs;
}

LessonSize size(const std::string& id, const Calibration& c) {
  const auto& l = lesson(id);
  EXPECT_TRUE(l.sizing) << id << " declares no sizing";
  return sizeLesson(runsOf(l), *l.sizing, c);
}

} // namespace

// The pipeline cases take 20 µs hand-offs (a 2-core VM measures 9 µs): a pipeline hand-off
// is two of them plus the activations, and 50 of those per micro-batch must fit the budget.
constexpr double kPipelineHandoff = 20e-6;

TEST(LessonSizing, TwoCoresRunTwoStagesWithEnoughComputePerHandoff) {
  const auto s = size("pipeline-bubble", machine(2, kPipelineHandoff));
  EXPECT_EQ(s.ranks, 2);
  EXPECT_EQ(s.lessonRanks, 4);
  EXPECT_TRUE(s.reducedRanks());
  EXPECT_TRUE(s.failed().empty());
  EXPECT_TRUE(s.withinBudget()) << s.estimatedSeconds;
  for (const auto& run : s.runs) {
    const auto job = run.config();
    EXPECT_EQ(job.ranks, 2);
    EXPECT_EQ(job.hidden, s.hidden);
    EXPECT_GE(estimateRatio("stage_compute_per_handoff", job, machine(2, kPipelineHandoff)), 50.0);
  }
  // The lesson's schedules and micro-batches are its point: they are kept.
  EXPECT_EQ(s.runs[0].config().schedule, Schedule::Naive);
  EXPECT_EQ(s.runs[1].config().microbatches, 8);
}

TEST(LessonSizing, SixteenCoresKeepTheLessonsFourStages) {
  const auto s = size("pipeline-bubble", machine(16, kPipelineHandoff));
  EXPECT_EQ(s.ranks, 4);
  EXPECT_FALSE(s.reducedRanks());
  EXPECT_TRUE(s.failed().empty());
}

TEST(LessonSizing, SlowerHandoffsNeedMoreComputePerMicrobatch) {
  const auto fast = size("pipeline-bubble", machine(2, kPipelineHandoff));
  const auto slow = size("pipeline-bubble", machine(2, 2 * kPipelineHandoff));
  EXPECT_TRUE(fast.failed().empty());
  EXPECT_TRUE(slow.failed().empty());
  EXPECT_LT(static_cast<double>(fast.hidden) * fast.hidden * fast.batch,
            static_cast<double>(slow.hidden) * slow.hidden * slow.batch);
}

TEST(LessonSizing, FsdpPrefetchNeedsRowsAgainstSlowAllGathers) {
  // Per-unit compute grows with batch/ranks × H², its all-gather with H²: a slow network needs a bigger batch.
  const auto fast = size("fsdp-prefetch", machine(4, 100e-6, 8e9));
  const auto slow = size("fsdp-prefetch", machine(4, 100e-6, 0.5e9));
  EXPECT_TRUE(fast.failed().empty());
  EXPECT_TRUE(slow.failed().empty());
  EXPECT_LT(fast.batch, slow.batch);
  for (const auto& run : slow.runs) EXPECT_GE(estimateRatio("unit_compute_per_all_gather", run.config(), machine(4, 100e-6, 0.5e9)), 2.0);
}

TEST(LessonSizing, HidingCommunicationNeedsACoreForEachRanksCommunicationThread) {
  // 4 cores: 2 ranks, each with a core for its compute and one for its communication.
  EXPECT_EQ(size("fsdp-prefetch", machine(4)).ranks, 2);
  EXPECT_TRUE(size("fsdp-prefetch", machine(4)).failed().empty());
  // 2 cores: the fewest ranks FSDP has still share them with their communication; said, and run.
  const auto s = size("fsdp-prefetch", machine(2));
  ASSERT_EQ(s.failed().size(), 1u);
  EXPECT_EQ(s.failed()[0].condition.ratio, "cores_per_rank");
  EXPECT_EQ(s.ranks, 2);
  EXPECT_EQ(s.runs.size(), 2u);
}

TEST(LessonSizing, ImpossibleConditionIsNamedAndTheClosestSizeWithinBudgetRuns) {
  // One-second hand-offs: no pipeline fits 50 of them per micro-batch in 5 s.
  const auto s = size("pipeline-bubble", machine(2, 1.0));
  ASSERT_EQ(s.failed().size(), 1u);
  EXPECT_EQ(s.failed()[0].condition.ratio, "stage_compute_per_handoff");
  EXPECT_LT(s.failed()[0].estimated, 50.0);
  EXPECT_EQ(s.ranks, 2) << "the closest size breaks no other condition";
  EXPECT_EQ(s.runs.size(), 2u);
}

TEST(LessonSizing, OneCoreCannotGiveEveryRankACore) {
  const auto s = size("ddp-replicas", machine(1));
  ASSERT_FALSE(s.failed().empty());
  EXPECT_EQ(s.failed()[0].condition.ratio, "cores_per_rank");
  EXPECT_EQ(s.ranks, 2);  // the fewest ranks a distributed lesson runs: the closest to one per core
}

TEST(LessonSizing, CoresPerRankCountsGpusOnAGpuMachine) {
  JobConfig job;
  job.ranks = 4;
  Calibration c = machine(2);
  c.gpus = 8;
  EXPECT_DOUBLE_EQ(estimateRatio("cores_per_rank", job, c), 2.0);
  job.device = DeviceKind::Cpu;
  EXPECT_DOUBLE_EQ(estimateRatio("cores_per_rank", job, c), 0.5);
}

TEST(LessonSizing, ShippedTimingLessonsDeclareConditionsAndABudget) {
  for (const auto* id : {"pipeline-bubble", "gpipe-vs-1f1b", "fsdp-prefetch", "ddp-replicas", "zero-bubble"}) {
    const auto& l = lesson(id);
    ASSERT_TRUE(l.sizing) << id;
    EXPECT_LE(l.sizing->budgetSeconds, 5.0) << id;
    EXPECT_GE(l.sizing->conditions.size(), 2u) << id;
  }
  EXPECT_FALSE(lesson("oom-ddp-vs-fsdp").sizing) << "its memory budget is its point: it runs as written";
}

TEST(LessonSizing, BadSizingIsReportedWithPlaces) {
  TempDir dir;
  auto doc = readJson(assetsDir() / "lessons" / "pipeline-bubble.json");
  doc["guide"] = nlohmann::json::object();
  for (const auto* lang : {"en", "fr", "ru"}) {
    writeText(dir.path() / (std::string("g.") + lang + ".md"), "x\n");
    doc["guide"][lang] = std::string("g.") + lang + ".md";
  }
  doc["sizing"]["conditions"][0]["ratio"] = "bubble_per_coffee";
  doc["sizing"]["budget_seconds"] = -1;
  const auto file = dir.path() / "pipeline-bubble.json";
  writeText(file, doc.dump());
  Diagnostics d;
  EXPECT_FALSE(LessonLibrary::loadFile(file, &bank(), d));
  EXPECT_DIAGNOSTIC(d, file, "unknown-ratio", "/sizing/conditions/0/ratio");
  EXPECT_DIAGNOSTIC(d, file, "bad-value", "/sizing/budget_seconds");
}
