// Observation templates about memory and traffic per rank: persistent-bytes-per-rank,
// persistent-ratio (DDP vs FSDP), sent-bytes-ratio (DDP vs FSDP), bf16-all-gather-bytes
// (bf16 vs fp32 parameters), oom-needed-vs-budget.
#include "quiz/observations/ObservationSupport.h"

#include <algorithm>
#include <cmath>

namespace shardlab::quiz::observation {
namespace {

const trace::RankSummary* firstRank(const trace::Summary& s) {
  return s.ranksDetail.empty() ? nullptr : &s.ranksDetail.front();
}

LocalizedText whyPersistent(StrategyKind strategy, Sharding sharding, int ranks, int degree) {
  const auto n = std::to_string(ranks), d = std::to_string(degree);
  const std::string stage = std::to_string(zeroStage(sharding)), sharded(name(sharding));
  switch (strategy) {
  case StrategyKind::Ddp: return text::message("why-persistent.ddp");
  case StrategyKind::Fsdp:
    // In Ψ (the parameter count) at fp32: parameters 4Ψ, gradients 4Ψ, AdamW's moments 8Ψ,
    // each divided by the shard degree where the stage shards it (docs/sharding.md).
    if (sharding == Sharding::NoShard)
      return text::message("why-persistent.no-shard", {{"sharding", sharded}, {"stage", stage}});
    if (sharding == Sharding::Optimizer)
      return text::message("why-persistent.optimizer", {{"sharding", sharded}, {"stage", stage}, {"degree", d}});
    if (sharding == Sharding::Hybrid)
      return text::message("why-persistent.hybrid", {{"sharding", sharded},
                                                     {"degree", d},
                                                     {"groups", std::to_string(ranks / std::max(1, degree))},
                                                     {"ranks", n}});
    // grad-op follows PyTorch's SHARD_GRAD_OP, only close to ZeRO-2: ZeRO-2 keeps the
    // parameters replicated (4Ψ + 12Ψ/N in fp32), SHARD_GRAD_OP gathers them in the forward,
    // keeps them to the end of the backward, then frees them: between steps a rank holds
    // its shards alone, as under full (docs/sharding.md, "Two honest differences").
    if (sharding == Sharding::GradOp)
      return text::message("why-persistent.grad-op", {{"degree", d}, {"sharding", sharded}});
    // full frees each unit's gathered parameters after its forward and again after its
    // backward: between steps a rank holds its shards alone.
    return text::message("why-persistent.full", {{"degree", d}, {"sharding", sharded}, {"stage", stage}});
  case StrategyKind::Pipeline: return text::message("why-persistent.pipeline");
  case StrategyKind::Tp:
    break;
  }
  return text::message("why-persistent.tp", {{"ranks", n}});
}

class PersistentBytesPerRank final : public ObservationTemplate {
public:
  std::string id() const override { return "persistent-bytes-per-rank"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    const auto* r = firstRank(in.summary);
    const auto strategy = strategyOf(in.trace);
    const auto model = modelBytes(in.trace);
    const auto lesson = lessonFor(in.trace);
    if (!r || !strategy || r->persistentBytes <= 0 || model <= 0 || in.summary.stepsCompleted <= 0 || lesson.empty())
      return std::nullopt;
    const double p = static_cast<double>(r->persistentBytes), m = static_cast<double>(model);
    const double n = std::max(1, in.summary.ranks);
    Draft d;
    d.templateId = id();
    d.lesson = lesson;
    d.moment = "persistent_memory";
    d.text = text::message("persistent-bytes-per-rank.question", {{"strategy", strategyName(*strategy)},
                                                                  {"ranks", same(std::to_string(in.summary.ranks))},
                                                                  {"model", same(text::bytes(model))},
                                                                  {"rank", same(std::to_string(r->rank))}});
    d.correct = same(text::bytes(r->persistentBytes));
    // The textbook's totals for the stages (16Ψ, 8Ψ + 8Ψ/N, 16Ψ/N with m = 4Ψ), then multiples of the answer.
    for (double v : distinctFrom(p, {4 * m, 2 * m + 2 * m / n, 4 * m / n, m, 2 * m, p * n, p / n, 2 * p, p / 2}, 0.15, true))
      d.wrong.push_back(same(text::bytes(static_cast<std::int64_t>(std::llround(v)))));
    d.explanation = text::message("persistent-bytes-per-rank.explanation",
                                  {{"rank", same(std::to_string(r->rank))},
                                   {"held", same(text::bytes(r->persistentBytes))},
                                   {"why", whyPersistent(*strategy, in.trace.config()->sharding, in.summary.ranks,
                                                         in.trace.config()->shardDegree())}});
    d.numeric = NumericAnswer{p, 0.05 * p, "bytes"};
    return finish(std::move(d), in);
  }
};

// Two runs, one DDP and one FSDP: finds which is which.
struct DdpFsdp {
  const trace::Trace *ddp = nullptr, *fsdp = nullptr;
  const trace::Summary *ddpS = nullptr, *fsdpS = nullptr;
  int fsdpRun = 0;
};
std::optional<DdpFsdp> ddpAndFsdp(const ObservationInput& in) {
  if (!in.second || !in.secondSummary) return std::nullopt;
  // The templates explain FULL_SHARD and SHARD_GRAD_OP against DDP (1/N of the state, 1.5x or 1x the bytes).
  const auto config = in.second->config();
  const bool fullOrGradOp = config && (config->sharding == Sharding::Full || config->sharding == Sharding::GradOp);
  if (strategyOf(in.trace) == StrategyKind::Ddp && strategyOf(*in.second) == StrategyKind::Fsdp && fullOrGradOp)
    return DdpFsdp{&in.trace, in.second, &in.summary, in.secondSummary, 1};
  return std::nullopt; // the other order is tried with the runs swapped
}

class PersistentRatio final : public ObservationTemplate {
public:
  std::string id() const override { return "persistent-ratio"; }
  bool needsTwoRuns() const override { return true; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    const auto runs = ddpAndFsdp(in);
    if (!runs) return std::nullopt;
    const auto *a = firstRank(*runs->ddpS), *b = firstRank(*runs->fsdpS);
    if (!a || !b || a->persistentBytes <= 0 || b->persistentBytes <= 0 || runs->ddpS->stepsCompleted <= 0 ||
        runs->fsdpS->stepsCompleted <= 0)
      return std::nullopt;
    const double ratio = static_cast<double>(a->persistentBytes) / static_cast<double>(b->persistentBytes);
    const int n = runs->fsdpS->ranks;
    Draft d;
    d.templateId = id();
    d.lesson = "fsdp-shard-gather-free";
    d.moment = "persistent_memory";
    d.evidenceRun = runs->fsdpRun;
    const std::string sharding(name(runs->fsdp->config()->sharding)); // an fsdp run has a job record
    d.text = text::message(
        "persistent-ratio.question",
        {{"ddp_ranks", std::to_string(runs->ddpS->ranks)}, {"fsdp_ranks", std::to_string(n)}, {"sharding", sharding}});
    d.correct = same(text::times(ratio));
    for (double v : distinctFrom(ratio, {1.0, 2.0, static_cast<double>(n) * 2, static_cast<double>(n) / 2, 0.5,
                                         static_cast<double>(n)},
                                 0.15, true))
      d.wrong.push_back(same(text::times(v)));
    d.explanation = text::message("persistent-ratio.explanation", {{"ddp_bytes", text::bytes(a->persistentBytes)},
                                                                   {"fsdp_bytes", text::bytes(b->persistentBytes)},
                                                                   {"ratio", text::times(ratio)},
                                                                   {"ranks", std::to_string(n)},
                                                                   {"sharding", sharding}});
    d.numeric = NumericAnswer{ratio, 0.05 * ratio, "ratio"};
    return finish(std::move(d), in);
  }
};

// The bytes a run's ranks sent per step, collective by collective, as the summary has
// them: measured by Open MPI's monitoring when `measured`, else the ring model applied
// to the trace's collective records. "all-gather 1.50 MiB, reduce-scatter 768 KiB".
std::string perStepByKind(const trace::Summary& s, bool measured) {
  std::string out;
  for (const auto& [kind, label] : {std::pair{"all_gather", "all-gather"}, std::pair{"reduce_scatter", "reduce-scatter"},
                                    std::pair{"all_reduce", "all-reduce"}}) {
    const auto it = s.collectives.find(kind);
    if (it == s.collectives.end() || it->second.count == 0) continue;
    const auto& c = it->second;
    const std::int64_t total = measured && c.measuredWireBytes ? *c.measuredWireBytes : c.wireBytes;
    if (!out.empty()) out += ", ";
    out += std::string(label) + " " + std::to_string(c.count / std::max(1, s.stepsCompleted)) + " × → " +
           text::bytes(total / std::max(1, s.stepsCompleted));
  }
  return out;
}

// Whether the run's collectives ran as rings: its job record's collective_algorithms
// (docs/trace-format.md, "Bytes on the wire"); a trace without it left the choice to Open MPI.
bool ranAsRings(const trace::Trace& t) {
  return t.job && t.job->collectiveAlgorithms && t.job->collectiveAlgorithms->choice == "ring";
}

class SentBytesRatio final : public ObservationTemplate {
public:
  std::string id() const override { return "sent-bytes-ratio"; }
  bool needsTwoRuns() const override { return true; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    const auto runs = ddpAndFsdp(in);
    if (!runs) return std::nullopt;
    const auto *a = firstRank(*runs->ddpS), *b = firstRank(*runs->fsdpS);
    const int sa = runs->ddpS->stepsCompleted, sb = runs->fsdpS->stepsCompleted;
    if (!a || !b || sa <= 0 || sb <= 0 || a->sentBytes <= 0 || b->sentBytes <= 0) return std::nullopt;
    if (runs->ddpS->steps != sa || runs->fsdpS->steps != sb) return std::nullopt;
    // What each rank really sent when Open MPI's monitoring measured both runs; else
    // the ring model of the collectives each trace records. Never a constant per sharding.
    const bool measured = a->measuredSentBytes && b->measuredSentBytes;
    const auto sentA = measured ? *a->measuredSentBytes : a->sentBytes;
    const auto sentB = measured ? *b->measuredSentBytes : b->sentBytes;
    if (sentA <= 0 || sentB <= 0) return std::nullopt;
    const double perA = static_cast<double>(sentA) / sa, perB = static_cast<double>(sentB) / sb;
    const double ratio = perB / perA;
    const double modelledRatio = (static_cast<double>(b->sentBytes) / sb) / (static_cast<double>(a->sentBytes) / sa);
    Draft d;
    d.templateId = id();
    d.lesson = "fsdp-shard-gather-free";
    d.moment = "first_reduce_scatter";
    d.evidenceRun = runs->fsdpRun;
    const std::string sharding(name(runs->fsdp->config()->sharding)); // an fsdp run has a job record
    d.text = measured ? text::message("sent-bytes-ratio.question-measured", {{"sharding", sharding}})
                      : text::message("sent-bytes-ratio.question-modelled", {{"sharding", sharding}});
    d.correct = same(text::times(ratio));
    // The ring model's answer is the most tempting wrong one when the measurement differs from it.
    std::vector<double> candidates{modelledRatio, 1.5, 1.0, 2.0, 0.5, 3.0, 0.25, 4.0};
    for (double v : distinctFrom(ratio, candidates, 0.2, true)) d.wrong.push_back(same(text::times(v)));
    // The explanation counts the run's own calls and bytes per step, whatever the sharding.
    const text::Params args{{"ddp_sent", text::bytes(static_cast<std::int64_t>(perA))},
                            {"fsdp_sent", text::bytes(static_cast<std::int64_t>(perB))},
                            {"ratio", text::times(ratio)},
                            {"ddp_calls", perStepByKind(*runs->ddpS, measured)},
                            {"fsdp_calls", perStepByKind(*runs->fsdpS, measured)},
                            {"ring_ratio", text::times(modelledRatio)}};
    // By default shardlab-run runs the collectives as rings (--collective-algorithms ring,
    // recorded in the job record), so what was measured is what the ring model says; a
    // run that left the choice to Open MPI (or a trace older than the option) may differ.
    d.explanation = measured && ranAsRings(*runs->ddp) && ranAsRings(*runs->fsdp)
                        ? text::message("sent-bytes-ratio.explanation-rings", args)
                    : measured ? text::message("sent-bytes-ratio.explanation-open-mpi", args)
                               : text::message("sent-bytes-ratio.explanation-modelled", args);
    d.numeric = NumericAnswer{ratio, 0.1 * ratio, "ratio"};
    return finish(std::move(d), in);
  }
};

// Mixed precision, two FSDP runs of the same job in bf16 and fp32 parameters: the
// all-gather bytes per step of the bf16 run over the fp32 run's, measured on the wire
// by Open MPI's monitoring when both runs have it, else the recorded buffers.
class Bf16AllGatherBytes final : public ObservationTemplate {
public:
  std::string id() const override { return "bf16-all-gather-bytes"; }
  bool needsTwoRuns() const override { return true; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (!in.second || !in.secondSummary) return std::nullopt;
    if (strategyOf(in.trace) != StrategyKind::Fsdp || strategyOf(*in.second) != StrategyKind::Fsdp) return std::nullopt;
    const auto bf16 = in.trace.config(), fp32 = in.second->config(); // fsdp runs have a job record
    if (bf16->paramDtype != Dtype::Bf16 || fp32->paramDtype != Dtype::Fp32) return std::nullopt; // tried swapped too
    if (bf16->ranks != fp32->ranks || bf16->sharding != fp32->sharding || modelBytes(in.trace) != modelBytes(*in.second))
      return std::nullopt; // the same job but for the precision, else the ratio says nothing about bf16
    const auto &a = in.summary, &b = *in.secondSummary;
    if (a.stepsCompleted <= 0 || b.stepsCompleted <= 0) return std::nullopt;
    const auto ia = a.collectives.find("all_gather"), ib = b.collectives.find("all_gather");
    if (ia == a.collectives.end() || ib == b.collectives.end() || ia->second.count <= 0 || ib->second.count <= 0)
      return std::nullopt;
    const bool measured = ia->second.measuredWireBytes && ib->second.measuredWireBytes;
    const auto bytesA = measured ? *ia->second.measuredWireBytes : ia->second.bytes;
    const auto bytesB = measured ? *ib->second.measuredWireBytes : ib->second.bytes;
    if (bytesA <= 0 || bytesB <= 0) return std::nullopt;
    const double perA = static_cast<double>(bytesA) / a.stepsCompleted, perB = static_cast<double>(bytesB) / b.stepsCompleted;
    const double ratio = perA / perB;
    Draft d;
    d.templateId = id();
    d.lesson = "mixed-precision";
    d.moment = "first_all_gather";
    d.evidenceRun = 0; // the bf16 run
    d.text = measured ? text::message("bf16-all-gather-bytes.question-measured", {{"ranks", std::to_string(a.ranks)}})
                      : text::message("bf16-all-gather-bytes.question-recorded", {{"ranks", std::to_string(a.ranks)}});
    d.correct = same(text::times(ratio));
    for (double v : distinctFrom(ratio, {1.0, 0.25, 0.75, 2.0, 0.125}, 0.15, true)) d.wrong.push_back(same(text::times(v)));
    const text::Params args{{"bf16_bytes", text::bytes(static_cast<std::int64_t>(std::llround(perA)))},
                            {"fp32_bytes", text::bytes(static_cast<std::int64_t>(std::llround(perB)))},
                            {"ratio", text::times(ratio)},
                            {"bf16_calls", std::to_string(ia->second.count / a.stepsCompleted)},
                            {"fp32_calls", std::to_string(ib->second.count / b.stepsCompleted)}};
    d.explanation = text::message("bf16-all-gather-bytes.explanation", args);
    d.numeric = NumericAnswer{ratio, 0.02, "ratio"};
    return finish(std::move(d), in);
  }
};

// Why the run stopped. Ranks that hold the same bytes (DDP, FSDP, TP) reach the budget
// together, and which one reports first is a race: the question asks which rank only
// for a pipeline, whose stages hold different units.
class OomNeededVsBudget final : public ObservationTemplate {
public:
  std::string id() const override { return "oom-needed-vs-budget"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    const auto strategy = strategyOf(in.trace);
    if (!in.summary.outOfMemory || !strategy) return std::nullopt;
    const auto& o = *in.summary.outOfMemory;
    const bool symmetric = *strategy != StrategyKind::Pipeline;
    Draft d;
    d.templateId = id();
    d.lesson = "oom-ddp-vs-fsdp";
    d.moment = "out_of_memory";
    const text::Params args{{"rank", same(std::to_string(o.rank))},
                            {"holding", same(text::bytes(o.holding))},
                            {"needed", same(text::bytes(o.needed))},
                            {"category", categoryName(o.category)},
                            {"unit", same(o.unit)},
                            {"budget", same(text::bytes(o.budget))},
                            {"strategy", strategyName(*strategy)},
                            {"ranks", same(std::to_string(in.summary.ranks))}};
    d.text = symmetric ? text::message("oom-needed-vs-budget.question-symmetric", args)
                       : text::message("oom-needed-vs-budget.question-which-rank", args);
    d.correct = text::message("oom-needed-vs-budget.correct", args);
    d.wrong.push_back(text::message("oom-needed-vs-budget.wrong-gradients-received"));
    d.wrong.push_back(text::message("oom-needed-vs-budget.wrong-activations-alone", args));
    d.wrong.push_back(text::message("oom-needed-vs-budget.wrong-too-slow"));
    d.wrong.push_back(text::message("oom-needed-vs-budget.wrong-budget-summed"));
    const LocalizedText race = symmetric ? text::message("oom-needed-vs-budget.race", args) : text::same("");
    text::Params withRace = args;
    withRace.push_back({"race", race});
    d.explanation = text::message("oom-needed-vs-budget.explanation", withRace);
    return finish(std::move(d), in);
  }
};

} // namespace

std::vector<std::unique_ptr<ObservationTemplate>> memoryTemplates() {
  std::vector<std::unique_ptr<ObservationTemplate>> v;
  v.push_back(std::make_unique<PersistentBytesPerRank>());
  v.push_back(std::make_unique<PersistentRatio>());
  v.push_back(std::make_unique<SentBytesRatio>());
  v.push_back(std::make_unique<Bf16AllGatherBytes>());
  v.push_back(std::make_unique<OomNeededVsBudget>());
  return v;
}

} // namespace shardlab::quiz::observation
