#include "quiz/progress/AtomicFile.h"
#include "quiz/bank/JsonFile.h"
#include "quiz/progress/Progress.h"
#include "quiz/progress/ProgressLocation.h"
#include "TestSupport.h"

#include <csignal>
#include <system_error>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {

std::vector<std::string> entries(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Caps the size of any file this process writes, as a full disk would.
class FileSizeLimit {
public:
  explicit FileSizeLimit(rlim_t bytes) {
    previousHandler_ = std::signal(SIGXFSZ, SIG_IGN); // write() then fails with EFBIG
    getrlimit(RLIMIT_FSIZE, &previous_);
    rlimit limit = previous_;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &previous_);
    std::signal(SIGXFSZ, previousHandler_);
  }

private:
  rlimit previous_{};
  void (*previousHandler_)(int) = nullptr;
};

} // namespace

TEST(Progress, RoundTripsAnswersScoresAndPredictions) {
  TempDir dir;
  const auto file = dir.path() / "sub" / "progress.json";
  Progress p(file);
  p.setLearner("Anna");
  p.recordAnswer({"fsdp-2", "", "fsdp-shard-gather-free"}, 1, true);
  p.recordAnswer({"fsdp-3", "", "fsdp-shard-gather-free"}, 0, false);
  p.recordAnswer({"fsdp-3", "", "fsdp-shard-gather-free"}, 2, true);
  p.recordScore({"fsdp", "fr", 42, 6, 8, 1700000000, ""});
  p.recordPrediction({"fsdp-shard-gather-free", "rank0-persistent-bytes", "bytes", 560000, std::nullopt, "s1"});
  p.recordPrediction({"fsdp-shard-gather-free", "rank0-persistent-bytes", "bytes", 562432, 562500, "s1"});
  p.save();

  const auto q = Progress::load(file);
  EXPECT_EQ(q.learner(), "Anna");
  ASSERT_EQ(q.answers().size(), 2u);
  const auto* fsdp3 = q.findAnswer({"fsdp-3", "", "fsdp-shard-gather-free"});
  ASSERT_NE(fsdp3, nullptr);
  EXPECT_EQ(fsdp3->choice, 2u);
  EXPECT_EQ(fsdp3->attempts, 2);
  EXPECT_EQ(fsdp3->correctCount, 1);
  ASSERT_EQ(q.scores().size(), 1u);
  EXPECT_EQ(q.scores()[0].correct, 6u);
  EXPECT_EQ(q.scores()[0].lang, "fr");
  ASSERT_EQ(q.predictions().size(), 1u);
  EXPECT_DOUBLE_EQ(q.predictions()[0].value, 562432);
  EXPECT_EQ(q.predictions()[0].actual, 562500);
  EXPECT_EQ(q.predictions()[0].session, "s1");
  EXPECT_EQ(entries(file.parent_path()), std::vector<std::string>{"progress.json"}) << "a temporary file was left";
}

TEST(Progress, FirstAttemptCorrectnessSurvivesARightRetry) {
  TempDir dir;
  Progress p(dir.path() / "progress.json");
  const AnswerKey key{"obs-collective-count", "fnv1a64:0123456789abcdef", "ddp-replicas"};
  const auto when = std::chrono::system_clock::time_point(std::chrono::seconds(1764585635)); // 2025-12-01T10:40:35Z
  p.recordAnswer(key, 2, false, when);
  p.recordAnswer(key, 0, true, when + std::chrono::seconds(65));
  p.save();
  const auto q = Progress::load(p.file());
  const auto* a = q.findAnswer(key);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(a->correct) << "the final answer is right";
  ASSERT_TRUE(a->firstAttemptCorrect.has_value());
  EXPECT_FALSE(*a->firstAttemptCorrect) << "the first attempt was wrong";
  EXPECT_EQ(a->answeredAt, "2025-12-01T10:41:40Z");
  EXPECT_EQ(a->attempts, 2);
  // And the other way round: right first, then wrong.
  p.recordAnswer({"fsdp-1", "", "ddp-replicas"}, 0, true, when);
  p.recordAnswer({"fsdp-1", "", "ddp-replicas"}, 1, false, when);
  EXPECT_TRUE(*p.findAnswer({"fsdp-1", "", "ddp-replicas"})->firstAttemptCorrect);
  EXPECT_FALSE(p.findAnswer({"fsdp-1", "", "ddp-replicas"})->correct);
}

TEST(Progress, AnswersAreKeptApartByRunAndLesson) {
  TempDir dir;
  Progress p(dir.path() / "progress.json");
  p.recordAnswer({"obs-collective-count", "fnv1a64:aaaaaaaaaaaaaaaa", "ddp-replicas"}, 3, false);
  p.recordAnswer({"obs-collective-count", "fnv1a64:bbbbbbbbbbbbbbbb", "fsdp-shard-gather-free"}, 1, true);
  p.recordAnswer({"fsdp-7", "", "ddp-replicas"}, 0, true);
  ASSERT_EQ(p.answers().size(), 3u);
  EXPECT_EQ(p.findAnswer({"obs-collective-count", "fnv1a64:aaaaaaaaaaaaaaaa", "ddp-replicas"})->choice, 3u);
  EXPECT_EQ(p.findAnswer({"obs-collective-count", "fnv1a64:bbbbbbbbbbbbbbbb", "fsdp-shard-gather-free"})->choice, 1u);
  EXPECT_EQ(p.findAnswer({"fsdp-7", "", "oom-ddp-vs-fsdp"}), nullptr) << "answered in lesson 1, not in lesson 4";
  EXPECT_EQ(p.questionsAnsweredIn("ddp-replicas"), (std::set<std::string>{"fsdp-7", "obs-collective-count"}));
  p.clear();
  EXPECT_TRUE(p.answers().empty());
}

TEST(Progress, PredictionsBelongToTheirSession) {
  TempDir dir;
  Progress p(dir.path() / "progress.json");
  p.recordPrediction({"tensor-parallel", "p", "percent", 75, std::nullopt, "session-1"});
  p.save();
  const auto later = Progress::load(p.file());
  EXPECT_NE(later.findPrediction("tensor-parallel", "p", "session-1"), nullptr);
  EXPECT_EQ(later.findPrediction("tensor-parallel", "p", "session-2"), nullptr) << "a new session sees no old guess";
}

TEST(Progress, FormatOneFilesLoadWithTheirRuns) {
  const auto p = Progress::load(dataDir() / "progress-with-run.json"); // written before learners and lessons
  EXPECT_EQ(p.learner(), "");
  ASSERT_EQ(p.answers().size(), 2u);
  const auto* observed = p.findAnswer({"obs-collective-count", "fnv1a64:0123456789abcdef", ""});
  ASSERT_NE(observed, nullptr);
  EXPECT_TRUE(observed->correct);
  EXPECT_FALSE(observed->firstAttemptCorrect.has_value()) << "format 1 never recorded it";
  EXPECT_EQ(observed->answeredAt, "");
  ASSERT_NE(p.findAnswer({"fsdp-2", "", ""}), nullptr);
  // Saved again, it is a format-2 file.
  TempDir dir;
  Progress copy = Progress::fromJson(p.toJson(), dir.path() / "copy.json");
  EXPECT_EQ(copy.toJson().at("format"), 2);
  EXPECT_NE(copy.findAnswer({"obs-collective-count", "fnv1a64:0123456789abcdef", ""}), nullptr);
}

// A damaged file still holds the learner's earlier answers: it is kept aside, named,
// before anything can overwrite it.
TEST(Progress, ACorruptFileIsKeptAsideAndNamedBeforeANewOneStarts) {
  TempDir dir;
  const auto file = dir.path() / "Anna.json";
  const std::string damaged = R"({"format": 2, "answers": [], "scores": "oops", "predictions": []})";
  writeText(file, damaged);
  std::string problem;
  Progress p = Progress::loadOrSetAside(file, problem);
  EXPECT_TRUE(p.answers().empty());
  EXPECT_NE(problem.find(file.string()), std::string::npos) << problem;
  const auto kept = problem.substr(problem.find("kept as ") + 8, problem.find(" and a new one") - problem.find("kept as ") - 8);
  EXPECT_EQ(kept.rfind(file.string() + ".corrupt-", 0), 0u) << problem;
  EXPECT_EQ(JsonFile::readText(kept), damaged) << "the damaged file is kept whole";
  p.recordAnswer({"fsdp-1", "lesson", "run"}, 1, true);
  p.save();
  EXPECT_EQ(JsonFile::readText(kept), damaged) << "saving does not touch the file kept aside";
  std::string none;
  EXPECT_EQ(Progress::loadOrSetAside(file, none).answers().size(), 1u);
  EXPECT_EQ(none, "");
}

TEST(Progress, MissingFileIsEmptyAndCorruptFileThrowsNamingIt) {
  TempDir dir;
  EXPECT_TRUE(Progress::load(dir.path() / "none.json").answers().empty());
  writeText(dir.path() / "bad.json", "{\"format\": 2, \"answers\": ");
  writeText(dir.path() / "wrong.json", "{\"format\": 2, \"answers\": [{\"question\": 3}], \"scores\": [], \"predictions\": []}");
  writeText(dir.path() / "future.json", "{\"format\": 9}");
  for (const char* name : {"bad.json", "wrong.json", "future.json"}) {
    try {
      Progress::load(dir.path() / name);
      ADD_FAILURE() << "expected an error for " << name;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

TEST(ProgressLocation, OneFilePerLearnerInTheAppDataFolder) {
  const std::filesystem::path dir = "/data/ShardLab/shardlab";
  EXPECT_EQ(progressFile(dir, ""), dir / "progress.json");
  const auto anna = progressFile(dir, "Anna K"), anna2 = progressFile(dir, "Anna_K"), ru = progressFile(dir, "Анна/..");
  EXPECT_EQ(anna.parent_path(), dir / "learners");
  EXPECT_EQ(anna.filename().string().rfind("Anna_K-", 0), 0u) << anna;
  EXPECT_NE(anna, anna2);
  EXPECT_EQ(ru.parent_path(), dir / "learners") << "no folder escapes: " << ru;
  EXPECT_EQ(ru.filename().string().find('/'), std::string::npos);
  TempDir tmp;
  EXPECT_TRUE(progressFiles(tmp.path()).empty());
  writeText(tmp.path() / "progress.json", "{}");
  std::filesystem::create_directories(tmp.path() / "learners");
  writeText(tmp.path() / "learners" / "b.json", "{}");
  writeText(tmp.path() / "learners" / "a.json", "{}");
  writeText(tmp.path() / "learners" / "notes.txt", "");
  EXPECT_EQ(progressFiles(tmp.path()), (std::vector<std::filesystem::path>{tmp.path() / "progress.json",
                                                                          tmp.path() / "learners" / "a.json",
                                                                          tmp.path() / "learners" / "b.json"}));
}

TEST(AtomicFile, InterruptedWriteLeavesTheOldFileIntact) {
  TempDir dir;
  const auto file = dir.path() / "progress.json";
  AtomicFile::write(file, "{\"old\": true}\n");
  const std::string big(1 << 20, 'x');
  {
    FileSizeLimit limit(4096); // the write stops after 4 KiB, like a full disk
    EXPECT_THROW(AtomicFile::write(file, big), std::system_error);
  }
  EXPECT_EQ(JsonFile::readText(file), "{\"old\": true}\n");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"progress.json"}) << "a partial temporary file remains";
  AtomicFile::write(file, big); // and it works again once there is room
  EXPECT_EQ(JsonFile::readText(file)->size(), big.size());
}

TEST(AtomicFile, UnwritableFolderLeavesTheOldFileIntact) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores folder permissions (the size-limit test covers this case)";
  TempDir dir;
  const auto file = dir.path() / "progress.json";
  AtomicFile::write(file, "old");
  std::filesystem::permissions(dir.path(), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  EXPECT_THROW(AtomicFile::write(file, "new"), std::system_error);
  std::filesystem::permissions(dir.path(), std::filesystem::perms::owner_all);
  EXPECT_EQ(JsonFile::readText(file), "old");
}

// -o /dev/full (or a FIFO) must fail, not replace the device with a regular file.
TEST(AtomicFile, RefusesToReplaceAnythingButARegularFile) {
  TempDir dir;
  const auto fifo = dir.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  try {
    AtomicFile::write(fifo, "x");
    FAIL() << "a FIFO was replaced";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find(fifo.string() + " is not a regular file"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  EXPECT_THROW(AtomicFile::write(dir.path(), "x"), std::system_error) << "a directory is not replaced either";
}

TEST(AtomicFile, ReplacesContentCompletely) {
  TempDir dir;
  const auto file = dir.path() / "f.json";
  AtomicFile::write(file, std::string(10000, 'a'));
  AtomicFile::write(file, "short");
  EXPECT_EQ(JsonFile::readText(file), "short");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"f.json"});
}
