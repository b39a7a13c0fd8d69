// The environment as typed settings (job/EnvSettings.h): each variable's form read, each
// malformed value refused naming the variable, and what the launcher hands the ranks
// read back by the worker as the same settings.
#include "job/EnvSettings.h"

#include <gtest/gtest.h>

#include <map>

using namespace shardlab;

namespace {

struct Environment {
  std::map<std::string, std::string> vars;
  EnvLookup lookup() const {
    return [this](const char* name) -> const char* {
      const auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  }
};

} // namespace

TEST(EnvSettings, UnsetGivesTheDefaults) {
  std::vector<std::string> errors;
  const Environment none;
  EXPECT_EQ(readTuning(none.lookup(), errors), Tuning{});
  EXPECT_EQ(readTestHooks(none.lookup(), errors), TestHooks{});
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(Tuning{}.gpuTimeout, std::chrono::seconds(120));
  EXPECT_TRUE(workerArguments(Tuning{}, TestHooks{}).empty()) << "the defaults add nothing to the command";
}

TEST(EnvSettings, EachVariableIsRead) {
  const Environment env{{{"SHARDLAB_COMM_SPIN_US", "30"},
                         {"SHARDLAB_BIND_RANKS", "0"},
                         {"SHARDLAB_BLAS_THREADS", "4"},
                         {"SHARDLAB_GPU_TIMEOUT_S", "0.25"},
                         {"SHARDLAB_TEST_CLOCK_SHIFT_NS", "1:-2500000000"},
                         {"SHARDLAB_TEST_COMM_DELAY_US", "5000"},
                         {"SHARDLAB_FREE_MEMORY", "1MiB"},
                         {"SHARDLAB_GPU_FREE_MEMORY", "1MiB,2KiB"}}};
  std::vector<std::string> errors;
  const Tuning t = readTuning(env.lookup(), errors);
  const TestHooks h = readTestHooks(env.lookup(), errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(t.commSpin, std::chrono::microseconds(30));
  EXPECT_FALSE(t.bindRanks);
  EXPECT_EQ(t.blasThreads, 4);
  EXPECT_EQ(t.gpuTimeout, std::chrono::milliseconds(250));
  EXPECT_EQ(h.clockShift, (ClockShift{1, -2'500'000'000}));
  EXPECT_EQ(h.commDelay, std::chrono::microseconds(5000));
  EXPECT_EQ(h.freeMemory, 1 << 20);
  EXPECT_EQ(h.gpuFreeMemory, (std::vector<std::int64_t>{1 << 20, 2048}));
  const Environment bound{{{"SHARDLAB_BIND_RANKS", "1"}, {"SHARDLAB_COMM_SPIN_US", "0"}}};
  const Tuning b = readTuning(bound.lookup(), errors);
  EXPECT_TRUE(b.bindRanks);
  EXPECT_EQ(b.commSpin, std::chrono::microseconds(0)) << "0 is a bound (never poll), not unset";
  EXPECT_TRUE(errors.empty());
}

TEST(EnvSettings, AMalformedValueIsRefusedNamingTheVariable) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> bad = {
      {"SHARDLAB_COMM_SPIN_US", {"fast", "", "-1", "20000", "5us"}},
      {"SHARDLAB_BIND_RANKS", {"no", "", "2", "false"}},
      {"SHARDLAB_BLAS_THREADS", {"many", "", "0", "-2", "4.5", "99999999999"}},
      {"SHARDLAB_GPU_TIMEOUT_S", {"soon", "", "0", "-1", "30s", "1e9", "nan"}},
      {"SHARDLAB_TEST_CLOCK_SHIFT_NS", {"soon", "", "1", "1:", ":5", "-1:5", "1:5ns", "1:2:3"}},
      {"SHARDLAB_TEST_COMM_DELAY_US", {"0", "-5", "5ms", "2.5", "10000001", ""}},
      {"SHARDLAB_FREE_MEMORY", {"lots", "", "-1MiB"}},
      {"SHARDLAB_GPU_FREE_MEMORY", {"lots", "", "1MiB,lots", "1MiB,", ",1MiB"}},
  };
  for (const auto& [name, values] : bad)
    for (const auto& value : values) {
      const Environment env{{{name, value}}};
      std::vector<std::string> errors;
      const Tuning t = readTuning(env.lookup(), errors);
      const TestHooks h = readTestHooks(env.lookup(), errors);
      ASSERT_EQ(errors.size(), 1u) << name << "=" << value;
      EXPECT_EQ(errors[0].rfind(name + ": '" + value + "'", 0), 0u) << errors[0];
      EXPECT_EQ(t, Tuning{}) << name << "=" << value << ": the default is kept";
      EXPECT_EQ(h, TestHooks{}) << name << "=" << value << ": the default is kept";
    }
}

TEST(EnvSettings, TheRanksGetTheirSettingsAsWorkerOptions) {
  Tuning t;
  t.commSpin = std::chrono::microseconds(0);
  t.bindRanks = false;
  t.blasThreads = 3;
  t.gpuTimeout = std::chrono::milliseconds(250);
  TestHooks h;
  h.clockShift = ClockShift{2, -7};
  h.commDelay = std::chrono::microseconds(5000);
  h.freeMemory = 1024;  // the launcher's own: not passed on
  h.gpuFreeMemory = std::vector<std::int64_t>{1024};
  const auto args = workerArguments(t, h);
  EXPECT_EQ(args, (std::vector<std::string>{"--comm-spin-us", "0", "--no-bind-ranks", "--blas-threads", "3",
                                            "--gpu-timeout-s", "0.25", "--test-clock-shift-ns", "2:-7",
                                            "--test-comm-delay-us", "5000"}));
  // What shardlab-worker reads from those options is what the launcher read.
  WorkerSettingOptions given;
  given.commSpinUs = args[1];
  given.noBindRanks = true;
  given.blasThreads = args[4];
  given.gpuTimeoutS = args[6];
  given.testClockShiftNs = args[8];
  given.testCommDelayUs = args[10];
  Tuning rt;
  TestHooks rh;
  std::vector<std::string> errors;
  parseWorkerSettings(given, rt, rh, errors);
  EXPECT_TRUE(errors.empty());
  EXPECT_EQ(rt, t);
  EXPECT_EQ(rh.clockShift, h.clockShift);
  EXPECT_EQ(rh.commDelay, h.commDelay);
}

TEST(EnvSettings, AMalformedWorkerOptionIsRefusedNamingTheOption) {
  WorkerSettingOptions given;
  given.blasThreads = "many";
  given.testClockShiftNs = "soon";
  Tuning t;
  TestHooks h;
  std::vector<std::string> errors;
  parseWorkerSettings(given, t, h, errors);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].rfind("--blas-threads: 'many'", 0), 0u) << errors[0];
  EXPECT_EQ(errors[1].rfind("--test-clock-shift-ns: 'soon'", 0), 0u) << errors[1];
}
