#include "quiz/bank/JobSpec.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <string_view>

namespace shardlab::quiz {

namespace {

struct IntRange {
  const char* key;
  std::int64_t min, max;
};
constexpr IntRange kIntKeys[] = {{"ranks", 1, 64},     {"layers", 1, 1024},      {"hidden", 1, 65536},
                                 {"vocab", 2, 1 << 20}, {"batch", 1, 1 << 20},    {"steps", 1, 1000000},
                                 {"microbatches", 1, 4096}, {"virtual_stages", 1, 64}};

struct Choices {
  const char* key;
  std::set<std::string> values;
};
const Choices kStringKeys[] = {{"strategy", {"ddp", "fsdp", "pipeline", "tp"}},
                               {"sharding", {"full", "grad-op"}},
                               {"schedule", {"naive", "gpipe", "1f1b", "interleaved"}},
                               {"device", {"auto", "cpu", "cuda"}}};

std::string list(const std::set<std::string>& values) {
  std::string out;
  for (const auto& v : values) out += (out.empty() ? "" : ", ") + v;
  return out;
}

} // namespace

std::optional<std::int64_t> JobSpec::parseBytes(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == 0) return std::nullopt;
  double number = 0;
  try {
    std::size_t used = 0;
    number = std::stod(text.substr(0, i), &used);
    if (used != i) return std::nullopt;
  } catch (...) {
    return std::nullopt;
  }
  while (i < text.size() && text[i] == ' ') ++i;
  const std::string unit = text.substr(i);
  double scale = 0;
  if (unit.empty() || unit == "B") scale = 1;
  else if (unit == "KiB" || unit == "K" || unit == "KB") scale = 1024.0;
  else if (unit == "MiB" || unit == "M" || unit == "MB") scale = 1024.0 * 1024.0;
  else if (unit == "GiB" || unit == "G" || unit == "GB") scale = 1024.0 * 1024.0 * 1024.0;
  else return std::nullopt;
  const double bytes = number * scale;
  if (!std::isfinite(bytes) || bytes > 9.0e18) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(bytes));
}

std::optional<JobSpec> JobSpec::parse(const nlohmann::json& value, const JsonPath& where, JsonValidator& v) {
  if (!v.requireObject(value, where)) return std::nullopt;
  const std::size_t before = v.errorCount();
  v.rejectUnknownKeys(value, where,
                      {"strategy", "sharding", "ranks", "layers", "hidden", "vocab", "batch", "steps", "seed", "lr",
                       "prefetch", "memory_budget", "microbatches", "schedule", "virtual_stages", "device"});
  for (const auto& r : kIntKeys) {
    if (!value.contains(r.key)) continue;
    const auto& x = value[r.key];
    if (!x.is_number_integer()) {
      v.error(where / r.key, "wrong-type", "expected an integer, found " + jsonTypeName(x));
    } else if (x.get<std::int64_t>() < r.min || x.get<std::int64_t>() > r.max) {
      v.error(where / r.key, "bad-value",
              std::string(r.key) + " must be between " + std::to_string(r.min) + " and " + std::to_string(r.max) +
                  " (got " + x.dump() + ")");
    }
  }
  for (const auto& c : kStringKeys) {
    if (!value.contains(c.key)) continue;
    const auto& x = value[c.key];
    if (!x.is_string()) v.error(where / c.key, "wrong-type", "expected a string, found " + jsonTypeName(x));
    else if (!c.values.count(x.get<std::string>()))
      v.error(where / c.key, "bad-value",
              std::string(c.key) + " must be one of " + list(c.values) + " (got \"" + x.get<std::string>() + "\")");
  }
  if (value.contains("seed") && !(value["seed"].is_number_unsigned() ||
                                  (value["seed"].is_number_integer() && value["seed"].get<std::int64_t>() >= 0)))
    v.error(where / "seed", "wrong-type", "expected a non-negative integer, found " + jsonTypeName(value["seed"]));
  if (value.contains("lr")) {
    const auto& x = value["lr"];
    if (!x.is_number()) v.error(where / "lr", "wrong-type", "expected a number, found " + jsonTypeName(x));
    else if (!(x.get<double>() > 0) || !std::isfinite(x.get<double>()))
      v.error(where / "lr", "bad-value", "the learning rate must be a positive number");
  }
  if (value.contains("prefetch") && !value["prefetch"].is_boolean())
    v.error(where / "prefetch", "wrong-type", "expected true or false, found " + jsonTypeName(value["prefetch"]));
  if (value.contains("memory_budget")) {
    const auto& x = value["memory_budget"];
    if (x.is_number_integer()) {
      if (x.get<std::int64_t>() < 0) v.error(where / "memory_budget", "bad-value", "must not be negative");
    } else if (x.is_string()) {
      if (!parseBytes(x.get<std::string>()))
        v.error(where / "memory_budget", "bad-value",
                "\"" + x.get<std::string>() + "\" is not a size (e.g. \"3MiB\", \"512KiB\" or a number of bytes)");
    } else {
      v.error(where / "memory_budget", "wrong-type", "expected a size string or an integer number of bytes");
    }
  }
  if (v.errorCount() != before) return std::nullopt;
  JobSpec spec;
  spec.settings_ = value;
  return spec;
}

JobSpec JobSpec::mergedWith(const JobSpec& overrides) const {
  JobSpec out = *this;
  for (const auto& [key, value] : overrides.settings_.items()) out.settings_[key] = value;
  return out;
}

JobSpec JobSpec::withDefaults() const {
  JobSpec out = *this;
  const std::pair<const char*, int> defaults[] = {{"vocab", 64}, {"hidden", 64}, {"layers", 4}, {"batch", 64},
                                                  {"steps", 20}};
  for (const auto& [key, value] : defaults)
    if (!out.settings_.contains(key)) out.settings_[key] = value;
  return out;
}

std::int64_t JobSpec::intOr(const std::string& key, std::int64_t fallback) const {
  auto it = settings_.find(key);
  return it != settings_.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
}

std::string JobSpec::stringOr(const std::string& key, const std::string& fallback) const {
  auto it = settings_.find(key);
  return it != settings_.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::optional<std::int64_t> JobSpec::memoryBudgetBytes() const {
  auto it = settings_.find("memory_budget");
  if (it == settings_.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (it->is_string()) return parseBytes(it->get<std::string>());
  return std::nullopt;
}

bool JobSpec::checkConsistency(const JsonPath& where, JsonValidator& v) const {
  const std::size_t before = v.errorCount();
  const JobSpec s = withDefaults();
  // The engine's defaults for what withDefaults() leaves out.
  const std::string strategy = s.stringOr("strategy", "fsdp");
  const std::string schedule = s.stringOr("schedule", "1f1b");
  const auto ranks = s.intOr("ranks", 4), layers = s.intOr("layers", 4), hidden = s.intOr("hidden", 64);
  const auto batch = s.intOr("batch", 64), micro = s.intOr("microbatches", 1), vs = s.intOr("virtual_stages", 1);
  auto bad = [&](const char* key, const std::string& message) { v.error(where / key, "inconsistent-settings", message); };

  if (strategy != "fsdp") {
    if (has("sharding")) bad("sharding", "sharding only applies to the fsdp strategy (strategy is " + strategy + ")");
    if (has("prefetch")) bad("prefetch", "prefetch only applies to the fsdp strategy (strategy is " + strategy + ")");
  }
  if (strategy != "pipeline") {
    for (const char* key : {"microbatches", "schedule", "virtual_stages"})
      if (has(key)) bad(key, std::string(key) + " only applies to the pipeline strategy (strategy is " + strategy + ")");
  }
  if ((strategy == "ddp" || strategy == "fsdp") && batch % ranks != 0)
    bad("batch", "the global batch (" + std::to_string(batch) + ") must be divisible by ranks (" +
                     std::to_string(ranks) + ")");
  if (strategy == "pipeline") {
    const auto chunks = ranks * (schedule == "interleaved" ? vs : 1);
    if (schedule == "naive" && micro != 1)
      bad("microbatches", "the naive schedule runs the whole batch at once (use 1, or gpipe/1f1b)");
    if (batch % micro != 0)
      bad("microbatches", "must divide the global batch (" + std::to_string(batch) + " is not divisible by " +
                              std::to_string(micro) + ")");
    if (layers + 2 < chunks)
      bad("ranks", "a pipeline of " + std::to_string(chunks) + " stages needs at least as many units; the model has " +
                       std::to_string(layers + 2) + " (layers + 2)");
    if (schedule == "interleaved" && vs < 2)
      bad("virtual_stages", "the interleaved schedule needs at least 2 chunks per rank");
    if (schedule != "interleaved" && vs != 1) bad("virtual_stages", "only the interleaved schedule uses virtual stages");
    if (schedule == "interleaved" && micro % ranks != 0)
      bad("microbatches", "the interleaved schedule needs a multiple of the stage count (" + std::to_string(ranks) + ")");
  }
  if (strategy == "tp" && (hidden % ranks != 0))
    bad("ranks", "the tensor-parallel degree (" + std::to_string(ranks) + ") must divide hidden (" +
                     std::to_string(hidden) + ")");
  return v.errorCount() == before;
}

} // namespace shardlab::quiz
