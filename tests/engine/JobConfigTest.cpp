#include "core/JobConfig.h"
#include "core/Model.h"

#include <gtest/gtest.h>

using namespace shardlab;

namespace {
bool mentions(const std::vector<std::string>& errors, const std::string& field) {
  for (const auto& e : errors)
    if (e.rfind(field + ":", 0) == 0) return true;
  return false;
}
} // namespace

TEST(JobConfig, DefaultIsValid) { EXPECT_TRUE(JobConfig{}.validate().empty()); }

TEST(JobConfig, EachBrokenRuleNamesItsField) {
  JobConfig c;
  c.strategy = "zero3";
  EXPECT_TRUE(mentions(c.validate(), "strategy"));
  c = {};
  c.ranks = 65;
  EXPECT_TRUE(mentions(c.validate(), "ranks"));
  c = {};
  c.ranks = 0;
  EXPECT_TRUE(mentions(c.validate(), "ranks"));
  c = {};
  c.hidden = -4;
  EXPECT_TRUE(mentions(c.validate(), "hidden"));
  c = {};
  c.batch = 30; // 4 ranks
  EXPECT_TRUE(mentions(c.validate(), "batch"));
  c = {};
  c.memoryBudget = -1;
  EXPECT_TRUE(mentions(c.validate(), "memory_budget"));
  c = {};
  c.sharding = "half";
  EXPECT_TRUE(mentions(c.validate(), "sharding"));
}

TEST(JobConfig, SpecReadsKeysAndRejectsUnknownOnes) {
  std::vector<std::string> errors;
  auto c = JobConfig::fromJson(nlohmann::json::parse(R"({"strategy":"ddp","ranks":2,"memory_budget":"3MiB","prefetch":false})"),
                               JobConfig{}, errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(c.strategy, "ddp");
  EXPECT_EQ(c.ranks, 2);
  EXPECT_EQ(c.memoryBudget, 3 * 1024 * 1024);
  EXPECT_FALSE(c.prefetch);
  JobConfig::fromJson(nlohmann::json::parse(R"({"rank":2,"layers":"four"})"), JobConfig{}, errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_TRUE(mentions(errors, "rank"));
  EXPECT_TRUE(mentions(errors, "layers"));
}

TEST(JobConfig, ParsesSizes) {
  EXPECT_EQ(parseBytes("4096"), 4096);
  EXPECT_EQ(parseBytes("3MiB"), 3 * 1024 * 1024);
  EXPECT_EQ(parseBytes("1.5 KiB"), 1536);
  EXPECT_EQ(parseBytes("2GiB"), 2LL * 1024 * 1024 * 1024);
  EXPECT_FALSE(parseBytes("lots"));
  EXPECT_FALSE(parseBytes("3 parsecs"));
  EXPECT_FALSE(parseBytes(""));
}

TEST(JobConfig, ModelDescriptionCountsEveryUnit) {
  JobConfig c;
  c.vocab = 10;
  c.hidden = 3;
  c.layers = 2;
  // embedding 30, block 3*12+12+12*3+3 = 87 each, output 3*10+10 = 40
  EXPECT_EQ(c.parameterCount(), 30 + 2 * 87 + 40);
  EXPECT_EQ(c.unitNames(), (std::vector<std::string>{"embedding", "block0", "block1", "output"}));
}

TEST(ModelInit, TensorParallelSliceMatchesTheFullLayout) {
  ModelShape s{16, 8, 2};
  const int F = 32, N = 4, f = F / N;
  for (int r = 0; r < N; ++r) {
    std::vector<float> slice(s.unitSize(1, f));
    initialBlockSlice(s, 9, 1, r * f, f, slice.data());
    // W1[row 3, column r*f + 2] and W2[row r*f + 1, column 5]
    EXPECT_EQ(slice[3 * f + 2], initialValue(s, 9, 1, 3 * F + r * f + 2));
    const std::size_t w2 = 8 * static_cast<std::size_t>(f) + f;
    EXPECT_EQ(slice[w2 + 1 * 8 + 5], initialValue(s, 9, 1, 8 * F + F + (r * f + 1) * 8 + 5));
  }
}
