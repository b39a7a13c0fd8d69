#include "quiz/progress/AtomicFile.h"
#include "quiz/bank/JsonFile.h"
#include "quiz/progress/Progress.h"
#include "TestSupport.h"

#include <csignal>
#include <system_error>

#include <sys/resource.h>
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
  p.recordAnswer("fsdp-2", 1, true);
  p.recordAnswer("fsdp-3", 0, false);
  p.recordAnswer("fsdp-3", 2, true);
  p.recordScore({"fsdp", "fr", 42, 6, 8, 1700000000, ""});
  p.recordPrediction({"fsdp-shard-gather-free", "rank0-persistent-bytes", "bytes", 560000, std::nullopt});
  p.recordPrediction({"fsdp-shard-gather-free", "rank0-persistent-bytes", "bytes", 562432, 562500});
  p.save();

  const auto q = Progress::load(file);
  ASSERT_EQ(q.answers().size(), 2u);
  EXPECT_EQ(q.answers().at("fsdp-3").choice, 2u);
  EXPECT_EQ(q.answers().at("fsdp-3").attempts, 2);
  EXPECT_EQ(q.answers().at("fsdp-3").correctCount, 1);
  ASSERT_EQ(q.scores().size(), 1u);
  EXPECT_EQ(q.scores()[0].correct, 6u);
  EXPECT_EQ(q.scores()[0].lang, "fr");
  ASSERT_EQ(q.predictions().size(), 1u);
  EXPECT_DOUBLE_EQ(q.predictions()[0].value, 562432);
  EXPECT_EQ(q.predictions()[0].actual, 562500);
  EXPECT_EQ(entries(file.parent_path()), std::vector<std::string>{"progress.json"}) << "a temporary file was left";
}

TEST(Progress, MissingFileIsEmptyAndCorruptFileThrowsNamingIt) {
  TempDir dir;
  EXPECT_TRUE(Progress::load(dir.path() / "none.json").answers().empty());
  writeText(dir.path() / "bad.json", "{\"format\": 1, \"answers\": ");
  try {
    Progress::load(dir.path() / "bad.json");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.json"), std::string::npos) << e.what();
  }
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

TEST(AtomicFile, ReplacesContentCompletely) {
  TempDir dir;
  const auto file = dir.path() / "f.json";
  AtomicFile::write(file, std::string(10000, 'a'));
  AtomicFile::write(file, "short");
  EXPECT_EQ(JsonFile::readText(file), "short");
  EXPECT_EQ(entries(dir.path()), std::vector<std::string>{"f.json"});
}
