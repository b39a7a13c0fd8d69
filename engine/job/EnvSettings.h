// The environment variables ShardLab's engine reads, as typed settings, one type per
// concern: `Tuning` (what a rank does differently when measuring, never what it
// computes) and `TestHooks` (what the tests make a run believe); the faults are the third
// (job/Faults.h). shardlab-run reads them once, at its start (`readTuning`,
// `readTestHooks`, from parseLaunchOptions), refuses a malformed value naming the
// variable (exit 2, nothing launched), and hands each rank its settings as worker
// options (`workerArguments`: they show in the trace's recorded command). No rank reads
// its environment: a rank on another host gets what the launcher read, not what its
// own shell had. docs/testing.md, "Environment variables", lists every variable.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

struct Tuning {
  static constexpr std::chrono::milliseconds kDefaultGpuTimeout{std::chrono::seconds(120)};
  // SHARDLAB_COMM_SPIN_US (0 to 10000): the communication stream's hand-off poll bound,
  // in place of the node's choice (HandOffSpin, docs/performance.md); unset: the node's.
  std::optional<std::chrono::microseconds> commSpin;
  // SHARDLAB_BIND_RANKS=0: the ranks stay unbound instead of each binding itself to
  // cores of its own (comm/CorePlacement.h); 1 (or unset): they bind where they fit.
  bool bindRanks = true;
  // SHARDLAB_BLAS_THREADS (at least 1): OpenBLAS threads per CPU rank.
  int blasThreads = 1;
  // SHARDLAB_GPU_TIMEOUT_S (seconds, (0, 86400]): how long a GPU operation may take
  // before the rank reports it hung.
  std::chrono::milliseconds gpuTimeout = kDefaultGpuTimeout;
  bool operator==(const Tuning&) const = default;
};

// SHARDLAB_TEST_CLOCK_SHIFT_NS=RANK:NS: rank `rank` reads its clock `ns` ahead
// (negative: behind), as a rank on a machine whose clock differs would.
struct ClockShift {
  int rank = 0;
  std::int64_t ns = 0;
  bool operator==(const ClockShift&) const = default;
};

struct TestHooks {
  std::optional<ClockShift> clockShift; // SHARDLAB_TEST_CLOCK_SHIFT_NS (each rank)
  // SHARDLAB_TEST_COMM_DELAY_US (1 to 10^7): a GPU rank's NCCL transport keeps its
  // communication stream busy this long after its wait (docs/gpu.md); 0: none.
  std::chrono::microseconds commDelay{0};
  // The launcher's pre-flight only, never a rank's:
  std::optional<std::int64_t> freeMemory;                 // SHARDLAB_FREE_MEMORY: stands for MemAvailable
  std::optional<std::vector<std::int64_t>> gpuFreeMemory; // SHARDLAB_GPU_FREE_MEMORY: each GPU's free memory
  bool operator==(const TestHooks&) const = default;
};

// Reads a variable: its value, or null when it is not set (std::getenv; tests give a map).
using EnvLookup = std::function<const char*(const char* name)>;
// This process's environment (std::getenv): what a program passes at its start.
const char* processEnvironment(const char* name);

// Each appends one message per malformed variable to `errors`, naming it and its form
// ("SHARDLAB_BLAS_THREADS: 'many' is not a whole number of threads of at least 1"), and
// keeps that setting's default. A variable set to the empty string is malformed too.
Tuning readTuning(const EnvLookup& lookup, std::vector<std::string>& errors);
TestHooks readTestHooks(const EnvLookup& lookup, std::vector<std::string>& errors);

// The rank's settings that differ from their defaults, as shardlab-worker's options
// ("--comm-spin-us", "30", "--no-bind-ranks", …); the pre-flight's hooks are not a rank's.
std::vector<std::string> workerArguments(const Tuning& tuning, const TestHooks& hooks);

// shardlab-worker's side: the options workerArguments writes, as given (empty: absent).
struct WorkerSettingOptions {
  std::string commSpinUs, blasThreads, gpuTimeoutS, testClockShiftNs, testCommDelayUs;
  bool noBindRanks = false;
};
// The rank's settings; one message per malformed option in `errors`, naming the option.
void parseWorkerSettings(const WorkerSettingOptions& given, Tuning& tuning, TestHooks& hooks,
                         std::vector<std::string>& errors);

} // namespace shardlab
