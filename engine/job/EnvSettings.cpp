#include "job/EnvSettings.h"

#include "job/JobConfig.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace shardlab {
namespace {

template <class T>
bool whole(std::string_view s, T& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool number(std::string_view s, double& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v);
}

// "NAME: 'value' form" — the value cut at 60 characters, as Faults does.
std::string refusal(std::string_view name, std::string_view text, std::string_view form) {
  return std::string(name) + ": '" + std::string(text.substr(0, 60)) + (text.size() > 60 ? "…" : "") + "' " +
         std::string(form);
}

// The value parsers: `name` is the variable (the launcher) or the worker's option.
std::optional<std::chrono::microseconds> parseCommSpin(std::string_view text, std::string_view name,
                                                       std::vector<std::string>& errors) {
  long us = -1;
  if (whole(text, us) && us >= 0 && us <= 10000) return std::chrono::microseconds(us);
  errors.push_back(refusal(name, text, "is not a whole number of microseconds from 0 to 10000"));
  return std::nullopt;
}

std::optional<int> parseBlasThreads(std::string_view text, std::string_view name, std::vector<std::string>& errors) {
  int threads = 0;
  if (whole(text, threads) && threads >= 1) return threads;
  errors.push_back(refusal(name, text, "is not a whole number of threads of at least 1"));
  return std::nullopt;
}

std::optional<std::chrono::milliseconds> parseGpuTimeout(std::string_view text, std::string_view name,
                                                         std::vector<std::string>& errors) {
  double seconds = 0;
  if (number(text, seconds) && seconds > 0.0 && seconds <= 86400.0)
    return std::chrono::milliseconds(std::max<long long>(1, std::llround(seconds * 1000.0)));
  errors.push_back(refusal(name, text, "is not a number of seconds in (0, 86400]"));
  return std::nullopt;
}

std::optional<ClockShift> parseClockShift(std::string_view text, std::string_view name,
                                          std::vector<std::string>& errors) {
  const auto colon = text.find(':');
  ClockShift shift;
  if (colon != std::string_view::npos && whole(text.substr(0, colon), shift.rank) && shift.rank >= 0 &&
      whole(text.substr(colon + 1), shift.ns))
    return shift;
  errors.push_back(refusal(name, text, "is not RANK:NS (a rank and a shift in nanoseconds, e.g. 1:2500000000)"));
  return std::nullopt;
}

std::optional<std::chrono::microseconds> parseCommDelay(std::string_view text, std::string_view name,
                                                        std::vector<std::string>& errors) {
  long long us = 0;
  if (whole(text, us) && us >= 1 && us <= 10'000'000) return std::chrono::microseconds(us);
  errors.push_back(refusal(name, text, "is not a whole number of microseconds from 1 to 10000000"));
  return std::nullopt;
}

std::string secondsText(std::chrono::milliseconds ms) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<double>(ms.count()) / 1000.0);
  return std::string(buf, r.ptr);
}

} // namespace

const char* processEnvironment(const char* name) { return std::getenv(name); }

Tuning readTuning(const EnvLookup& lookup, std::vector<std::string>& errors) {
  Tuning t;
  if (const char* v = lookup("SHARDLAB_COMM_SPIN_US"))
    t.commSpin = parseCommSpin(v, "SHARDLAB_COMM_SPIN_US", errors);
  if (const char* v = lookup("SHARDLAB_BIND_RANKS")) {
    const std::string_view text(v);
    if (text == "0" || text == "1")
      t.bindRanks = text == "1";
    else
      errors.push_back(refusal("SHARDLAB_BIND_RANKS", text,
                               "must be 0 (the ranks left unbound) or 1 (each bound to cores of its own where they fit)"));
  }
  if (const char* v = lookup("SHARDLAB_BLAS_THREADS"))
    if (const auto threads = parseBlasThreads(v, "SHARDLAB_BLAS_THREADS", errors)) t.blasThreads = *threads;
  if (const char* v = lookup("SHARDLAB_GPU_TIMEOUT_S"))
    if (const auto timeout = parseGpuTimeout(v, "SHARDLAB_GPU_TIMEOUT_S", errors)) t.gpuTimeout = *timeout;
  return t;
}

TestHooks readTestHooks(const EnvLookup& lookup, std::vector<std::string>& errors) {
  TestHooks h;
  if (const char* v = lookup("SHARDLAB_TEST_CLOCK_SHIFT_NS"))
    h.clockShift = parseClockShift(v, "SHARDLAB_TEST_CLOCK_SHIFT_NS", errors);
  if (const char* v = lookup("SHARDLAB_TEST_COMM_DELAY_US"))
    if (const auto delay = parseCommDelay(v, "SHARDLAB_TEST_COMM_DELAY_US", errors)) h.commDelay = *delay;
  if (const char* v = lookup("SHARDLAB_FREE_MEMORY")) {
    const auto bytes = parseBytes(v);
    if (bytes && *bytes >= 0)
      h.freeMemory = *bytes;
    else
      errors.push_back(refusal("SHARDLAB_FREE_MEMORY", v, "is not a size (e.g. 1MiB)"));
  }
  if (const char* v = lookup("SHARDLAB_GPU_FREE_MEMORY")) {
    std::vector<std::int64_t> gpus;
    std::stringstream list{std::string(v)};
    bool ok = *v != '\0';
    for (std::string size; ok && std::getline(list, size, ',');) {
      const auto bytes = parseBytes(size);
      ok = bytes && *bytes >= 0;
      if (ok) gpus.push_back(*bytes);
    }
    if (ok && !std::string_view(v).ends_with(','))
      h.gpuFreeMemory = std::move(gpus);
    else
      errors.push_back(refusal("SHARDLAB_GPU_FREE_MEMORY", v, "is not a list of sizes, one per GPU (e.g. 8GiB,8GiB)"));
  }
  return h;
}

std::vector<std::string> workerArguments(const Tuning& tuning, const TestHooks& hooks) {
  std::vector<std::string> a;
  if (tuning.commSpin) a.insert(a.end(), {"--comm-spin-us", std::to_string(tuning.commSpin->count())});
  if (!tuning.bindRanks) a.push_back("--no-bind-ranks");
  if (tuning.blasThreads != Tuning{}.blasThreads) a.insert(a.end(), {"--blas-threads", std::to_string(tuning.blasThreads)});
  if (tuning.gpuTimeout != Tuning::kDefaultGpuTimeout) a.insert(a.end(), {"--gpu-timeout-s", secondsText(tuning.gpuTimeout)});
  if (hooks.clockShift)
    a.insert(a.end(), {"--test-clock-shift-ns",
                       std::to_string(hooks.clockShift->rank) + ":" + std::to_string(hooks.clockShift->ns)});
  if (hooks.commDelay.count() > 0) a.insert(a.end(), {"--test-comm-delay-us", std::to_string(hooks.commDelay.count())});
  return a;
}

void parseWorkerSettings(const WorkerSettingOptions& given, Tuning& tuning, TestHooks& hooks,
                         std::vector<std::string>& errors) {
  if (!given.commSpinUs.empty()) tuning.commSpin = parseCommSpin(given.commSpinUs, "--comm-spin-us", errors);
  tuning.bindRanks = !given.noBindRanks;
  if (!given.blasThreads.empty())
    if (const auto threads = parseBlasThreads(given.blasThreads, "--blas-threads", errors)) tuning.blasThreads = *threads;
  if (!given.gpuTimeoutS.empty())
    if (const auto timeout = parseGpuTimeout(given.gpuTimeoutS, "--gpu-timeout-s", errors)) tuning.gpuTimeout = *timeout;
  if (!given.testClockShiftNs.empty())
    hooks.clockShift = parseClockShift(given.testClockShiftNs, "--test-clock-shift-ns", errors);
  if (!given.testCommDelayUs.empty())
    if (const auto delay = parseCommDelay(given.testCommDelayUs, "--test-comm-delay-us", errors)) hooks.commDelay = *delay;
}

} // namespace shardlab
