// Shared helpers of the quiz tests: where the assets and test data are, the shipped
// question bank, a temporary folder, and a search through diagnostics.
#pragma once

#include "quiz/bank/Diagnostics.h"
#include "quiz/bank/QuestionBank.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace shardlab::quiz::test {

inline std::filesystem::path assetsDir() { return SHARDLAB_TEST_ASSETS_DIR; }
inline std::filesystem::path dataDir() { return SHARDLAB_TEST_DATA_DIR; }

// The shipped question bank (assets/quiz), loaded once per test process.
inline const QuestionBank& bank() {
  static const auto b = QuestionBank::loadDirectory(assetsDir() / "quiz");
  return b;
}

class TempDir {
public:
  TempDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("shardlab-quiz-test-" + std::to_string(rd()) + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

inline void writeText(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
}

inline nlohmann::json readJson(const std::filesystem::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

// The first diagnostic with this rule (and, if given, this place); nullptr if none.
inline const Diagnostic* findDiagnostic(const Diagnostics& d, const std::string& rule, const std::string& where = {}) {
  for (const auto& x : d.all())
    if (x.rule == rule && (where.empty() || x.where == where)) return &x;
  return nullptr;
}

} // namespace shardlab::quiz::test

// Asserts a diagnostic with `rule` at `where` in `file`, and that its text names all three.
#define EXPECT_DIAGNOSTIC(DIAGS_, FILE_, RULE_, WHERE_)                                                    \
  do {                                                                                                 \
    const auto* found_ = ::shardlab::quiz::test::findDiagnostic((DIAGS_), (RULE_), (WHERE_));             \
    ASSERT_NE(found_, nullptr) << "no " << (RULE_) << " at " << (WHERE_) << " in:\n" << (DIAGS_).toString(); \
    EXPECT_EQ(found_->file, (FILE_));                                                                   \
    const auto text_ = found_->toString();                                                             \
    EXPECT_NE(text_.find(std::filesystem::path(FILE_).string()), std::string::npos) << text_;           \
    EXPECT_NE(text_.find(WHERE_), std::string::npos) << text_;                                          \
    EXPECT_NE(text_.find(RULE_), std::string::npos) << text_;                                           \
  } while (0)
