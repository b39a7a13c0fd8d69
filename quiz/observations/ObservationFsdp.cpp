// Observation templates about FSDP and DDP communication: collective-count,
// gather-free-sequence, overlap-fraction, gathered-peak (prefetch modes and
// limit_all_gathers); activation checkpointing's forwards-per-step; gradient
// accumulation's reductions-per-step (with and without no_sync).
#include "quiz/observations/ObservationSupport.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace shardlab::quiz::observation {
namespace {

// A count question's choices: the reason given for the count the trace shows is the
// correct one (or the bare count when no reason has it), the other reasons are wrong.
void chooseByCount(Draft& d, const std::map<std::int64_t, LocalizedText>& reasons, std::int64_t actual) {
  if (const auto it = reasons.find(actual); it != reasons.end())
    d.correct = it->second;
  else
    d.correct = text::message("collective-count.answer-from-trace", {{"count", std::to_string(actual)}});
  for (const auto& [count, reason] : reasons)
    if (count != actual) d.wrong.push_back(reason);
}

// How many all-gathers (FSDP) or all-reduces (DDP) one rank issued per step, and why.
class CollectiveCount final : public ObservationTemplate {
public:
  std::string id() const override { return "collective-count"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    const auto strategy = strategyOf(in.trace);
    const bool fsdp = strategy == StrategyKind::Fsdp;
    if (!fsdp && strategy != StrategyKind::Ddp) return std::nullopt;
    // The reasons below count one micro-step per step: with gradient accumulation the
    // count depends on no_sync as well, and "one per unit" would be marked wrong.
    if (in.trace.config()->accumulate > 1) return std::nullopt;
    // The reasons below explain gathering parameters per unit for compute (full, grad-op,
    // hybrid); no-shard gathers nothing and optimizer (ZeRO-1) gathers after the update.
    if (fsdp) {
      const auto sharding = in.trace.config()->sharding; // an fsdp run has a job record
      if (sharding == Sharding::NoShard || sharding == Sharding::Optimizer) return std::nullopt;
    }
    const auto it = in.summary.collectives.find(fsdp ? "all_gather" : "all_reduce");
    if (it == in.summary.collectives.end() || it->second.count <= 0 || in.summary.stepsCompleted <= 0) return std::nullopt;
    if (in.summary.steps != in.summary.stepsCompleted) return std::nullopt; // a partial run counts partial steps
    if (it->second.count % in.summary.stepsCompleted != 0) return std::nullopt;
    const std::int64_t perStep = it->second.count / in.summary.stepsCompleted;
    const auto units = static_cast<std::int64_t>(in.trace.units.size());
    if (units <= 0) return std::nullopt;
    const auto n = std::to_string(in.summary.ranks), u = std::to_string(units);

    // Each candidate count with the reason a learner might give for it.
    std::map<std::int64_t, LocalizedText> reasons;
    if (fsdp) {
      reasons[2 * units] =
          text::message("collective-count.fsdp-gathered-twice", {{"count", std::to_string(2 * units)}, {"units", u}});
      reasons[units] = text::message("collective-count.fsdp-gathered-once", {{"units", u}});
      reasons[1] = text::message("collective-count.fsdp-whole-model");
      reasons[3 * units] = text::message("collective-count.fsdp-three-times", {{"count", std::to_string(3 * units)}});
      // Only when no reason above already has that count (8 ranks, 2 layers: 8 = 2 × 4 units).
      reasons.try_emplace(in.summary.ranks, text::message("collective-count.fsdp-one-per-rank", {{"ranks", n}}));
    } else {
      reasons[units] = text::message("collective-count.ddp-one-per-unit", {{"units", u}});
      reasons[2 * units] = text::message("collective-count.ddp-two-per-unit", {{"count", std::to_string(2 * units)}});
      reasons[1] = text::message("collective-count.ddp-one-call");
      reasons[0] = text::message("collective-count.ddp-none");
    }
    Draft d;
    d.templateId = id();
    d.lesson = fsdp ? "fsdp-shard-gather-free" : "ddp-replicas";
    d.moment = fsdp ? "first_all_gather" : "first_all_reduce";
    // An imported FSDP2 trace names no sharding strategy: the API it called, fully_shard.
    const std::string sharding = in.trace.job && in.trace.job->imported ? std::string("fully_shard")
                                                                       : std::string(name(in.trace.config()->sharding));
    d.text = fsdp
                 ? text::message("collective-count.fsdp-question", {{"ranks", n}, {"units", u}, {"sharding", sharding}})
                 : text::message("collective-count.ddp-question", {{"ranks", n}, {"units", u}});
    chooseByCount(d, reasons, perStep);
    const std::string total = std::to_string(it->second.count), steps = std::to_string(in.summary.stepsCompleted);
    d.explanation =
        fsdp ? text::message("collective-count.fsdp-explanation",
                             {{"total", total}, {"steps", steps}, {"per_step", std::to_string(perStep)}, {"units", u}})
             : text::message("collective-count.ddp-explanation",
                             {{"total", total}, {"steps", steps}, {"per_step", std::to_string(perStep)}, {"units", u}});
    d.numeric = NumericAnswer{static_cast<double>(perStep), 0.0, "count"};
    return finish(std::move(d), in);
  }
};

// At the end of rank 0's first all-gather of a block: which ranks held that
// block's full parameters? (All of them: each gathered it, and frees it after use.)
class GatherFreeSequence final : public ObservationTemplate {
public:
  std::string id() const override { return "gather-free-sequence"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (strategyOf(in.trace) != StrategyKind::Fsdp) return std::nullopt;
    const auto moment = findMoment(in.trace, in.summary, "first_all_gather");
    if (!moment) return std::nullopt;
    const auto& ag = in.trace.events[moment->eventIndex];
    const int ranks = in.trace.rankCount();
    if (ranks < 2) return std::nullopt;
    // Each rank's own call of that all-gather (same unit, same step, its first), and
    // its gathered-parameter records of that unit replayed up to the end of that call.
    std::vector<std::int64_t> callEnd(static_cast<std::size_t>(ranks), -1);
    for (const auto& e : in.trace.events)
      if (e.record == trace::Record::Collective && e.kind == trace::Kind::AllGather && e.unit == ag.unit &&
          e.step == ag.step && e.rank >= 0 && e.rank < ranks) {
        auto& end = callEnd[static_cast<std::size_t>(e.rank)];
        if (end < 0 || e.t1 < end) end = e.t1;
      }
    std::vector<std::int64_t> held(static_cast<std::size_t>(ranks), 0);
    for (const auto& e : in.trace.events)
      if (e.record == trace::Record::Memory && e.category == trace::Category::GatheredParams && e.unit == ag.unit &&
          e.rank >= 0 && e.rank < ranks && e.t0 <= callEnd[static_cast<std::size_t>(e.rank)])
        held[static_cast<std::size_t>(e.rank)] += e.bytes;
    std::vector<int> holders, all;
    for (int r = 0; r < ranks; ++r) {
      all.push_back(r);
      if (held[static_cast<std::size_t>(r)] >= ag.bytes) holders.push_back(r);
    }
    const std::string unit = moment->unitName, n = std::to_string(ranks);
    const int owner = ag.unit % ranks;
    auto set = [&](const std::vector<int>& rs) {
      return rs.empty() ? text::message("gather-free-sequence.no-rank") : same(text::rankList(rs));
    };
    std::vector<std::pair<std::vector<int>, LocalizedText>> options{
        {all, text::message("gather-free-sequence.every-rank", {{"rank_list", text::rankList(all)}})},
        {{ag.rank}, text::message("gather-free-sequence.only-the-caller", {{"rank", std::to_string(ag.rank)}})},
        {{owner},
         text::message("gather-free-sequence.only-the-owner", {{"owner", std::to_string(owner)}, {"unit", unit}})},
        {{}, text::message("gather-free-sequence.none-shards-only", {{"ranks", n}})}};
    Draft d;
    d.templateId = id();
    d.lesson = "fsdp-shard-gather-free";
    d.moment = "first_all_gather";
    d.text = text::message(
        "gather-free-sequence.question",
        {{"rank", std::to_string(ag.rank)}, {"unit", unit}, {"at", text::ms(ag.t0 - traceOrigin(in.trace))}});
    bool matched = false;
    std::vector<std::vector<int>> seen; // one choice per set of ranks, so no wrong choice is also right
    for (auto& [rs, label] : options) {
      if (std::find(seen.begin(), seen.end(), rs) != seen.end()) continue;
      seen.push_back(rs);
      if (rs == holders) {
        d.correct = label;
        matched = true;
      } else {
        d.wrong.push_back(label);
      }
    }
    if (!matched) {
      d.correct = text::message("gather-free-sequence.rank-set", {{"holders", set(holders)}});
    }
    const auto freed = findMoment(in.trace, in.summary, "gathered_freed");
    d.explanation =
        text::message("gather-free-sequence.explanation", {{"at", same(text::ms(ag.t1 - traceOrigin(in.trace)))},
                                                           {"holders", set(holders)},
                                                           {"bytes", same(text::bytes(ag.bytes))},
                                                           {"unit", same(unit)},
                                                           {"rank", same(std::to_string(ag.rank))}});
    if (freed) {
      for (const auto& lang : {"en", "fr", "ru"})
        d.explanation.set(lang, d.explanation.get(lang) + " " + freed->sentence.get(lang));
    }
    return finish(std::move(d), in);
  }
};

// How much of rank 0's communication time compute hid (prefetch).
class OverlapFraction final : public ObservationTemplate {
public:
  std::string id() const override { return "overlap-fraction"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (strategyOf(in.trace) != StrategyKind::Fsdp || in.summary.ranksDetail.empty()) return std::nullopt;
    const auto& r = in.summary.ranksDetail.front();
    if (r.commS <= 0) return std::nullopt;
    const double hidden = std::clamp(1.0 - r.exposedCommS / r.commS, 0.0, 1.0);
    const bool prefetch = in.trace.config()->prefetches();  // an fsdp run has a job record
    Draft d;
    d.templateId = id();
    d.lesson = "fsdp-prefetch";
    d.moment = "prefetch_overlap";
    // An imported trace's job record does not say whether it prefetched (its options keep their defaults).
    const bool imported = in.trace.job && in.trace.job->imported;
    d.text = imported ? text::message("overlap-fraction.question-imported", {{"rank", same(std::to_string(r.rank))},
                                                                            {"comm_s", same(text::fixed(r.commS, 4))}})
                      : text::message("overlap-fraction.question", {{"prefetch", prefetch ? text::message("overlap-fraction.on")
                                                                               : text::message("overlap-fraction.off")},
                                                         {"rank", same(std::to_string(r.rank))},
                                                         {"comm_s", same(text::fixed(r.commS, 4))}});
    d.correct = same(text::percent(hidden));
    for (double v : distinctFrom(hidden, {0.5, 0.9, 0.25, 1.0, 0.75, 0.0, 0.1}, 0.1, false))
      d.wrong.push_back(same(text::percent(v)));
    d.explanation =
        text::message("overlap-fraction.explanation", {{"rank", std::to_string(r.rank)},
                                                       {"comm_s", text::fixed(r.commS, 4)},
                                                       {"exposed_comm_s", text::fixed(r.exposedCommS, 4)},
                                                       {"hidden", text::percent(hidden)},
                                                       {"step_time_s", text::fixed(in.summary.stepTimeS, 4)}});
    d.numeric = NumericAnswer{hidden, 0.05, "fraction"};
    return finish(std::move(d), in);
  }
};


// Activation checkpointing: how many forward computations rank 0 ran per step, and why.
class ForwardsPerStep final : public ObservationTemplate {
public:
  std::string id() const override { return "forwards-per-step"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    const auto strategy = strategyOf(in.trace);
    if (strategy != StrategyKind::Fsdp && strategy != StrategyKind::Ddp) return std::nullopt;
    const auto config = in.trace.config(); // an fsdp or ddp run has a job record
    if (!config->checkpointActivations || config->accumulate != 1) return std::nullopt;
    if (in.summary.ranksDetail.empty() || in.summary.stepsCompleted <= 0) return std::nullopt;
    if (in.summary.steps != in.summary.stepsCompleted) return std::nullopt; // a partial run counts partial steps
    const auto& r = in.summary.ranksDetail.front();
    if (r.forwardOps <= 0 || r.forwardOps % in.summary.stepsCompleted != 0) return std::nullopt;
    const std::int64_t perStep = r.forwardOps / in.summary.stepsCompleted;
    const auto units = static_cast<std::int64_t>(in.trace.units.size());
    if (units <= 0) return std::nullopt;
    const auto u = std::to_string(units);
    std::map<std::int64_t, LocalizedText> reasons;
    reasons[2 * units] =
        text::message("forwards-per-step.twice-per-unit", {{"count", std::to_string(2 * units)}, {"units", u}});
    reasons[units] = text::message("forwards-per-step.once-per-unit", {{"units", u}});
    reasons[3 * units] = text::message("forwards-per-step.three-per-unit", {{"count", std::to_string(3 * units)}});
    reasons[4 * units] = text::message("forwards-per-step.four-per-unit", {{"count", std::to_string(4 * units)}});
    Draft d;
    d.templateId = id();
    d.lesson = "activation-checkpointing";
    d.moment = "persistent_memory";
    d.text = text::message("forwards-per-step.question", {{"units", u}});
    chooseByCount(d, reasons, perStep);
    d.explanation =
        text::message("forwards-per-step.explanation", {{"rank", std::to_string(r.rank)},
                                                        {"forward_ops", std::to_string(r.forwardOps)},
                                                        {"steps_completed", std::to_string(in.summary.stepsCompleted)},
                                                        {"recompute_ops", std::to_string(r.recomputeOps)}});
    d.numeric = NumericAnswer{static_cast<double>(perStep), 0.0, "count"};
    return finish(std::move(d), in);
  }
};


// Gradient accumulation: how many gradient reductions one rank issued per optimizer
// step, with or without no_sync. DDP and no-shard all-reduce; the sharded stages
// reduce-scatter (hybrid then also all-reduces across groups, the same count).
class ReductionsPerStep final : public ObservationTemplate {
public:
  std::string id() const override { return "reductions-per-step"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    const auto strategy = strategyOf(in.trace);
    if (strategy != StrategyKind::Fsdp && strategy != StrategyKind::Ddp) return std::nullopt;
    const auto config = in.trace.config(); // an fsdp or ddp run has a job record
    const std::int64_t k = config->accumulate;
    if (k < 2 || in.summary.stepsCompleted <= 0 || in.summary.steps != in.summary.stepsCompleted) return std::nullopt;
    const bool allReduce = strategy == StrategyKind::Ddp || config->sharding == Sharding::NoShard;
    const auto it = in.summary.collectives.find(allReduce ? "all_reduce" : "reduce_scatter");
    if (it == in.summary.collectives.end() || it->second.count <= 0) return std::nullopt;
    if (it->second.count % in.summary.stepsCompleted != 0) return std::nullopt;
    const std::int64_t perStep = it->second.count / in.summary.stepsCompleted;
    const auto units = static_cast<std::int64_t>(in.trace.units.size());
    if (units <= 0) return std::nullopt;
    const std::string u = std::to_string(units), kk = std::to_string(k), call = allReduce ? "all-reduce" : "reduce-scatter";

    std::map<std::int64_t, LocalizedText> reasons;
    reasons[units * k] = text::message("reductions-per-step.every-micro-step",
                                       {{"count", std::to_string(units * k)}, {"units", u}, {"microsteps", kk}});
    reasons[units] =
        text::message("reductions-per-step.last-micro-step-only", {{"units", u}, {"skipped", std::to_string(k - 1)}});
    reasons[units * (k - 1)] =
        text::message("reductions-per-step.all-but-last", {{"count", std::to_string(units * (k - 1))}});
    reasons.try_emplace(k, text::message("reductions-per-step.one-call-per-micro-step", {{"microsteps", kk}}));
    reasons.try_emplace(2 * units * k,
                        text::message("reductions-per-step.two-per-unit", {{"count", std::to_string(2 * units * k)}}));
    Draft d;
    d.templateId = id();
    d.lesson = "gradient-accumulation";
    d.moment = allReduce ? "first_all_reduce" : "first_reduce_scatter";
    const std::string run = strategy == StrategyKind::Ddp ? "DDP" : "FSDP (" + std::string(name(config->sharding)) + ")";
    d.text = config->noSync ? text::message("reductions-per-step.question-no-sync",
                                            {{"run", run}, {"microsteps", kk}, {"units", u}, {"call", call}})
                            : text::message("reductions-per-step.question-sync",
                                            {{"run", run}, {"microsteps", kk}, {"units", u}, {"call", call}});
    chooseByCount(d, reasons, perStep);
    const std::string total = std::to_string(it->second.count), steps = std::to_string(in.summary.stepsCompleted);
    d.explanation =
        config->noSync
            ? text::message("reductions-per-step.explanation-no-sync",
                            {{"total", total}, {"call", call}, {"steps", steps}, {"per_step", std::to_string(perStep)}})
            : text::message(
                  "reductions-per-step.explanation-sync",
                  {{"total", total}, {"call", call}, {"steps", steps}, {"per_step", std::to_string(perStep)}});
    d.numeric = NumericAnswer{static_cast<double>(perStep), 0.0, "count"};
    return finish(std::move(d), in);
  }
};

// Prefetch modes and limit_all_gathers: rank 0's peak of gathered parameters, against
// the sizes of one, two and three of its largest units and the whole model.
class GatheredPeak final : public ObservationTemplate {
public:
  std::string id() const override { return "gathered-peak"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (strategyOf(in.trace) != StrategyKind::Fsdp || in.summary.ranksDetail.empty()) return std::nullopt;
    const auto config = in.trace.config(); // an fsdp run has a job record
    // no-shard and optimizer keep full parameters: nothing is gathered for compute.
    if (config->sharding == Sharding::NoShard || config->sharding == Sharding::Optimizer) return std::nullopt;
    if (in.summary.stepsCompleted <= 0) return std::nullopt;
    constexpr auto gathered = static_cast<std::size_t>(trace::Category::GatheredParams);
    const auto& r = in.summary.ranksDetail.front();
    const std::int64_t peak = r.peakByCategory[gathered];
    if (peak <= 0) return std::nullopt;
    // Each unit's gathered size, from its first all-gather (what the gather allocates).
    std::map<int, std::int64_t> unitBytes;
    for (const auto& e : in.trace.events)
      if (e.rank == r.rank && e.record == trace::Record::Memory && e.category == trace::Category::GatheredParams &&
          e.bytes > 0)
        unitBytes.try_emplace(e.unit, e.bytes);
    if (unitBytes.empty()) return std::nullopt;
    std::vector<std::int64_t> sizes;
    for (const auto& [unit, b] : unitBytes) sizes.push_back(b);
    std::sort(sizes.rbegin(), sizes.rend());
    std::int64_t all = 0;
    for (auto b : sizes) all += b;
    auto largest = [&](std::size_t n) {
      std::int64_t sum = 0;
      for (std::size_t i = 0; i < std::min(n, sizes.size()); ++i) sum += sizes[i];
      return static_cast<double>(sum);
    };
    const double p = static_cast<double>(peak);
    const LocalizedText limit =
        config->limitAllGathers
            ? text::message("gathered-peak.limit", {{"limit", std::to_string(*config->limitAllGathers)}})
            : text::message("gathered-peak.no-limit");
    const LocalizedText mode = text::message(
        "gathered-peak.mode", {{"sharding", same(std::string(name(config->sharding)))},
                               {"backward_prefetch", same(std::string(name(config->backwardPrefetch)))},
                               {"forward_prefetch", config->forwardPrefetch ? text::message("overlap-fraction.on")
                                                                            : text::message("overlap-fraction.off")},
                               {"limit", limit}});
    Draft d;
    d.templateId = id();
    d.lesson = "fsdp-prefetch";
    d.moment = "prefetch_overlap";
    d.text = text::message("gathered-peak.question", {{"mode", mode},
                                                      {"units", same(std::to_string(sizes.size()))},
                                                      {"largest", same(text::bytes(sizes.front()))},
                                                      {"rank", same(std::to_string(r.rank))}});
    d.correct = same(text::bytes(peak));
    for (double v : distinctFrom(p, {largest(1), largest(2), largest(3), static_cast<double>(all), p / 2, 2 * p}, 0.15,
                                 true))
      d.wrong.push_back(same(text::bytes(static_cast<std::int64_t>(std::llround(v)))));
    d.explanation = text::message("gathered-peak.explanation",
                                  {{"rank", std::to_string(r.rank)},
                                   {"peak", text::bytes(peak)},
                                   {"times_largest", text::times(p / static_cast<double>(sizes.front()))}});
    d.numeric = NumericAnswer{p, 0.05 * p, "bytes"};
    return finish(std::move(d), in);
  }
};

} // namespace

std::vector<std::unique_ptr<ObservationTemplate>> fsdpTemplates() {
  std::vector<std::unique_ptr<ObservationTemplate>> v;
  v.push_back(std::make_unique<CollectiveCount>());
  v.push_back(std::make_unique<GatherFreeSequence>());
  v.push_back(std::make_unique<OverlapFraction>());
  v.push_back(std::make_unique<ForwardsPerStep>());
  v.push_back(std::make_unique<ReductionsPerStep>());
  v.push_back(std::make_unique<GatheredPeak>());
  return v;
}

} // namespace shardlab::quiz::observation
