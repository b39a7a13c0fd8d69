#include "quiz/bank/KnownIds.h"
#include "quiz/bank/LessonLibrary.h"
#include "TestSupport.h"

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {
const QuestionBank& bank() {
  static const auto b = QuestionBank::loadDirectory(assetsDir() / "quiz");
  return b;
}
} // namespace

TEST(LessonLibrary, ShippedLessonsLoadWithGuidesInEveryLanguage) {
  const auto lessons = LessonLibrary::loadDirectory(assetsDir() / "lessons", &bank());
  ASSERT_EQ(lessons.lessons().size(), knownLessonIds().size());
  for (const auto& id : knownLessonIds()) {
    const auto* l = lessons.find(id);
    ASSERT_NE(l, nullptr) << id;
    EXPECT_EQ(l->guides.size(), 3u) << id;
    EXPECT_FALSE(l->questionIds.empty()) << id;
    ASSERT_TRUE(l->prediction) << id;
    for (const auto& [lang, path] : l->guides) EXPECT_TRUE(std::filesystem::is_regular_file(path)) << id << " " << lang;
  }
  for (const auto* comparison : {"fsdp-prefetch", "oom-ddp-vs-fsdp", "pipeline-bubble", "gpipe-vs-1f1b"})
    EXPECT_TRUE(lessons.find(comparison)->isComparison()) << comparison;
}

TEST(LessonLibrary, ShippedSettingsAreTiny) {
  const auto lessons = LessonLibrary::loadDirectory(assetsDir() / "lessons", &bank());
  for (const auto& l : lessons.lessons()) {
    for (const auto& run : l.runs) {
      const auto s = run.spec.withDefaults();
      EXPECT_LE(s.intOr("ranks", 4), 4) << l.id;
      EXPECT_LE(s.intOr("hidden", 0), 128) << l.id;
      EXPECT_LE(s.intOr("layers", 0), 8) << l.id;
      EXPECT_LE(s.intOr("steps", 0), 20) << l.id;
    }
  }
}

TEST(LessonLibrary, EveryQuestionWithEvidenceBelongsToALessonThatRunsIt) {
  const auto lessons = LessonLibrary::loadDirectory(assetsDir() / "lessons", &bank());
  for (const auto& q : bank().questions()) {
    if (!q.evidence) continue;
    ASSERT_NE(lessons.find(q.evidence->lesson), nullptr) << q.id;
  }
}

TEST(LessonLibrary, BadLessonIsReportedWithPlaces) {
  TempDir dir;
  for (const auto& entry : std::filesystem::directory_iterator(assetsDir() / "lessons"))
    std::filesystem::copy(entry.path(), dir.path() / entry.path().filename());
  auto doc = readJson(dir.path() / "fsdp-prefetch.json");
  doc["runs"][1]["spec"]["ranks"] = 3;            // 64 tokens do not split over 3 ranks
  doc["questions"].push_back("fsdp-42");
  doc["guide"]["ru"] = "../fsdp-prefetch.ru.md";
  doc["prediction"]["kind"] = "furlongs";
  writeText(dir.path() / "fsdp-prefetch.json", doc.dump(2));
  std::filesystem::remove(dir.path() / "tensor-parallel.json");

  Diagnostics d;
  LessonLibrary::load(dir.path(), &bank(), d);
  const auto file = dir.path() / "fsdp-prefetch.json";
  EXPECT_DIAGNOSTIC(d, file, "inconsistent-settings", "/runs/1/spec/batch");
  EXPECT_DIAGNOSTIC(d, file, "unknown-question", "/questions/2");
  EXPECT_DIAGNOSTIC(d, file, "path-outside-folder", "/guide/ru");
  EXPECT_DIAGNOSTIC(d, file, "bad-value", "/prediction/kind");
  EXPECT_NE(findDiagnostic(d, "missing-lesson"), nullptr) << d.toString();
}

TEST(JobSpec, ParsesByteSizes) {
  EXPECT_EQ(JobSpec::parseBytes("3MiB"), 3 * 1024 * 1024);
  EXPECT_EQ(JobSpec::parseBytes("1.5MiB"), 1572864);
  EXPECT_EQ(JobSpec::parseBytes("512 KiB"), 512 * 1024);
  EXPECT_EQ(JobSpec::parseBytes("4096"), 4096);
  EXPECT_FALSE(JobSpec::parseBytes("lots"));
  EXPECT_FALSE(JobSpec::parseBytes("3 parsecs"));
  EXPECT_FALSE(JobSpec::parseBytes(""));
}

TEST(JobSpec, MergesOverridesOverTheLessonsSettings) {
  Diagnostics d;
  JsonValidator v("x.json", d);
  auto base = JobSpec::parse(nlohmann::json{{"strategy", "fsdp"}, {"ranks", 4}}, JsonPath{}, v);
  auto over = JobSpec::parse(nlohmann::json{{"ranks", 2}, {"memory_budget", "2MiB"}}, JsonPath{}, v);
  ASSERT_TRUE(base && over) << d.toString();
  const auto m = base->mergedWith(*over);
  EXPECT_EQ(m.intOr("ranks", 0), 2);
  EXPECT_EQ(m.stringOr("strategy", ""), "fsdp");
  EXPECT_EQ(m.memoryBudgetBytes(), 2 * 1024 * 1024);
  EXPECT_EQ(m.withDefaults().intOr("hidden", 0), 64);
}
