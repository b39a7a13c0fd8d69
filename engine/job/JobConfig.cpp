#include "job/JobConfig.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <sstream>

namespace shardlab {

std::optional<std::int64_t> parseBytes(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const std::size_t start = i;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  if (i == start) return std::nullopt;
  double value = 0;
  try {
    std::size_t used = 0;
    const std::string number(text.substr(start, i - start));
    value = std::stod(number, &used);
    if (used != number.size()) return std::nullopt;  // "1.2.3"
  } catch (...) {
    return std::nullopt;
  }
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  std::string_view unit = text.substr(i);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.back()))) unit.remove_suffix(1);
  double scale = 1;
  // The units as the app writes them in each language (QLocale::formattedDataSize):
  // English KiB, French Kio, Russian КиБ; a learner types back what the screen shows.
  auto is = [&](std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), unit) != names.end();
  };
  if (unit.empty() || is({"B", "o", "Б"})) scale = 1;
  else if (is({"KiB", "K", "KB", "Kio", "Ko", "КиБ", "КБ"})) scale = 1024.0;
  else if (is({"MiB", "M", "MB", "Mio", "Mo", "МиБ", "МБ"})) scale = 1024.0 * 1024.0;
  else if (is({"GiB", "G", "GB", "Gio", "Go", "ГиБ", "ГБ"})) scale = 1024.0 * 1024.0 * 1024.0;
  else return std::nullopt;
  const double bytes = value * scale;
  if (!std::isfinite(bytes) || bytes > 9.0e18) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(bytes));
}

std::optional<std::vector<std::string>> hostfileHosts(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  // Non-blocking, and at most 1 MiB: a regular file of /proc (kmsg) could block or never end.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  char buf[8192];
  ssize_t n = 0;
  while (text.size() < (1u << 20) && (n = ::read(fd, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  ::close(fd);
  if (n < 0) return std::nullopt;
  std::vector<std::string> hosts;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string host;
    if (words >> host) hosts.push_back(host);
  }
  return hosts;
}

bool Mesh::has(MeshDim d) const {
  return std::any_of(dims.begin(), dims.end(), [d](const auto& dim) { return dim.first == d; });
}

int Mesh::size(MeshDim d) const {
  for (const auto& [dim, n] : dims)
    if (dim == d) return n;
  return 1;
}

int Mesh::product() const {
  std::int64_t p = 1;
  for (const auto& dim : dims) p = std::min<std::int64_t>(p * dim.second, INT32_MAX);
  return static_cast<int>(p);
}

std::string Mesh::text() const {
  std::string out;
  for (const auto& [dim, n] : dims) out += (out.empty() ? "" : ",") + std::string(name(dim)) + "=" + std::to_string(n);
  return out;
}

int Mesh::coordinate(int rank, MeshDim d) const {
  // The last dimension varies fastest: walk from it, dividing the rank by each size.
  for (auto dim = dims.rbegin(); dim != dims.rend(); ++dim) {
    if (dim->first == d) return rank % dim->second;
    rank /= dim->second;
  }
  return 0;
}

int Mesh::rankAt(int rank, MeshDim d, int coordinateAlong) const {
  int stride = 1;
  for (auto dim = dims.rbegin(); dim != dims.rend(); ++dim) {
    if (dim->first == d) return rank + (coordinateAlong - coordinate(rank, d)) * stride;
    stride *= dim->second;
  }
  return rank;
}

int Mesh::groupColor(int rank, MeshDim d) const { return rankAt(rank, d, 0); }

nlohmann::json Mesh::coordinatesJson(int rank) const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& dim : dims) out[std::string(name(dim.first))] = coordinate(rank, dim.first);
  return out;
}

Mesh parseMesh(std::string_view text, const std::string& field, std::vector<JobIssue>& issues) {
  Mesh mesh;
  const std::string whole(text);
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t comma = text.find(',', at);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view part = text.substr(at, comma - at);
    at = comma + 1;
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == part.size()) {
      issues.push_back({field, JobRule::MeshSyntax, {whole}});
      return {};
    }
    const std::string dimName(part.substr(0, eq)), sizeText(part.substr(eq + 1));
    const auto dim = parseName<MeshDim>(dimName);
    if (!dim) {
      issues.push_back({field, JobRule::MeshUnknownDimension, {dimName}});
      return {};
    }
    if (mesh.has(*dim)) {
      issues.push_back({field, JobRule::MeshRepeatedDimension, {dimName}});
      return {};
    }
    if (sizeText.size() > 6 || !std::all_of(sizeText.begin(), sizeText.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      issues.push_back({field, JobRule::MeshSyntax, {whole}});
      return {};
    }
    mesh.dims.push_back({*dim, std::stoi(sizeText)}); // its bounds: validateSizes()
  }
  if (!text.empty() && text.back() == ',') issues.push_back({field, JobRule::MeshSyntax, {whole}});
  return mesh;
}

bool runsOver(StrategyKind strategy, MeshDim d) {
  switch (strategy) {
  case StrategyKind::Ddp:
  case StrategyKind::Fsdp: return d == MeshDim::Dp;
  case StrategyKind::Tp: return d == MeshDim::Dp || d == MeshDim::Tp;
  case StrategyKind::Pipeline: return d == MeshDim::Dp || d == MeshDim::Pp;
  }
  return false;
}

int JobConfig::degree(MeshDim d) const {
  if (!mesh.empty()) return mesh.size(d);
  switch (strategy) {
  case StrategyKind::Ddp:
  case StrategyKind::Fsdp: return d == MeshDim::Dp ? ranks : 1;
  case StrategyKind::Pipeline: return d == MeshDim::Pp ? ranks : 1;
  case StrategyKind::Tp: return d == MeshDim::Tp ? ranks : 1;
  }
  return 1;
}

namespace {
std::string formatNumber(double v) {
  nlohmann::json j = v;
  return j.dump();
}
} // namespace

std::vector<JobIssue> JobConfig::validateSizes() const {
  std::vector<JobIssue> e;
  auto add = [&](const char* field, JobRule rule, std::vector<std::string> args = {}) {
    e.push_back({field, rule, std::move(args)});
  };
  auto s = [](auto v) { return std::to_string(v); };
  auto atLeast = [&](const char* field, int value, int min) {
    if (value < min) add(field, JobRule::AtLeast, {s(min), s(value)});
  };
  // Above these the unit list, the model's shape (12·hidden² per block, in 64 bits) and
  // the memory estimate stop being small or exact: no real model comes near them, and a
  // job past them is refused here by name rather than by an allocation that never ends.
  auto within = [&](const char* field, int value, int min, int max) {
    if (value < min) add(field, JobRule::AtLeast, {s(min), s(value)});
    else if (value > max) add(field, JobRule::Range, {s(min), s(max), s(value)});
  };
  if (ranks < 1 || ranks > 64) add("ranks", JobRule::Range, {"1", "64", s(ranks)});
  for (const auto& dim : mesh.dims)
    if (dim.second < 1 || dim.second > 64) add("mesh", JobRule::Range, {"1", "64", s(dim.second)});
  // Every rank has coordinates on the mesh only when the sizes multiply to the ranks.
  if (e.empty() && !mesh.empty() && mesh.product() != ranks)
    add("mesh", JobRule::MeshProduct, {s(mesh.product()), s(ranks)});
  within("layers", layers, 1, kMaxLayers);
  within("hidden", hidden, 1, kMaxHidden);
  within("vocab", vocab, 2, kMaxVocab);
  within("batch", batch, 1, kMaxBatch);
  within("heads", heads, 1, kMaxHidden);
  within("seq_len", seqLen, 1, kMaxSeqLen);
  atLeast("steps", steps, 1);
  // AdamW's step is lr times a ratio near 1: a learning rate past 1 (1e308 was accepted)
  // throws the weights away in the first step, and a decay past 1 per step flips their sign.
  if (!(lr > 0) || !std::isfinite(lr)) add("lr", JobRule::Positive);
  else if (lr > 1) add("lr", JobRule::Range, {"0", "1", formatNumber(lr)});
  if (weightDecay < 0) add("weight_decay", JobRule::NotNegative);
  else if (!(weightDecay <= 1)) add("weight_decay", JobRule::Range, {"0", "1", formatNumber(weightDecay)});
  if (memoryBudget < 0) add("memory_budget", JobRule::NotNegative);
  atLeast("microbatches", microbatches, 1);
  atLeast("virtual_stages", virtualStages, 1);
  if (shardGroup < 0) add("shard_group", JobRule::AtLeast, {"1", s(shardGroup)});
  if (limitAllGathers) atLeast("limit_all_gathers", *limitAllGathers, 1);
  atLeast("accumulate", accumulate, 1);
  if (!(collectiveTimeout > 0) || !std::isfinite(collectiveTimeout)) add("collective_timeout", JobRule::Positive);
  if (straggler) {
    if (straggler->rank < 0 || straggler->rank >= ranks)
      add("straggler", JobRule::StragglerRank, {s(straggler->rank), s(ranks - 1)});
    if (!(straggler->factor >= 1.0) || !std::isfinite(straggler->factor))
      add("straggler", JobRule::StragglerFactor, {formatNumber(straggler->factor)});
    if (straggler->fromStep < 0) add("straggler", JobRule::AtLeast, {"0", s(straggler->fromStep)});
  }
  return e;
}

void JobConfig::resetOtherStrategiesOptions() {
  const JobConfig defaults;
  if (strategy != StrategyKind::Pipeline) {
    schedule = defaults.schedule;
    microbatches = defaults.microbatches;
    virtualStages = defaults.virtualStages;
    stages.clear();
  }
  if (strategy != StrategyKind::Fsdp) {
    sharding = defaults.sharding;
    backwardPrefetch = defaults.backwardPrefetch;
    forwardPrefetch = defaults.forwardPrefetch;
    limitAllGathers = defaults.limitAllGathers;
  }
}

std::vector<JobIssue> JobConfig::validate(HostfileCheck hostfileCheck) const {
  std::vector<JobIssue> e = validateSizes();
  auto add = [&](const char* field, JobRule rule, std::vector<std::string> args = {}) {
    e.push_back({field, rule, std::move(args)});
  };
  auto s = [](auto v) { return std::to_string(v); };
  if (!hostfile.empty() && hostfileCheck == HostfileCheck::Read) {
    std::error_code ec;
    const auto hosts = hostfileHosts(hostfile);
    if (!std::filesystem::exists(hostfile, ec)) add("hostfile", JobRule::HostfileMissing, {hostfile});
    else if (!hosts) add("hostfile", JobRule::HostfileUnreadable, {hostfile});
    else if (hosts->empty()) add("hostfile", JobRule::HostfileEmpty, {hostfile});
  }
  if (!e.empty()) return e;  // the rules below divide by these

  // A rule on a parallelism's degree names the option that set it: --ranks without a
  // mesh, --mesh with one.
  const char* degreeField = mesh.empty() ? "ranks" : "mesh";
  const int dp = degree(MeshDim::Dp), pp = degree(MeshDim::Pp), tp = degree(MeshDim::Tp);
  if (!mesh.empty()) {
    for (const MeshDim d : {MeshDim::Dp, MeshDim::Pp, MeshDim::Tp})
      if (mesh.size(d) > 1 && !runsOver(strategy, d))
        add("mesh", JobRule::MeshStrategy, {std::string(name(strategy)), std::string(name(d))});
    // ddp and fsdp keep their own rule on the batch (batch-divisible-by-ranks): dp is every rank.
    if (strategy != StrategyKind::Ddp && strategy != StrategyKind::Fsdp && batch % dp != 0)
      add("mesh", JobRule::DpDividesBatch, {s(batch), s(dp)});
    if (!e.empty()) return e;  // the rules below divide the batch by dp
  }

  if (model == ModelKind::Gpt) {
    if (hidden % heads != 0) add("heads", JobRule::HeadsDivideHidden, {s(heads), s(hidden)});
    if (static_cast<std::int64_t>(batch) * seqLen > kMaxBatch)
      add("seq_len", JobRule::TokensPerBatch, {s(batch), s(seqLen), s(kMaxBatch)});
    if (strategy == StrategyKind::Tp && heads % tp != 0) add(degreeField, JobRule::TpDividesHeads, {s(tp), s(heads)});
    // The GPT's units run under every strategy; the zero-bubble schedules need a
    // unit's backward split into B and W (UnitRunner::backwardInput/backwardWeight),
    // which the GPT's units do not have yet.
    if (strategy == StrategyKind::Pipeline && (schedule == Schedule::ZbH1 || schedule == Schedule::ZbH2))
      add("model", JobRule::GptStrategy, {std::string(name(schedule))});
  }

  if ((strategy == StrategyKind::Ddp || strategy == StrategyKind::Fsdp) && batch % ranks != 0)
    add("batch", JobRule::BatchDivisibleByRanks, {s(batch), s(ranks)});
  if (strategy == StrategyKind::Pipeline) {
    const int units = unitCount();
    const bool interleaved = schedule == Schedule::Interleaved;
    const int chunks = pipelineChunks();
    if (schedule == Schedule::Naive && microbatches != 1) add("microbatches", JobRule::NaiveOneMicrobatch);
    if (dp == 1 && batch % microbatches != 0)
      add("microbatches", JobRule::MicrobatchesDivideBatch, {s(batch), s(microbatches)});
    else if (dp > 1 && (batch / dp) % microbatches != 0)
      add("microbatches", JobRule::MicrobatchesDivideReplicaBatch, {s(batch), s(dp), s(microbatches)});
    if (!interleaved && chunks > units) add(degreeField, JobRule::StagesExceedUnits, {s(chunks), s(units)});
    if (interleaved && virtualStages >= 2 && chunks > units)
      add("virtual_stages", JobRule::ChunksExceedUnits, {s(chunks), s(units)});
    if (interleaved && virtualStages < 2) add("virtual_stages", JobRule::InterleavedNeedsVirtualStages);
    if (interleaved && pp < 2) add(degreeField, JobRule::InterleavedNeedsTwoRanks);
    const bool zeroBubble = schedule == Schedule::ZbH1 || schedule == Schedule::ZbH2;
    if (zeroBubble && pp < 2) add(degreeField, JobRule::ZeroBubbleNeedsTwoRanks, {std::string(name(schedule))});
    if (!interleaved && virtualStages != 1) add("virtual_stages", JobRule::VirtualStagesOnlyInterleaved);
    if (interleaved && microbatches % pp != 0)
      add("microbatches", JobRule::InterleavedMicrobatches, {s(pp), s(microbatches)});
    if (!stages.empty()) {
      if (static_cast<int>(stages.size()) != chunks)
        add("stages", JobRule::StageCountMismatch, {s(chunks), s(stages.size())});
      else if (std::accumulate(stages.begin(), stages.end(), 0) != units)
        add("stages", JobRule::StageUnitsSum, {s(units)});
      for (int st : stages)
        if (st < 1) {
          add("stages", JobRule::StageEmpty);
          break;
        }
    }
  }
  if (strategy == StrategyKind::Fsdp) {
    if (sharding == Sharding::Hybrid && shardGroup == 0) add("shard_group", JobRule::HybridNeedsShardGroup);
    if (sharding == Sharding::Hybrid && shardGroup != 0 && ranks % shardGroup != 0)
      add("shard_group", JobRule::ShardGroupDividesRanks, {s(shardGroup), s(ranks)});
  }
  if (shardGroup != 0 && (strategy != StrategyKind::Fsdp || sharding != Sharding::Hybrid))
    add("shard_group", JobRule::ShardGroupOnlyHybrid);
  // Another strategy's option set away from its default is refused, not ignored: a ddp
  // job given --schedule gpipe --microbatches 4 ran as if they were not there. The same
  // options as resetOtherStrategiesOptions().
  const JobConfig defaults;
  auto onlyUnder = [&](const char* field, StrategyKind owner) {
    add(field, JobRule::OnlyStrategy, {std::string(name(owner)), std::string(name(strategy))});
  };
  if (strategy != StrategyKind::Pipeline) {
    if (schedule != defaults.schedule) onlyUnder("schedule", StrategyKind::Pipeline);
    if (microbatches != defaults.microbatches) onlyUnder("microbatches", StrategyKind::Pipeline);
    if (virtualStages != defaults.virtualStages) onlyUnder("virtual_stages", StrategyKind::Pipeline);
    if (!stages.empty()) onlyUnder("stages", StrategyKind::Pipeline);
  }
  if (strategy != StrategyKind::Fsdp) {
    if (sharding != defaults.sharding) onlyUnder("sharding", StrategyKind::Fsdp);
    if (backwardPrefetch != defaults.backwardPrefetch) onlyUnder("backward_prefetch", StrategyKind::Fsdp);
    if (forwardPrefetch) onlyUnder("forward_prefetch", StrategyKind::Fsdp);
    if (limitAllGathers) onlyUnder("limit_all_gathers", StrategyKind::Fsdp);
  }
  // Activation checkpointing and gradient accumulation live in the data-parallel
  // strategies' step (the pipeline has its own micro-batches).
  const bool dataParallel = strategy == StrategyKind::Ddp || strategy == StrategyKind::Fsdp;
  if (checkpointActivations && !dataParallel)
    add("checkpoint_activations", JobRule::DdpFsdpOnly, {std::string(name(strategy))});
  if (accumulate != 1 && !dataParallel) add("accumulate", JobRule::DdpFsdpOnly, {std::string(name(strategy))});
  else if (dataParallel && accumulate > 1 && batch % (static_cast<std::int64_t>(ranks) * accumulate) != 0)
    add("accumulate", JobRule::AccumulateDividesBatch, {s(batch), s(ranks), s(accumulate)});
  if (noSync && !dataParallel) add("no_sync", JobRule::DdpFsdpOnly, {std::string(name(strategy))});
  else if (noSync && accumulate < 2) add("no_sync", JobRule::NoSyncNeedsAccumulate);
  const bool gathers = strategy == StrategyKind::Fsdp && sharding != Sharding::NoShard && sharding != Sharding::Optimizer;
  if (paramDtype != Dtype::Fp32 && !gathers) add("param_dtype", JobRule::MixedPrecisionSharded, {std::string(name(paramDtype))});
  if (reduceDtype != Dtype::Fp32 && !gathers)
    add("reduce_dtype", JobRule::MixedPrecisionSharded, {std::string(name(reduceDtype))});
  if (strategy == StrategyKind::Tp && (hidden % tp != 0 || (4 * hidden) % tp != 0))
    add(degreeField, JobRule::TpDividesHidden, {s(tp), s(hidden), s(4 * hidden)});
  return e;
}

const std::vector<std::string>& JobConfig::keys() {
  static const std::vector<std::string> k = {
      "strategy", "sharding",      "ranks",        "model",    "layers",   "hidden",         "vocab",
      "batch",    "heads",         "seq_len",      "steps",         "seed",         "lr",       "weight_decay",   "shard_group",
      "backward_prefetch", "forward_prefetch", "limit_all_gathers", "checkpoint_activations", "accumulate", "no_sync", "param_dtype", "reduce_dtype", "memory_budget", "microbatches", "schedule", "virtual_stages", "stages", "device", "trace",
      "collective_timeout", "straggler", "hostfile", "mesh"};
  return k;
}

nlohmann::json JobConfig::toJson() const {
  return {{"strategy", name(strategy)}, {"sharding", name(sharding)}, {"ranks", ranks}, {"model", {{"kind", name(model)}}},
          {"layers", layers}, {"hidden", hidden}, {"vocab", vocab}, {"batch", batch}, {"heads", heads},
          {"seq_len", seqLen}, {"steps", steps}, {"seed", seed},
          {"lr", lr}, {"weight_decay", weightDecay}, {"shard_group", shardGroup},
          {"backward_prefetch", name(backwardPrefetch)}, {"forward_prefetch", forwardPrefetch},
          {"limit_all_gathers", limitAllGathers ? nlohmann::json(*limitAllGathers) : nlohmann::json()},
          {"checkpoint_activations", checkpointActivations}, {"accumulate", accumulate}, {"no_sync", noSync},
          {"param_dtype", name(paramDtype)}, {"reduce_dtype", name(reduceDtype)},
          {"memory_budget", memoryBudget},
          {"microbatches", microbatches}, {"schedule", name(schedule)}, {"virtual_stages", virtualStages},
          {"stages", stages}, {"device", name(device)}, {"trace", trace},
          {"collective_timeout", collectiveTimeout},
          {"straggler", straggler ? nlohmann::json{{"rank", straggler->rank}, {"factor", straggler->factor},
                                                   {"from_step", straggler->fromStep}}
                                  : nlohmann::json()},
          {"hostfile", hostfile}, {"mesh", mesh.text()}};
}

JobConfig JobConfig::fromJson(const nlohmann::json& j, std::vector<JobIssue>& issues, const JobConfig& base,
                              OtherKeys other) {
  JobConfig c = base;
  if (!j.is_object()) {
    issues.push_back({"spec", JobRule::NotAnObject, {}});
    return c;
  }
  auto bad = [&](const std::string& key, JobRule rule, std::vector<std::string> args = {}) {
    issues.push_back({key, rule, std::move(args)});
  };
  auto getInt = [&](const std::string& key, const nlohmann::json& v, int& out) {
    if (!v.is_number_integer()) return bad(key, JobRule::NotAnInteger);
    // An integer past 32 bits (--ranks 2147483648) is an integer: said as out of range.
    const bool fits = v.is_number_unsigned() ? v.get<std::uint64_t>() <= INT32_MAX
                                             : v.get<std::int64_t>() >= INT32_MIN && v.get<std::int64_t>() <= INT32_MAX;
    if (!fits) return bad(key, JobRule::IntegerRange, {std::to_string(INT32_MIN), std::to_string(INT32_MAX), v.dump()});
    out = v.get<int>();
  };
  auto getEnum = [&](const std::string& key, const nlohmann::json& v, auto& out) {
    using E = std::decay_t<decltype(out)>;
    if (!v.is_string()) return bad(key, JobRule::NotAString);
    if (auto e = parseName<E>(v.get<std::string>())) out = *e;
    else bad(key, JobRule::Choice, {nameList<E>(), v.get<std::string>()});
  };
  auto getBool = [&](const std::string& key, const nlohmann::json& v, bool& out) {
    if (!v.is_boolean()) bad(key, JobRule::NotABoolean);
    else out = v.get<bool>();
  };
  auto getDouble = [&](const std::string& key, const nlohmann::json& v, double& out) {
    if (!v.is_number()) bad(key, JobRule::NotANumber);
    else out = v.get<double>();
  };
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    const nlohmann::json& v = *it;
    if (k == "strategy") getEnum(k, v, c.strategy);
    else if (k == "sharding") getEnum(k, v, c.sharding);
    else if (k == "schedule") getEnum(k, v, c.schedule);
    else if (k == "device") getEnum(k, v, c.device);
    else if (k == "model" && v.is_object()) {
      // The model's description: what toJson writes ({"kind": ...}) and, in a trace's
      // job record, the launcher's modelJson (units, parameters, ..., kind). A record
      // written before the GPT existed has no kind: it is the MLP's.
      getEnum(k, v.contains("kind") ? v["kind"] : nlohmann::json("mlp"), c.model);
    } else if (k == "model") getEnum(k, v, c.model); // a spec names it: "mlp", "gpt"
    else if (k == "heads") getInt(k, v, c.heads);
    else if (k == "seq_len") getInt(k, v, c.seqLen);
    else if (k == "ranks") getInt(k, v, c.ranks);
    else if (k == "layers") getInt(k, v, c.layers);
    else if (k == "hidden") getInt(k, v, c.hidden);
    else if (k == "vocab") getInt(k, v, c.vocab);
    else if (k == "batch") getInt(k, v, c.batch);
    else if (k == "steps") getInt(k, v, c.steps);
    else if (k == "microbatches") getInt(k, v, c.microbatches);
    else if (k == "virtual_stages") getInt(k, v, c.virtualStages);
    else if (k == "lr") getDouble(k, v, c.lr);
    else if (k == "weight_decay") getDouble(k, v, c.weightDecay);
    else if (k == "backward_prefetch") getEnum(k, v, c.backwardPrefetch);
    else if (k == "shard_group") getInt(k, v, c.shardGroup);
    else if (k == "forward_prefetch") getBool(k, v, c.forwardPrefetch);
    else if (k == "checkpoint_activations") getBool(k, v, c.checkpointActivations);
    else if (k == "accumulate") getInt(k, v, c.accumulate);
    else if (k == "no_sync") getBool(k, v, c.noSync);
    else if (k == "param_dtype") getEnum(k, v, c.paramDtype);
    else if (k == "reduce_dtype") getEnum(k, v, c.reduceDtype);
    else if (k == "limit_all_gathers") {
      // null: no limit (what toJson writes for none)
      int n = 0;
      const std::size_t before = issues.size();
      if (v.is_null()) c.limitAllGathers.reset();
      else if (getInt(k, v, n); issues.size() == before) c.limitAllGathers = n;
    }
    else if (k == "trace") getBool(k, v, c.trace);
    else if (k == "collective_timeout") getDouble(k, v, c.collectiveTimeout);
    else if (k == "hostfile") {
      if (!v.is_string()) bad(k, JobRule::NotAString);
      else c.hostfile = v.get<std::string>();
    }
    else if (k == "mesh") {
      // "dp=2,tp=2", as --mesh takes it; "": none
      if (!v.is_string()) bad(k, JobRule::NotAString);
      else c.mesh = parseMesh(v.get<std::string>(), k, issues);
    }
    else if (k == "straggler") {
      // null: none; else {"rank": R, "factor": F, "from_step": S} (from_step optional, 0)
      if (v.is_null()) {
        c.straggler.reset();
        continue;
      }
      if (!v.is_object()) {
        bad(k, JobRule::NotAStraggler);
        continue;
      }
      Straggler st;
      bool ok = v.contains("rank") && v.contains("factor");
      for (auto f = v.begin(); ok && f != v.end(); ++f) {
        if (f.key() == "rank" && f->is_number_integer()) st.rank = f->get<int>();
        else if (f.key() == "factor" && f->is_number()) st.factor = f->get<double>();
        else if (f.key() == "from_step" && f->is_number_integer()) st.fromStep = f->get<int>();
        else ok = false;
      }
      if (ok) c.straggler = st;
      else bad(k, JobRule::NotAStraggler);
    }
    else if (k == "seed") {
      if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)) c.seed = v.get<std::uint64_t>();
      else bad(k, JobRule::NotANonNegativeInteger);
    } else if (k == "memory_budget") {
      if (v.is_number_integer()) c.memoryBudget = v.get<std::int64_t>();
      else if (v.is_string()) {
        if (auto b = parseBytes(v.get<std::string>())) c.memoryBudget = *b;
        else bad(k, JobRule::BadSize, {v.get<std::string>()});
      } else bad(k, JobRule::NotASize);
    } else if (k == "stages") {
      if (!v.is_array()) {
        bad(k, JobRule::NotAList);
        continue;
      }
      c.stages.clear();
      for (const auto& st : v) {
        if (!st.is_number_integer()) {
          bad(k, JobRule::NotAList);
          break;
        }
        c.stages.push_back(st.get<int>());
      }
    } else if (k == "$schema" || k == "comment") {
      // documentation keys
    } else if (other == OtherKeys::Refuse) {
      bad(k, JobRule::UnknownKey);
    }
  }
  return c;
}

int JobConfig::shardDegree() const {
  switch (sharding) {
  case Sharding::NoShard: return 1;
  case Sharding::Hybrid: return shardGroup > 0 ? shardGroup : ranks;
  default: return ranks;
  }
}

std::vector<std::string> JobConfig::unitNames() const {
  std::vector<std::string> names{"embedding"};  // gpt too: its blocks are transformer blocks
  for (int i = 0; i < layers; ++i) names.push_back("block" + std::to_string(i));
  names.push_back("output");
  return names;
}

std::int64_t JobConfig::parameterCount() const {
  const ModelShape s = shape();
  std::int64_t n = 0;
  for (int u = 0; u < s.unitCount(); ++u) n += static_cast<std::int64_t>(s.unitSize(u));
  return n;
}

nlohmann::json JobConfig::modelJson() const {
  const ModelShape s = shape();
  nlohmann::json sizes = nlohmann::json::array();
  for (int u = 0; u < s.unitCount(); ++u) sizes.push_back(s.unitSize(u));
  return {{"units", unitNames()}, {"unit_parameters", sizes}, {"parameters", parameterCount()},
          {"bytes", parameterCount() * 4}, {"vocab", vocab}, {"hidden", hidden}, {"layers", layers},
          {"dtype", "fp32"}, {"optimizer", "AdamW"}, {"kind", name(model)}};
}

} // namespace shardlab
