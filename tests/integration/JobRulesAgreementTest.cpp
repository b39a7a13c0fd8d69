// The launcher and the quiz judge a job alike (one set of rules, JobConfig): every row of the agreement
// table (tests/data/job-specs.json) goes through `shardlab-run --spec FILE --check`
// and through `shardlab-quiz validate` on a lab whose step carries the spec; both give
// the row's verdict and name the row's field. The app's form reads the same table in
// tests/app; the engine's JobConfig test checks that the table covers every rule.
#include "RunShardlab.h"
#include "data/JobSpecTable.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sys/wait.h>

using namespace shardlab::testing;

namespace {

struct Output {
  int status = -1;
  std::string text; // stdout and stderr together
};

[[maybe_unused]] Output runQuizValidate(const std::string& lab) {
  const std::string command = SHARDLAB_QUIZ " --assets " SHARDLAB_ASSETS_DIR " validate '" + lab + "' 2>&1";
  Output out;
  std::FILE* p = popen(command.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.text.append(buf, n);
  const int status = pclose(p);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::string optionName(std::string field) {
  for (auto& c : field)
    if (c == '_') c = '-';
  return "--" + field;
}

class JobRulesAgreement : public ::testing::Test {
protected:
  JobSpecTable table = loadJobSpecTable();
};

} // namespace

TEST_F(JobRulesAgreement, TheLauncherGivesEachRowItsVerdictAndNamesItsField) {
  const auto dir = freshDir("agreement-launcher");
  for (const auto& row : table.rows) {
    SCOPED_TRACE(row.name);
    const std::string spec = dir + "/" + row.name + ".json";
    std::ofstream(spec) << table.merged(row).dump();
    const auto r = runShardlab({"--spec", spec, "--check"});
    if (row.valid) {
      EXPECT_EQ(r.status, 0) << r.err;
      continue;
    }
    EXPECT_EQ(r.status, 2) << r.err;
    // A key of the spec file is named as written there; the rules over the whole job
    // name the option.
    const bool inSpec = row.rule == "wrong-type" || row.rule == "integer-range" || row.rule == "unknown-key" || row.rule == "not-an-object" ||
                        row.rule == "bad-size" || row.rule == "choice" || row.rule == "mesh-syntax" ||
                        row.rule == "mesh-unknown-dimension" || row.rule == "mesh-repeated-dimension";
    const std::string named = inSpec ? "--spec " + spec + ": " + row.field + ":" : optionName(row.field) + ":";
    EXPECT_NE(r.err.find(named), std::string::npos) << "expected '" << named << "' in:\n" << r.err;
  }
}

TEST_F(JobRulesAgreement, TheQuizGivesEachRowItsVerdictAndPointsAtItsField) {
#ifndef SHARDLAB_QUIZ
  GTEST_SKIP() << "shardlab-quiz is not built (SHARDLAB_BUILD_QUIZ=OFF)";
#else
  const auto dir = freshDir("agreement-quiz");
  for (const auto& row : table.rows) {
    SCOPED_TRACE(row.name);
    const nlohmann::json lab = {{"format", 1},
                                {"id", "agreement"},
                                {"title", {{"en", "Agreement"}, {"fr", "Accord"}, {"ru", "Согласие"}}},
                                {"steps", {{{"lesson", table.lesson}, {"spec", row.spec}}}}};
    const std::string file = dir + "/" + row.name + ".json";
    std::ofstream(file) << lab.dump(2);
    const auto r = runQuizValidate(file);
    if (row.spec.contains("hostfile")) {
      // Where the machines are is the learner's choice (the launcher and the form take a
      // hostfile): a lesson or lab that names one is refused, whatever else the row holds.
      EXPECT_NE(r.status, 0) << r.text;
      EXPECT_NE(r.text.find("/steps/0/spec/hostfile: hostfile-in-spec"), std::string::npos) << r.text;
      continue;
    }
    if (row.valid) {
      EXPECT_EQ(r.status, 0) << r.text;
      continue;
    }
    EXPECT_NE(r.status, 0) << r.text;
    const std::string pointer = row.field == "spec" ? "/steps/0/spec" : "/steps/0/spec/" + row.field;
    EXPECT_NE(r.text.find(pointer), std::string::npos) << "expected " << pointer << " in:\n" << r.text;
  }
#endif
}
