#include "quiz/bank/LessonSizing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace shardlab::quiz {

namespace {

constexpr double kStartSeconds = 0.8;  // mpirun, MPI_Init and the clock agreement, before step 0
constexpr double kBytesPerFloat = 4;

// Forward flops of one residual MLP block (H -> 4H -> H) on `rows` tokens.
double blockForwardFlops(double rows, double hidden) { return 16.0 * rows * hidden * hidden; }
double blockBytes(double hidden) { return kBytesPerFloat * (8.0 * hidden * hidden + 5.0 * hidden); }

// Ranks that share a core run at 1/oversubscription of its speed.
double oversubscription(const JobConfig& job, const Calibration& machine) {
  const int slots = machine.gpus > 0 && job.device != DeviceKind::Cpu ? machine.gpus : machine.cores;
  return std::max(1.0, static_cast<double>(job.ranks) / slots);
}

double seconds(double flops, const JobConfig& job, const Calibration& machine) {
  return flops / machine.gemmFlopsPerSecond * oversubscription(job, machine);
}

// A ring collective over `bytes`: each rank sends `factor` × bytes × (N−1)/N.
double collectiveSeconds(double bytes, double factor, int ranks, const Calibration& machine) {
  if (ranks < 2) return 0;
  return machine.handoffLatencySeconds + factor * bytes * (ranks - 1) / ranks / machine.collectiveBytesPerSecond;
}

bool applies(std::string_view ratio, const JobConfig& job) {
  if (ratio == "stage_compute_per_handoff") return job.strategy == StrategyKind::Pipeline;
  if (ratio == "unit_compute_per_all_gather") return job.strategy == StrategyKind::Fsdp;
  if (ratio == "unit_compute_per_all_reduce") return job.strategy == StrategyKind::Ddp;
  return ratio == "cores_per_rank";
}

JobSpec resized(const JobSpec& spec, int ranks, int hidden, int batch) {
  return spec.withSettings({{"ranks", ranks}, {"hidden", hidden}, {"batch", batch}});
}

} // namespace

const std::vector<std::string>& knownSizingRatios() {
  static const std::vector<std::string> ids{"stage_compute_per_handoff", "unit_compute_per_all_gather",
                                            "unit_compute_per_all_reduce", "cores_per_rank"};
  return ids;
}

double estimateRatio(std::string_view ratio, const JobConfig& job, const Calibration& machine) {
  const double hidden = job.hidden;
  if (ratio == "stage_compute_per_handoff") {
    const double rows = static_cast<double>(job.batch) / job.microbatches;
    const double blocksPerStage = static_cast<double>(job.layers) / job.pipelineChunks();
    // A hand-off on the critical path: the sender's and the receiver's wake-ups and the
    // micro-batch's activations on the wire. Counting the wake-ups alone let a small hidden
    // size through whose hand-offs took 0.15 of the stage time on 2 cores.
    const double handoff = 2 * machine.handoffLatencySeconds + kBytesPerFloat * rows * hidden / machine.collectiveBytesPerSecond;
    return seconds(blockForwardFlops(rows, hidden) * blocksPerStage, job, machine) / handoff;
  }
  if (ratio == "unit_compute_per_all_gather") {
    const double rows = static_cast<double>(job.batch) / job.ranks;
    return seconds(blockForwardFlops(rows, hidden), job, machine) /
           collectiveSeconds(blockBytes(hidden), 1, job.ranks, machine);
  }
  if (ratio == "unit_compute_per_all_reduce") {
    const double rows = static_cast<double>(job.batch) / job.ranks;
    return seconds(2 * blockForwardFlops(rows, hidden), job, machine) /
           collectiveSeconds(blockBytes(hidden), 2, job.ranks, machine);
  }
  if (ratio == "cores_per_rank") {
    const int slots = machine.gpus > 0 && job.device != DeviceKind::Cpu ? machine.gpus : machine.cores;
    return static_cast<double>(slots) / job.ranks;
  }
  return 0;
}

double estimateSeconds(const JobConfig& job, const Calibration& machine) {
  const double hidden = job.hidden, layers = job.layers, batch = job.batch;
  const double outputFlops = 2.0 * batch * hidden * job.vocab;
  const double modelBytes = static_cast<double>(job.parameterCount()) * kBytesPerFloat;
  double step = 0;
  switch (job.strategy) {
  case StrategyKind::Ddp:
  case StrategyKind::Fsdp:
  case StrategyKind::Tp: {
    const double rows = job.strategy == StrategyKind::Tp ? batch : batch / job.ranks;
    const double share = job.strategy == StrategyKind::Tp ? 1.0 / job.ranks : 1.0;
    const double compute = 3 * (blockForwardFlops(rows, hidden) * layers * share + outputFlops * rows / batch);
    const double factor = job.strategy == StrategyKind::Ddp ? 2 : job.strategy == StrategyKind::Fsdp ? 3 : 0;
    double comm = collectiveSeconds(modelBytes, factor, job.ranks, machine);
    if (job.strategy == StrategyKind::Tp)
      comm = 4 * layers * collectiveSeconds(kBytesPerFloat * batch * hidden, 2, job.ranks, machine);
    step = seconds(compute, job, machine) + comm;
    break;
  }
  case StrategyKind::Pipeline: {
    const double m = job.microbatches, p = job.pipelineChunks();
    const double perMicroStage = seconds(3 * blockForwardFlops(batch / m, hidden) * layers / p, job, machine);
    step = (m + p - 1) * (perMicroStage + 2 * machine.handoffLatencySeconds) +
           seconds(3 * outputFlops, job, machine);
    break;
  }
  }
  return kStartSeconds + job.steps * step;
}

std::vector<ConditionEstimate> LessonSize::failed() const {
  std::vector<ConditionEstimate> out;
  for (const auto& c : conditions)
    if (!c.met()) out.push_back(c);
  return out;
}

LessonSize sizeLesson(const std::vector<JobSpec>& runs, const LessonSizingRule& rule, const Calibration& machine) {
  const JobConfig first = runs.front().config();
  int lessonRanks = first.ranks;
  int lessonBatch = first.batch;
  int units = first.unitCount();
  for (const auto& r : runs) {
    const JobConfig c = r.config();
    lessonRanks = std::max(lessonRanks, c.ranks);
    lessonBatch = std::max(lessonBatch, c.batch);
    units = std::min(units, c.unitCount());
  }
  const std::vector<int> hiddens{64, 96, 128, 192, 256, 384, 512, 768, 1024};
  constexpr double kShareOfBudget = 0.3; // see below

  // The closest size when none meets every condition within the budget: within the budget
  // first, then the fewest failed conditions, then the highest lowest estimated/needed
  // ratio (past the budget: the fastest), then the nearest to kShareOfBudget.
  std::optional<LessonSize> best;
  auto closeness = [](const LessonSize& size) {
    double score = std::numeric_limits<double>::infinity();
    for (const auto& c : size.conditions) score = std::min(score, c.estimated / c.condition.atLeast);
    return std::make_tuple(size.withinBudget(), -static_cast<int>(size.failed().size()),
                           size.withinBudget() ? score : -size.estimatedSeconds,
                           -std::abs(size.estimatedSeconds - kShareOfBudget * size.budgetSeconds));
  };
  // Among the sizes that meet every condition with the most ranks, the largest whose
  // estimate stays within kShareOfBudget of the budget: the smallest that meets them
  // leaves ops of tens of microseconds, whose jitter from run to run (thread wake-ups,
  // cache) is as large as the effect a lesson shows (docs/performance.md, "Lessons
  // sized for this machine"); the rest of the budget is kept for a slower machine than
  // the calibration saw.
  std::optional<LessonSize> chosen;
  for (int ranks = lessonRanks; ranks >= std::min(2, lessonRanks); --ranks) {
    if (chosen) return *chosen;
    for (int hidden : hiddens) {
      for (int scale = 1; scale <= 32; scale *= 2) {
        const int batch = lessonBatch * scale;
        LessonSize size;
        size.ranks = ranks;
        size.hidden = hidden;
        size.batch = batch;
        size.lessonRanks = lessonRanks;
        size.budgetSeconds = rule.budgetSeconds;
        for (const auto& c : rule.conditions) size.conditions.push_back({c, std::numeric_limits<double>::infinity()});
        bool valid = true;
        for (const auto& r : runs) {
          JobSpec spec = resized(r, ranks, hidden, batch);
          const JobConfig job = spec.config();
          if (!job.validate().empty() || job.pipelineChunks() > units) {
            valid = false;
            break;
          }
          for (auto& c : size.conditions)
            if (applies(c.condition.ratio, job))
              c.estimated = std::min(c.estimated, estimateRatio(c.condition.ratio, job, machine));
          size.estimatedSeconds = std::max(size.estimatedSeconds, estimateSeconds(job, machine));
          size.runs.push_back(std::move(spec));
        }
        if (!valid) continue;
        if (size.failed().empty() && size.withinBudget()) {
          const double target = kShareOfBudget * size.budgetSeconds;
          const bool better = !chosen || (size.estimatedSeconds <= target
                                              ? chosen->estimatedSeconds > target || size.estimatedSeconds > chosen->estimatedSeconds
                                              : chosen->estimatedSeconds > target && size.estimatedSeconds < chosen->estimatedSeconds);
          if (better) chosen = size;
          continue;
        }
        if (!best || closeness(size) > closeness(*best)) best = std::move(size);
      }
    }
  }
  if (chosen) return *chosen;
  return best.value_or(LessonSize{});
}

} // namespace shardlab::quiz
