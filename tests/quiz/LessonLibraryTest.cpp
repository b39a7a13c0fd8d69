#include "quiz/bank/KnownIds.h"
#include "quiz/bank/LessonLibrary.h"
#include "TestSupport.h"

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

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
  for (const auto* comparison : {"fsdp-prefetch", "oom-ddp-vs-fsdp", "pipeline-bubble", "gpipe-vs-1f1b", "zero-bubble"})
    EXPECT_TRUE(lessons.find(comparison)->isComparison()) << comparison;
}

TEST(LessonLibrary, ShippedSettingsAreTiny) {
  const auto lessons = LessonLibrary::loadDirectory(assetsDir() / "lessons", &bank());
  for (const auto& l : lessons.lessons()) {
    for (const auto& run : l.runs) {
      const auto c = run.spec.config();
      EXPECT_LE(c.ranks, 4) << l.id;
      EXPECT_LE(c.hidden, 128) << l.id;
      EXPECT_LE(c.layers, 8) << l.id;
      EXPECT_LE(c.steps, 20) << l.id;
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
  std::filesystem::create_directory(dir.path() / "a-folder.fr.md"); // there, but not a file
  doc["guide"]["fr"] = "a-folder.fr.md";
  writeText(dir.path() / "fsdp-prefetch.json", doc.dump(2));
  std::filesystem::remove(dir.path() / "tensor-parallel.json");

  Diagnostics d;
  LessonLibrary::load(dir.path(), &bank(), d);
  const auto file = dir.path() / "fsdp-prefetch.json";
  EXPECT_DIAGNOSTIC(d, file, "batch-divisible-by-ranks", "/runs/1/spec/batch");
  EXPECT_DIAGNOSTIC(d, file, "unknown-question", "/questions/2");
  EXPECT_DIAGNOSTIC(d, file, "path-outside-folder", "/guide/ru");
  EXPECT_DIAGNOSTIC(d, file, "bad-value", "/prediction/kind");
  EXPECT_DIAGNOSTIC(d, file, "file-unreadable", "/guide/fr");
  EXPECT_NE(d.toString().find("a-folder.fr.md is not a regular file"), std::string::npos) << d.toString();
  EXPECT_NE(findDiagnostic(d, "missing-lesson"), nullptr) << d.toString();
}

// Found by fuzz_lesson_loader: a number beyond a double is well-formed JSON that the
// parser refuses with out_of_range, which escaped the loader and ended the program.
TEST(LessonLibrary, ANumberBeyondADoubleIsReportedNotThrown) {
  TempDir dir;
  writeText(dir.path() / "huge.json", "845444e4544445");
  Diagnostics d;
  EXPECT_FALSE(LessonLibrary::loadFile(dir.path() / "huge.json", &bank(), d));
  EXPECT_NE(findDiagnostic(d, "json-syntax"), nullptr) << d.toString();
}

TEST(JobSpec, MergesOverridesOverTheLessonsSettings) {
  Diagnostics d;
  JsonValidator v("x.json", d);
  auto base = JobSpec::parse(nlohmann::json{{"strategy", "fsdp"}, {"ranks", 4}}, JsonPath{}, v);
  auto over = JobSpec::parse(nlohmann::json{{"ranks", 2}, {"memory_budget", "2MiB"}}, JsonPath{}, v);
  ASSERT_TRUE(base && over) << d.toString();
  const auto m = base->mergedWith(*over);
  EXPECT_EQ(m.toJson(), (nlohmann::json{{"strategy", "fsdp"}, {"ranks", 2}, {"memory_budget", "2MiB"}}));
  const auto c = m.config();
  EXPECT_EQ(c.ranks, 2);
  EXPECT_EQ(c.strategy, shardlab::StrategyKind::Fsdp);
  EXPECT_EQ(c.memoryBudget, 2 * 1024 * 1024);
  EXPECT_EQ(c.hidden, shardlab::JobConfig{}.hidden);  // unset: the engine's default
}

// Lessons and labs are checked by the engine's JobConfig: a spec the engine refuses is
// refused under the engine's rule id, at the JSON pointer of the field; the keys the
// engine accepts are accepted.
TEST(JobSpec, TheEnginesRulesDecide) {
  struct Refused {
    nlohmann::json spec;
    std::string rule, where;
  };
  const Refused refused[] = {
      {{{"strategy", "pipeline"}, {"ranks", 1}, {"schedule", "interleaved"}, {"virtual_stages", 2}, {"microbatches", 2}},
       "interleaved-needs-two-ranks", "/spec/ranks"},
      {{{"memory_budget", "3mib"}}, "bad-size", "/spec/memory_budget"},
      {{{"strategy", "pipeline"}, {"stages", {2, 2, 1, 2}}}, "stage-units-sum", "/spec/stages"},
      {{{"seed", -1}}, "wrong-type", "/spec/seed"},
  };
  for (const auto& r : refused) {
    Diagnostics d;
    JsonValidator v("lesson.json", d);
    const auto spec = JobSpec::parse(r.spec, JsonPath{} / "spec", v);
    if (spec) spec->checkConsistency(JsonPath{} / "spec", v);
    EXPECT_DIAGNOSTIC(d, std::filesystem::path("lesson.json"), r.rule, r.where);
  }

  const nlohmann::json accepted[] = {
      {{"strategy", "pipeline"}, {"ranks", 2}, {"stages", {3, 3}}},
      {{"weight_decay", 0.01}},
      {{"layers", 2048}},                     // no upper bound on layers
      {{"seed", 18446744073709551615ull}},    // any uint64
      {{"strategy", "ddp"}, {"forward_prefetch", false}},
  };
  for (const auto& spec : accepted) {
    Diagnostics d;
    JsonValidator v("lesson.json", d);
    const auto parsed = JobSpec::parse(spec, JsonPath{} / "spec", v);
    ASSERT_TRUE(parsed) << spec.dump() << "\n" << d.toString();
    EXPECT_TRUE(parsed->checkConsistency(JsonPath{} / "spec", v)) << spec.dump() << "\n" << d.toString();
  }
}
