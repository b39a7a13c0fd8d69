#include "quiz/bank/LabLoader.h"
#include "TestSupport.h"

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {
struct Fixture {
  LessonLibrary lessons = LessonLibrary::loadDirectory(assetsDir() / "lessons", &bank());
  LabLoader loader{bank(), lessons};
};
Fixture& fx() {
  static Fixture f;
  return f;
}
} // namespace

TEST(LabLoader, ExampleLabsAreValid) {
  for (const auto* name : {"fsdp-intro.json", "model-parallel-intro.json"}) {
    Diagnostics d;
    const auto lab = fx().loader.load(assetsDir() / "labs" / name, d);
    ASSERT_TRUE(lab) << d.toString();
    EXPECT_EQ(lab->steps.size(), 4u);
  }
  const auto lab = fx().loader.loadOrThrow(assetsDir() / "labs" / "fsdp-intro.json");
  EXPECT_EQ(lab.steps[0].runs.at(0).config().ranks, 2);                           // the lab's override
  EXPECT_EQ(lab.steps[0].runs.at(0).config().strategy, shardlab::StrategyKind::Ddp); // the lesson's setting
  EXPECT_EQ(lab.steps[2].runs.size(), 2u);                            // a comparison keeps both runs
  EXPECT_EQ(lab.steps[2].questionIds, fx().lessons.find("fsdp-prefetch")->questionIds);
  EXPECT_EQ(lab.steps[0].notes.size(), 3u); // en, fr and ru
  // The description is kept for the app's Lab panel, per language.
  EXPECT_EQ(lab.description.get("en").rfind("Four short runs", 0), 0u) << lab.description.get("en");
  EXPECT_EQ(lab.description.get("ru").rfind("Четыре коротких запуска", 0), 0u) << lab.description.get("ru");
}

TEST(LabLoader, CollectsEveryError) {
  const auto file = dataDir() / "lab-many-errors.json";
  Diagnostics d;
  EXPECT_FALSE(fx().loader.load(file, d));
  EXPECT_DIAGNOSTIC(d, file, "bad-id", "/id");
  EXPECT_DIAGNOSTIC(d, file, "missing-language", "/title/en");
  EXPECT_DIAGNOSTIC(d, file, "unknown-key", "/colour");
  EXPECT_DIAGNOSTIC(d, file, "unknown-lesson", "/steps/0/lesson");
  EXPECT_DIAGNOSTIC(d, file, "choice", "/steps/1/spec/strategy");
  EXPECT_DIAGNOSTIC(d, file, "bad-size", "/steps/1/spec/memory_budget");
  EXPECT_DIAGNOSTIC(d, file, "unknown-question", "/steps/1/questions/0");
  EXPECT_DIAGNOSTIC(d, file, "bad-id", "/steps/1/observations/0");
  EXPECT_DIAGNOSTIC(d, file, "batch-divisible-by-ranks", "/steps/2/spec/batch");
  EXPECT_DIAGNOSTIC(d, file, "microbatches-divide-batch", "/steps/3/spec/microbatches");
  EXPECT_DIAGNOSTIC(d, file, "naive-one-microbatch", "/steps/3/spec/microbatches");
  // A range is checked once the spec reads: step 4 alone sets ranks to 0.
  EXPECT_DIAGNOSTIC(d, file, "range", "/steps/4/spec/ranks");
  EXPECT_GE(d.size(), 12u) << d.toString();
  // FSDP's forward_prefetch given to a pipeline lesson's step: refused by name, not ignored.
  EXPECT_DIAGNOSTIC(d, file, "only-strategy", "/steps/3/spec/forward_prefetch");
  // Both runs of the pipeline comparison break the micro-batches-divide-the-batch
  // rule: reported once. Only the naive run breaks the naive schedule's rule:
  // reported naming that run.
  int divide = 0, naive = 0, prefetch = 0;
  for (const auto& x : d.all()) {
    divide += x.rule == "microbatches-divide-batch" ? 1 : 0;
    naive += x.message.find("in the run \"naive, 1 micro-batch\"") != std::string::npos ? 1 : 0;
    prefetch += x.where == "/steps/3/spec/prefetch" ? 1 : 0;
  }
  EXPECT_EQ(divide, 1) << d.toString();
  EXPECT_EQ(naive, 1) << d.toString();
  EXPECT_EQ(prefetch, 0) << d.toString();
}

TEST(LabLoader, RejectsPathsOutsideTheLabsFolder) {
  const auto file = dataDir() / "lab-path-outside.json";
  Diagnostics d;
  EXPECT_FALSE(fx().loader.load(file, d));
  EXPECT_DIAGNOSTIC(d, file, "path-outside-folder", "/steps/0/notes/en");
  EXPECT_DIAGNOSTIC(d, file, "path-outside-folder", "/steps/0/notes/fr");
  EXPECT_DIAGNOSTIC(d, file, "path-outside-folder", "/steps/0/notes/ru");
  EXPECT_DIAGNOSTIC(d, file, "file-not-found", "/steps/1/notes/en");
  EXPECT_EQ(d.size(), 4u) << d.toString();
}

// A lab's texts need English (the app falls back to it); its notes too, as a lesson's guide does.
TEST(LabLoader, NotesWithoutEnglishAreRefused) {
  TempDir root;
  writeText(root.path() / "n.fr.md", "# Notes\n");
  writeText(root.path() / "lab.json", R"({"format": 1, "id": "no-english", "title": {"en": "Notes in French only"},
    "steps": [{"lesson": "fsdp-prefetch", "notes": {"fr": "n.fr.md"}}]})");
  Diagnostics d;
  EXPECT_FALSE(fx().loader.load(root.path() / "lab.json", d));
  EXPECT_DIAGNOSTIC(d, root.path() / "lab.json", "missing-language", "/steps/0/notes/en");
  EXPECT_EQ(d.size(), 1u) << d.toString();
}

// A 20 MB title froze the app (it is the window's title, the menu's and the dock's).
TEST(LabLoader, ATitleLongerThanALineIsRefused) {
  TempDir root;
  writeText(root.path() / "lab.json", R"({"format": 1, "id": "long-title", "title": {"en": ")" + std::string(201, 'x') +
                                          R"("}, "steps": [{"lesson": "fsdp-prefetch"}]})");
  Diagnostics d;
  EXPECT_FALSE(fx().loader.load(root.path() / "lab.json", d));
  EXPECT_DIAGNOSTIC(d, root.path() / "lab.json", "text-too-long", "/title/en");
  EXPECT_EQ(d.size(), 1u) << d.toString();
}

TEST(LabLoader, RejectsASymbolicLinkLeadingOutside) {
  TempDir root;
  const auto labDir = root.path() / "lab";
  std::filesystem::create_directories(labDir);
  std::filesystem::create_directories(root.path() / "elsewhere");
  writeText(root.path() / "elsewhere" / "secret.md", "# not yours\n");
  std::filesystem::create_directory_symlink(root.path() / "elsewhere", labDir / "link");
  std::filesystem::copy_file(dataDir() / "outside-lab" / "lab-symlink.json", labDir / "lab.json");
  Diagnostics d;
  EXPECT_FALSE(fx().loader.load(labDir / "lab.json", d));
  EXPECT_DIAGNOSTIC(d, labDir / "lab.json", "path-outside-folder", "/steps/0/notes/en");
}

TEST(LabLoader, MalformedJsonIsReportedWithLine) {
  const auto file = dataDir() / "lab-malformed.json";
  Diagnostics d;
  EXPECT_FALSE(fx().loader.load(file, d));
  EXPECT_DIAGNOSTIC(d, file, "json-syntax", "line 6, column 5");
}

// Nested a million arrays deep (2 MB, within the 4 MiB cap): a diagnostic, not a crash.
TEST(LabLoader, ALabNestedTooDeepIsADiagnostic) {
  TempDir root;
  const auto file = root.path() / "lab.json";
  writeText(file, "{\"format\":1,\"id\":" + std::string(1'000'000, '[') + std::string(1'000'000, ']') + "}");
  Diagnostics d;
  EXPECT_FALSE(fx().loader.load(file, d));
  EXPECT_DIAGNOSTIC(d, file, "json-too-deep", "");
  EXPECT_NE(d.toString().find("nests objects or arrays more than 64 levels deep"), std::string::npos) << d.toString();
}

TEST(LabLoader, ChecksObservationTemplatesWhenKnown) {
  const LabLoader strict(bank(), fx().lessons, std::set<std::string>{"persistent-bytes-per-rank"});
  const auto file = assetsDir() / "labs" / "fsdp-intro.json";
  Diagnostics d;
  EXPECT_FALSE(strict.load(file, d));
  EXPECT_DIAGNOSTIC(d, file, "unknown-observation", "/steps/1/observations/1");
}

// An untrusted lab must not make the app ssh to hosts it chose, with the learner's keys.
TEST(LabLoader, ALabCannotNameAHostfile) {
  TempDir dir;
  std::filesystem::copy(assetsDir() / "labs" / "fsdp-intro", dir.path() / "fsdp-intro");
  auto lab = readJson(assetsDir() / "labs" / "fsdp-intro.json");
  writeText(dir.path() / "outside-hosts", "192.0.2.77 slots=2\n");
  for (const std::string hostfile : {"outside-hosts", "/etc/passwd", "../outside-hosts"}) {
    lab["steps"][0]["spec"]["hostfile"] = hostfile;
    const auto file = dir.path() / "fsdp-intro.json";
    writeText(file, lab.dump(2));
    Diagnostics d;
    EXPECT_FALSE(fx().loader.load(file, d)) << hostfile;
    EXPECT_DIAGNOSTIC(d, file, "hostfile-in-spec", "/steps/0/spec/hostfile");
  }
  lab["steps"][0]["spec"]["hostfile"] = ""; // this machine, as by default
  writeText(dir.path() / "fsdp-intro.json", lab.dump(2));
  Diagnostics d;
  EXPECT_TRUE(fx().loader.load(dir.path() / "fsdp-intro.json", d)) << d.toString();
}
