// The calibration probe: real jobs through mpirun, cached per machine and build; a
// corrupt cache is ignored and measured again; every trace's job record carries it.
#include "RunShardlab.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

using namespace shardlab::testing;

namespace {

nlohmann::json readJsonFile(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in, nullptr, false);
}

void expectCalibration(const nlohmann::json& c) {
  ASSERT_TRUE(c.is_object()) << c.dump();
  EXPECT_GE(c["cores"].get<int>(), 1);
  EXPECT_GE(c["gpus"].get<int>(), 0);
  EXPECT_GT(c["gemm_flops_per_second"].get<double>(), 1e6);
  EXPECT_GT(c["handoff_latency_seconds"].get<double>(), 0);
  EXPECT_LT(c["handoff_latency_seconds"].get<double>(), 1.0);
  EXPECT_GT(c["collective_bytes_per_second"].get<double>(), 1e6);
}

} // namespace

TEST(Calibration, CorruptCacheIsIgnoredAndRebuiltThenReused) {
  const auto cache = freshDir("calibration-cache");
  const auto file = cache + "/shardlab/calibration.json";
  std::filesystem::create_directories(cache + "/shardlab");
  { std::ofstream(file) << "{\"cores\": \"many\", truncated"; }
  const std::vector<std::pair<std::string, std::string>> env{{"XDG_CACHE_HOME", cache}};

  auto first = runShardlab({"--calibrate"}, env);
  ASSERT_EQ(first.status, 0) << first.err;
  const auto printed = nlohmann::json::parse(first.out, nullptr, false);
  expectCalibration(printed);
  EXPECT_EQ(readJsonFile(file), printed) << "the corrupt cache is replaced by the new measurement";
  const auto writtenAt = std::filesystem::last_write_time(file);

  // Cached: the same numbers, no probe job.
  auto second = runShardlab({"--calibrate"}, env);
  ASSERT_EQ(second.status, 0) << second.err;
  // Identical measured numbers (to the last digit) and an untouched file: nothing was measured.
  EXPECT_EQ(nlohmann::json::parse(second.out, nullptr, false), printed);
  EXPECT_EQ(std::filesystem::last_write_time(file), writtenAt);

  // On demand: measured again.
  auto fresh = runShardlab({"--recalibrate"}, env);
  ASSERT_EQ(fresh.status, 0) << fresh.err;
  expectCalibration(nlohmann::json::parse(fresh.out, nullptr, false));
}

TEST(Calibration, TheJobRecordCarriesIt) {
  const auto cache = freshDir("calibration-record");
  const auto dir = freshDir("calibration-trace");
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "1", "--trace", dir + "/t.trace", "-q"},
                       {{"XDG_CACHE_HOME", cache}});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(dir + "/t.trace");
  std::string line;
  nlohmann::json job;
  while (std::getline(in, line))
    if (line.rfind("job ", 0) == 0) job = nlohmann::json::parse(line.substr(4));
  ASSERT_TRUE(job.contains("calibration")) << job.dump();
  expectCalibration(job["calibration"]);
  EXPECT_EQ(job["calibration"], readJsonFile(cache + "/shardlab/calibration.json"));
}
