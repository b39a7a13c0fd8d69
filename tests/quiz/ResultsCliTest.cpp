// shardlab-quiz results as an instructor runs it: without arguments (the app's data
// folder under a temporary HOME / XDG_DATA_HOME), --csv over two learners' files, and
// a corrupt file named in the error.
#include "quiz/progress/Progress.h"
#include "quiz/progress/ProgressLocation.h"
#include "TestSupport.h"

#include <cstdio>
#include <sstream>
#include <sys/wait.h>

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {

struct Result {
  int exitCode = -1;
  std::string out, err;
};

// Runs shardlab-quiz with `arguments` under `environment` ("NAME=value ..." for env(1)).
Result runQuiz(const std::string& environment, const std::string& arguments, const std::filesystem::path& scratch) {
  const auto errFile = scratch / "stderr.txt";
  const std::string cmd = "env " + environment + " '" + std::string(SHARDLAB_QUIZ_EXE) + "' " + arguments + " 2>'" +
                          errFile.string() + "'";
  Result r;
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = ::pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(errFile);
  std::stringstream text;
  text << in.rdbuf();
  r.err = text.str();
  return r;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

Progress learnerProgress(const std::filesystem::path& file, const std::string& name) {
  Progress p(file);
  p.setLearner(name);
  const auto t = std::chrono::system_clock::time_point(std::chrono::seconds(1764585635));
  p.recordAnswer({"fsdp-1", "", "fsdp-shard-gather-free"}, 1, false, t); // wrong, then right
  p.recordAnswer({"fsdp-1", "", "fsdp-shard-gather-free"}, 0, true, t + std::chrono::seconds(10));
  p.recordAnswer({"obs-collective-count", "fnv1a64:aaaaaaaaaaaaaaaa", "ddp-replicas"}, 0, true, t);
  p.recordAnswer({"obs-collective-count", "fnv1a64:bbbbbbbbbbbbbbbb", "fsdp-shard-gather-free"}, 2, false,
                 t + std::chrono::seconds(20));
  return p;
}

} // namespace

TEST(ResultsCli, WithoutArgumentsReadsTheAppsDataFolderAndSaysWhere) {
  TempDir home;
  const std::string env = "HOME='" + home.path().string() + "' XDG_DATA_HOME='" + (home.path() / "xdg").string() + "'";
  const auto dataDir = home.path() / "xdg" / "ShardLab" / "shardlab";

  // Nothing yet: still exit 0, with the header and where the files would be.
  auto empty = runQuiz(env, "results", home.path());
  EXPECT_EQ(empty.exitCode, 0) << empty.err;
  EXPECT_NE(empty.err.find(dataDir.string()), std::string::npos) << empty.err;
  ASSERT_EQ(lines(empty.out).size(), 1u) << empty.out;
  EXPECT_EQ(lines(empty.out)[0].rfind("learner,record,", 0), 0u);

  // The app's files: an unnamed learner's progress.json and a named learner's file.
  learnerProgress(progressFile(dataDir, ""), "").save();
  learnerProgress(progressFile(dataDir, "Anna"), "Anna").save();
  const auto r = runQuiz(env, "results", home.path());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find(progressFile(dataDir, "Anna").string()), std::string::npos) << "says where: " << r.err;
  EXPECT_NE(r.err.find((dataDir / "progress.json").string()), std::string::npos) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 1u + 2 * 3) << r.out; // header, then 3 answers per learner
  bool sawRetry = false;
  for (const auto& row : rows)
    if (row.rfind("Anna,answer,fsdp-1,fsdp-shard-gather-free,,,0,true,false,2,1,,2025-12-01T10:40:45Z,", 0) == 0)
      sawRetry = true; // final answer right, first attempt wrong, with the time of the last answer
  EXPECT_TRUE(sawRetry) << r.out;

  // Without XDG_DATA_HOME, the folder is under HOME, as Qt's AppDataLocation is.
  const auto underHome = runQuiz("-u XDG_DATA_HOME HOME='" + home.path().string() + "'", "results --format json", home.path());
  EXPECT_EQ(underHome.exitCode, 0) << underHome.err;
  EXPECT_NE(underHome.err.find((home.path() / ".local" / "share" / "ShardLab" / "shardlab").string()), std::string::npos)
      << underHome.err;
  EXPECT_EQ(nlohmann::json::parse(underHome.out).at("learners").size(), 0u);
}

TEST(ResultsCli, ClassCsvHasOneRowPerLearnerAndQuestion) {
  TempDir dir;
  learnerProgress(dir.path() / "anna.json", "Anna").save();
  auto boris = learnerProgress(dir.path() / "boris.json", "Boris");
  boris.recordAnswer({"pipeline-3", "", "pipeline-bubble"}, 0, true);
  boris.save();
  const auto r = runQuiz("", "results --csv '" + (dir.path() / "anna.json").string() + "' '" +
                                 (dir.path() / "boris.json").string() + "'", dir.path());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const auto rows = lines(r.out);
  ASSERT_EQ(rows.size(), 1u + 2 + 3) << r.out; // header; Anna: 2 questions; Boris: 3
  EXPECT_EQ(rows[0], "learner,question,lessons,runs,attempts,first_attempt_correct,correct,answered_at,file");
  // The observation question about two runs is one row: first answer right, latest wrong.
  EXPECT_EQ(rows[2], "Anna,obs-collective-count,ddp-replicas;fsdp-shard-gather-free,2,2,true,false,2025-12-01T10:40:55Z," +
                         (dir.path() / "anna.json").string());
  EXPECT_EQ(rows[1].rfind("Anna,fsdp-1,fsdp-shard-gather-free,0,2,false,true,", 0), 0u) << rows[1];
  EXPECT_EQ(rows[5].rfind("Boris,pipeline-3,pipeline-bubble,0,1,true,true,", 0), 0u) << rows[5];
}

// Standard output on a full device: an error naming it, exit 1 (it said nothing and exited 0).
TEST(QuizCli, AFullStandardOutputIsAnError) {
  TempDir dir;
  const auto full = runQuiz("", "--assets '" + assetsDir().string() + "' export --format json >/dev/full", dir.path());
  EXPECT_EQ(full.exitCode, 1) << full.err;
  EXPECT_NE(full.err.find("shardlab-quiz: cannot write to standard output: No space left on device"), std::string::npos)
      << full.err;
  const auto fine = runQuiz("", "--assets '" + assetsDir().string() + "' export --format json >/dev/null", dir.path());
  EXPECT_EQ(fine.exitCode, 0) << fine.err;
}

// A learner's name is theirs to choose; in the instructor's spreadsheet it is text, never a formula.
TEST(ResultsCli, ANameThatLooksLikeAFormulaIsWrittenAsText) {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> names = {
      {"=HYPERLINK(\"http://example.invalid\",\"click me\")", "\"'=HYPERLINK(\"\"http://example.invalid\"\",\"\"click me\"\")\""},
      {"@SUM(A1:A9)", "'@SUM(A1:A9)"},
      {"+1+2", "'+1+2"},
      {"-3", "'-3"},
      {std::string("Nu\0l", 4), "Nul"},
      {"Anna", "Anna"}};
  std::string files;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto file = dir.path() / ("learner" + std::to_string(i) + ".json");
    learnerProgress(file, names[i].first).save();
    files += " '" + file.string() + "'";
  }
  for (const std::string format : {"results", "results --csv"}) {
    const auto r = runQuiz("", format + files, dir.path());
    ASSERT_EQ(r.exitCode, 0) << r.err;
    for (const auto& row : lines(r.out)) {
      if (row.rfind("learner,", 0) == 0) continue;
      bool known = false;
      for (const auto& [name, cell] : names) known = known || row.rfind(cell + ",", 0) == 0;
      EXPECT_TRUE(known) << format << ": " << row;
      EXPECT_EQ(row.find('\0'), std::string::npos);
    }
  }
}

TEST(ResultsCli, ACorruptProgressFileIsNamedInTheError) {
  TempDir dir;
  learnerProgress(dir.path() / "anna.json", "Anna").save();
  writeText(dir.path() / "broken.json", "{\"format\": 2, \"answers\": [");
  const auto r = runQuiz("", "results --csv '" + (dir.path() / "anna.json").string() + "' '" +
                                 (dir.path() / "broken.json").string() + "'", dir.path());
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.err.find((dir.path() / "broken.json").string()), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("anna.json"), std::string::npos) << "only the bad file is blamed: " << r.err;
  const auto missing = runQuiz("", "results '" + (dir.path() / "nobody.json").string() + "'", dir.path());
  EXPECT_NE(missing.exitCode, 0);
  EXPECT_NE(missing.err.find("nobody.json: no such file"), std::string::npos) << missing.err;
}
