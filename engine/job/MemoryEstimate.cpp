#include "job/MemoryEstimate.h"

#include "job/JobConfig.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace shardlab {
namespace {

constexpr double kFloat = 4.0;

// Floats the forward saves for n rows (tokens; a GPT's sequences) through `units` consecutive units starting
// at `first`, plus the largest backward temporaries of one unit (UnitRunner: a block
// saves a, h (n x F each) and y (n x H); the output keeps logits and their gradient).
// The GPT's units (core/Gpt.h, strategies/GptUnits.cpp) for n sequences of seqLen tokens.
double gptActivationFloats(const ModelShape& s, double n, int first, int count, int inner) {
  const double H = s.hidden, V = s.vocab, F = inner > 0 ? inner : 4.0 * s.hidden;
  // A tensor-parallel rank (inner F = 4H / t) holds 1/t of the heads: A = H / t of Q's
  // (K's, V's) columns and heads / t score matrices per sequence.
  const double A = F / 4.0, share = F / (4.0 * s.hidden);
  const double T = n * s.seqLen, scores = n * s.heads * share * static_cast<double>(s.seqLen) * s.seqLen;
  double saved = 0, temporaries = 0;
  for (int u = first; u < first + count; ++u) {
    switch (s.kindOf(u)) {
    case UnitKind::Embedding: saved += T * H + 2 * T; break; // output, tokens and targets
    case UnitKind::Block:
      // GptBlockSaved (two LayerNorms with their row statistics, qkv, the attention
      // probabilities, the heads' outputs, x1, a and h) and the output y.
      saved += 2 * (T * H + 2 * T) + 3 * T * A + scores + T * A + T * H + 2 * T * F + T * H;
      temporaries = std::max(temporaries, 3 * T * A + scores + T * A + 2 * T * H + T * F + T * H); // scratch and dx
      break;
    case UnitKind::Output:
      saved += T * H + 2 * T + 2 * T * V; // LNf's output and statistics, logits and their gradient
      temporaries = std::max(temporaries, 2 * T * H);
      break;
    }
  }
  return saved + temporaries;
}

double activationFloats(const ModelShape& s, double n, int first, int count, int inner) {
  if (s.gpt) return gptActivationFloats(s, n, first, count, inner);
  const double H = s.hidden, V = s.vocab, F = inner > 0 ? inner : 4.0 * s.hidden;
  double saved = 0, temporaries = 0;
  for (int u = first; u < first + count; ++u) {
    switch (s.kindOf(u)) {
    case UnitKind::Embedding: saved += n * H + 2 * n; break; // output, tokens and targets
    case UnitKind::Block:
      saved += n * (2 * F + H);
      temporaries = std::max(temporaries, n * (F + H));
      break;
    case UnitKind::Output:
      saved += 2 * n * V;
      temporaries = std::max(temporaries, n * H);
      break;
    }
  }
  return saved + temporaries;
}

// Parameters of units [first, first + count): closed form, since a model can have
// 100 000 blocks.
double unitsParameters(const ModelShape& s, int first, int count) {
  double n = 0;
  const int last = first + count - 1;
  const double block = static_cast<double>(s.unitSize(1)); // layers >= 1
  int blocks = count;
  if (first == 0) {
    n += static_cast<double>(s.unitSize(0));
    --blocks;
  }
  if (last == s.layers + 1) {
    n += static_cast<double>(s.unitSize(s.layers + 1));
    --blocks;
  }
  return n + std::max(0, blocks) * block;
}

} // namespace

std::string formatEstimate(double bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (std::fabs(bytes) >= 1024.0 && u < 6) {
    bytes /= 1024.0;
    ++u;
  }
  char buf[32];
  if (u == 0) std::snprintf(buf, sizeof buf, "%.0f B", bytes);
  else std::snprintf(buf, sizeof buf, bytes >= 100 ? "%.0f %s" : bytes >= 10 ? "%.1f %s" : "%.2f %s", bytes, units[u]);
  return buf;
}

std::string MemoryEstimate::breakdown() const {
  std::string out = "parameters " + formatEstimate(parameters) + ", gradients " + formatEstimate(gradients) +
                    ", optimizer " + formatEstimate(optimizer);
  if (gathered > 0) out += ", gathered parameters " + formatEstimate(gathered);
  if (reducing > 0) out += ", gradients being reduced " + formatEstimate(reducing);
  return out + ", activations " + formatEstimate(activations);
}

MemoryEstimate estimateRankMemory(const JobConfig& job) {
  const ModelShape s = job.shape();
  const int U = s.unitCount();
  const double ranks = std::max(1, job.ranks);
  MemoryEstimate e;
  double largestUnit = 0;
  for (int u : {0, 1, U - 1}) largestUnit = std::max(largestUnit, static_cast<double>(s.unitSize(u)));

  switch (job.strategy) {
  case StrategyKind::Ddp: {
    const double p = unitsParameters(s, 0, U);
    e.parameters = e.gradients = p * kFloat;
    e.optimizer = 2 * p * kFloat;
    e.activations = activationFloats(s, job.batch / ranks, 0, U, 0) * kFloat;
    break;
  }
  case StrategyKind::Fsdp: {
    const int D = job.shardDegree();
    // Each unit is padded to a multiple of D: shard = ceil(n / D).
    auto shard = [&](double n) { return std::ceil(n / D); };
    const double blockShard = s.layers >= 1 ? shard(static_cast<double>(s.unitSize(1))) : 0;
    const double shards = shard(static_cast<double>(s.unitSize(0))) + s.layers * blockShard +
                          shard(static_cast<double>(s.unitSize(U - 1)));
    const bool replicated = job.sharding == Sharding::NoShard || job.sharding == Sharding::Optimizer;
    e.optimizer = 2 * shards * kFloat;
    if (replicated) {
      e.parameters = e.gradients = shards * D * kFloat;
      if (job.sharding == Sharding::Optimizer) e.reducing = shard(largestUnit) * kFloat; // a unit's reduced slice
    } else {
      e.parameters = shards * kFloat;
      e.gradients = shards * kFloat;
      // Full gradients: a unit's, reduce-scattered while the next unit's backward makes its own.
      e.reducing = 2 * shard(largestUnit) * D * kFloat;
      const double held = job.sharding == Sharding::GradOp ? shards * D
                          : (job.prefetches() ? 2 : 1) * shard(largestUnit) * D;
      e.gathered = held * kFloat;
    }
    e.activations = activationFloats(s, job.batch / ranks, 0, U, 0) * kFloat;
    break;
  }
  case StrategyKind::Pipeline: {
    // The busiest rank: its chunks' units (the stages given, else an even split). On a
    // mesh each of dp replicas is a pipeline of pp stages on batch / dp rows.
    const int stages = job.degree(MeshDim::Pp);
    double p = 0;
    int unitsHeld = 0;
    if (!job.stages.empty() && static_cast<int>(job.stages.size()) == job.pipelineChunks()) {
      for (int r = 0; r < stages; ++r) {
        double rp = 0;
        int held = 0;
        for (int c = 0, first = 0; c < static_cast<int>(job.stages.size()); first += job.stages[static_cast<std::size_t>(c)], ++c)
          if (c % stages == r) {
            rp += unitsParameters(s, first, job.stages[static_cast<std::size_t>(c)]);
            held += job.stages[static_cast<std::size_t>(c)];
          }
        if (rp > p) {
          p = rp;
          unitsHeld = held;
        }
      }
    } else {
      p = std::max(largestUnit, unitsParameters(s, 0, U) / stages);
      unitsHeld = std::max(1, U / stages);
    }
    e.parameters = e.gradients = p * kFloat;
    e.optimizer = 2 * p * kFloat;
    // In flight at once: every micro-batch under GPipe (and naive), up to a stage count under
    // 1F1B and ZB-H1, up to 2p - 1 under ZB-H2 (its longer warm-up and waiting W's).
    const double micro = static_cast<double>(job.batch) / job.degree(MeshDim::Dp) / std::max(1, job.microbatches);
    const double inFlight = job.schedule == Schedule::GPipe || job.schedule == Schedule::Naive
                                ? job.microbatches
                            : job.schedule == Schedule::ZbH2
                                ? std::min<double>(job.microbatches, 2 * stages - 1)
                                : std::min<double>(job.microbatches, job.pipelineChunks());
    e.activations = inFlight * activationFloats(s, micro, 1, std::min(unitsHeld, s.layers), 0) * kFloat;
    break;
  }
  case StrategyKind::Tp: {
    // On a mesh: a slice of 1 / tp, on each replica's batch / dp rows.
    const int inner = 4 * s.hidden / std::max(1, job.degree(MeshDim::Tp));
    const double p = static_cast<double>(s.unitSize(0)) + s.layers * static_cast<double>(s.unitSize(1, inner)) +
                     static_cast<double>(s.unitSize(U - 1));
    e.parameters = e.gradients = p * kFloat;
    e.optimizer = 2 * p * kFloat;
    e.activations = activationFloats(s, static_cast<double>(job.batch) / job.degree(MeshDim::Dp), 0, U, inner) * kFloat;
    break;
  }
  }
  return e;
}

int maxLocalRanks(int cores) { return std::max(8, 4 * std::max(1, cores)); }

std::optional<std::string> preflightRefusal(const JobConfig& job, const PreflightHost& host) {
  if (!host.hostfile && job.ranks > maxLocalRanks(host.cores))
    return std::to_string(job.ranks) + " ranks on one machine with " + std::to_string(host.cores) +
           (host.cores == 1 ? " core" : " cores") + " is more than the " + std::to_string(maxLocalRanks(host.cores)) +
           " this launcher allows (4 per core, at least 8); use --hostfile to spread them over machines; --force "
           "skips this check";
  if (host.availableBytes <= 0) return std::nullopt;
  const MemoryEstimate e = estimateRankMemory(job);
  const int here = host.hostfile ? 1 : job.ranks;
  const double needed = e.total() * here;
  if (needed <= static_cast<double>(host.availableBytes)) return std::nullopt;
  std::string why = "the job needs about " + formatEstimate(e.total()) + " per rank (" + e.breakdown() + ")";
  if (here > 1) why += ", " + formatEstimate(needed) + " for its " + std::to_string(here) + " ranks";
  why += "; this machine has " + formatEstimate(static_cast<double>(host.availableBytes)) + " free";
  if (job.memoryBudget > 0)
    why += "; the --memory-budget of " + formatEstimate(static_cast<double>(job.memoryBudget)) +
           " only simulates a smaller device: the ranks still allocate what they hold in this machine's memory";
  else
    why += "; --memory-budget simulates a smaller device";
  return why + "; --force skips this check";
}

std::optional<std::string> gpuPreflightRefusal(const JobConfig& job, const std::vector<GpuMemory>& gpus,
                                               bool hostfile) {
  if (gpus.empty()) return std::nullopt;
  const MemoryEstimate e = estimateRankMemory(job);
  const auto n = static_cast<int>(gpus.size());
  for (int g = 0; g < n; ++g) {
    // Ranks g, g + n, g + 2n, ... of this machine share GPU g.
    const int ranksHere = hostfile ? 1 : (job.ranks - g + n - 1) / n;
    if (ranksHere <= 0) continue;
    const GpuMemory& gpu = gpus[static_cast<std::size_t>(g)];
    const double needed = e.total() * ranksHere;
    if (needed <= static_cast<double>(gpu.freeBytes)) continue;
    std::string why = "the job needs about " + formatEstimate(e.total()) + " per rank (" + e.breakdown() + ")";
    if (ranksHere > 1) why += ", " + formatEstimate(needed) + " for the " + std::to_string(ranksHere) + " ranks";
    else why += " for the rank";
    why += " on GPU " + std::to_string(gpu.index) + (gpu.name.empty() ? "" : " (" + gpu.name + ")") + ", which has " +
           formatEstimate(static_cast<double>(gpu.freeBytes)) + " free of " +
           formatEstimate(static_cast<double>(gpu.totalBytes));
    if (job.memoryBudget > 0)
      why += "; the --memory-budget of " + formatEstimate(static_cast<double>(job.memoryBudget)) +
             " only simulates a smaller device: the ranks still allocate what they hold on the GPU";
    else
      why += "; --memory-budget simulates a smaller device";
    return why + "; --force skips this check";
  }
  return std::nullopt;
}

} // namespace shardlab
