#include "core/JobConfig.h"

#include "core/Model.h"

#include <cctype>
#include <cmath>
#include <numeric>
#include <set>

namespace shardlab {

std::optional<std::int64_t> parseBytes(const std::string& text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  std::size_t start = i;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == start) return std::nullopt;
  double value = 0;
  try {
    value = std::stod(text.substr(start, i - start));
  } catch (...) {
    return std::nullopt;
  }
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  std::string unit = text.substr(i);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.back()))) unit.pop_back();
  double scale = 1;
  if (unit.empty() || unit == "B") scale = 1;
  else if (unit == "KiB" || unit == "K" || unit == "KB") scale = 1024.0;
  else if (unit == "MiB" || unit == "M" || unit == "MB") scale = 1024.0 * 1024.0;
  else if (unit == "GiB" || unit == "G" || unit == "GB") scale = 1024.0 * 1024.0 * 1024.0;
  else return std::nullopt;
  return static_cast<std::int64_t>(std::llround(value * scale));
}

std::vector<std::string> JobConfig::validate() const {
  std::vector<std::string> e;
  static const std::set<std::string> strategies = {"ddp", "fsdp", "pipeline", "tp"};
  static const std::set<std::string> schedules = {"naive", "gpipe", "1f1b", "interleaved"};
  if (!strategies.count(strategy)) e.push_back("strategy: must be one of ddp, fsdp, pipeline, tp (got '" + strategy + "')");
  if (sharding != "full" && sharding != "grad-op") e.push_back("sharding: must be full or grad-op (got '" + sharding + "')");
  if (ranks < 1 || ranks > 64) e.push_back("ranks: must be between 1 and 64 (got " + std::to_string(ranks) + ")");
  if (layers < 1) e.push_back("layers: must be at least 1 (got " + std::to_string(layers) + ")");
  if (hidden < 1) e.push_back("hidden: must be at least 1 (got " + std::to_string(hidden) + ")");
  if (vocab < 2) e.push_back("vocab: must be at least 2 (got " + std::to_string(vocab) + ")");
  if (batch < 1) e.push_back("batch: must be at least 1 (got " + std::to_string(batch) + ")");
  if (steps < 1) e.push_back("steps: must be at least 1 (got " + std::to_string(steps) + ")");
  if (!(lr > 0) || !std::isfinite(lr)) e.push_back("lr: must be a positive number");
  if (weightDecay < 0) e.push_back("weight_decay: must not be negative");
  if (memoryBudget < 0) e.push_back("memory_budget: must be positive (or 0 for none)");
  if (microbatches < 1) e.push_back("microbatches: must be at least 1 (got " + std::to_string(microbatches) + ")");
  if (virtualStages < 1) e.push_back("virtual_stages: must be at least 1 (got " + std::to_string(virtualStages) + ")");
  if (!schedules.count(schedule)) e.push_back("schedule: must be one of naive, gpipe, 1f1b, interleaved (got '" + schedule + "')");
  if (device != "auto" && device != "cpu" && device != "cuda") e.push_back("device: must be auto, cpu or cuda (got '" + device + "')");
  if (!e.empty()) return e;

  if (strategy == "ddp" || strategy == "fsdp") {
    if (batch % ranks != 0)
      e.push_back("batch: the global batch (" + std::to_string(batch) + ") must be divisible by ranks (" + std::to_string(ranks) + ")");
  }
  if (strategy == "pipeline") {
    const int units = unitCount();
    const bool interleaved = schedule == "interleaved";
    const int chunks = ranks * (interleaved ? virtualStages : 1);
    if (schedule == "naive" && microbatches != 1)
      e.push_back("microbatches: the naive schedule runs the whole batch at once (use 1, or gpipe/1f1b)");
    if (batch % microbatches != 0)
      e.push_back("microbatches: must divide the global batch (" + std::to_string(batch) + " is not divisible by " + std::to_string(microbatches) + ")");
    if (!interleaved && chunks > units)
      e.push_back("ranks: a pipeline of " + std::to_string(chunks) + " stages needs at least as many units, the model has " + std::to_string(units) + " (layers + 2)");
    if (interleaved && virtualStages >= 2 && chunks > units)
      e.push_back("virtual_stages: the interleaved schedule cuts the model into ranks x virtual stages = " + std::to_string(chunks) + " chunks of at least one unit, the model has " + std::to_string(units) + " (layers + 2)");
    if (interleaved && virtualStages < 2)
      e.push_back("virtual_stages: the interleaved schedule needs at least 2 chunks per rank");
    if (interleaved && ranks < 2)
      e.push_back("ranks: the interleaved schedule needs at least 2 ranks (its chunks alternate between ranks)");
    if (!interleaved && virtualStages != 1)
      e.push_back("virtual_stages: only the interleaved schedule uses virtual stages");
    if (interleaved && microbatches % ranks != 0)
      e.push_back("microbatches: the interleaved schedule needs a multiple of the stage count (" + std::to_string(ranks) + "), got " + std::to_string(microbatches));
    if (!stages.empty()) {
      if (static_cast<int>(stages.size()) != chunks)
        e.push_back("stages: expected " + std::to_string(chunks) + " unit counts, one per " + (interleaved ? "chunk (ranks x virtual stages)" : "stage") + ", got " + std::to_string(stages.size()));
      else if (std::accumulate(stages.begin(), stages.end(), 0) != units)
        e.push_back("stages: unit counts must add up to the model's " + std::to_string(units) + " units");
      for (int s : stages)
        if (s < 1) { e.push_back("stages: every stage needs at least one unit"); break; }
    }
  }
  if (strategy == "tp") {
    if (hidden % ranks != 0 || (4 * hidden) % ranks != 0)
      e.push_back("ranks: the tensor-parallel degree (" + std::to_string(ranks) + ") must divide hidden (" + std::to_string(hidden) + ") and 4 x hidden (" + std::to_string(4 * hidden) + ")");
  }
  return e;
}

nlohmann::json JobConfig::toJson() const {
  return {{"strategy", strategy}, {"sharding", sharding}, {"ranks", ranks}, {"layers", layers},
          {"hidden", hidden}, {"vocab", vocab}, {"batch", batch}, {"steps", steps}, {"seed", seed},
          {"lr", lr}, {"weight_decay", weightDecay}, {"prefetch", prefetch}, {"memory_budget", memoryBudget},
          {"microbatches", microbatches}, {"schedule", schedule}, {"virtual_stages", virtualStages},
          {"stages", stages}, {"device", device}, {"trace", trace}};
}

JobConfig JobConfig::fromJson(const nlohmann::json& j, const JobConfig& defaults, std::vector<std::string>& errors) {
  JobConfig c = defaults;
  if (!j.is_object()) {
    errors.push_back("spec: must be a JSON object");
    return c;
  }
  auto getInt = [&](const std::string& key, int& out) {
    if (!j[key].is_number_integer()) errors.push_back(key + ": must be an integer");
    else out = j[key].get<int>();
  };
  auto getString = [&](const std::string& key, std::string& out) {
    if (!j[key].is_string()) errors.push_back(key + ": must be a string");
    else out = j[key].get<std::string>();
  };
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    if (k == "strategy") getString(k, c.strategy);
    else if (k == "sharding") getString(k, c.sharding);
    else if (k == "schedule") getString(k, c.schedule);
    else if (k == "device") getString(k, c.device);
    else if (k == "ranks") getInt(k, c.ranks);
    else if (k == "layers") getInt(k, c.layers);
    else if (k == "hidden") getInt(k, c.hidden);
    else if (k == "vocab") getInt(k, c.vocab);
    else if (k == "batch") getInt(k, c.batch);
    else if (k == "steps") getInt(k, c.steps);
    else if (k == "microbatches") getInt(k, c.microbatches);
    else if (k == "virtual_stages") getInt(k, c.virtualStages);
    else if (k == "seed") {
      if (!it->is_number_unsigned() && !(it->is_number_integer() && it->get<long long>() >= 0)) errors.push_back("seed: must be a non-negative integer");
      else c.seed = it->get<std::uint64_t>();
    } else if (k == "lr" || k == "weight_decay") {
      if (!it->is_number()) errors.push_back(k + ": must be a number");
      else (k == "lr" ? c.lr : c.weightDecay) = it->get<double>();
    } else if (k == "prefetch" || k == "trace") {
      if (!it->is_boolean()) errors.push_back(k + ": must be true or false");
      else (k == "prefetch" ? c.prefetch : c.trace) = it->get<bool>();
    } else if (k == "memory_budget") {
      if (it->is_number_integer()) c.memoryBudget = it->get<std::int64_t>();
      else if (it->is_string()) {
        auto b = parseBytes(it->get<std::string>());
        if (!b) errors.push_back("memory_budget: '" + it->get<std::string>() + "' is not a size (use bytes, KiB, MiB or GiB)");
        else c.memoryBudget = *b;
      } else errors.push_back("memory_budget: must be a size such as 3MiB or a number of bytes");
    } else if (k == "stages") {
      if (!it->is_array()) errors.push_back("stages: must be a list of unit counts");
      else {
        c.stages.clear();
        for (const auto& s : *it) {
          if (!s.is_number_integer()) { errors.push_back("stages: must be a list of integers"); break; }
          c.stages.push_back(s.get<int>());
        }
      }
    } else if (k == "$schema" || k == "comment") {
      // documentation keys
    } else {
      errors.push_back(k + ": unknown key");
    }
  }
  return c;
}

std::vector<std::string> JobConfig::unitNames() const {
  std::vector<std::string> names{"embedding"};
  for (int i = 0; i < layers; ++i) names.push_back("block" + std::to_string(i));
  names.push_back("output");
  return names;
}

std::int64_t JobConfig::parameterCount() const {
  ModelShape s{vocab, hidden, layers};
  std::int64_t n = 0;
  for (int u = 0; u < s.unitCount(); ++u) n += static_cast<std::int64_t>(s.unitSize(u));
  return n;
}

nlohmann::json JobConfig::modelJson() const {
  ModelShape s{vocab, hidden, layers};
  nlohmann::json sizes = nlohmann::json::array();
  for (int u = 0; u < s.unitCount(); ++u) sizes.push_back(s.unitSize(u));
  return {{"units", unitNames()}, {"unit_parameters", sizes}, {"parameters", parameterCount()},
          {"bytes", parameterCount() * 4}, {"vocab", vocab}, {"hidden", hidden}, {"layers", layers},
          {"dtype", "fp32"}, {"optimizer", "AdamW"}};
}

} // namespace shardlab
