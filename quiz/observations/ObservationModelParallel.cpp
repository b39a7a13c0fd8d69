// Observation templates about model parallelism: bubble-fraction, bubble-change,
// activation-bytes-per-message, peak-activation-memory (pipelines) and
// tp-all-reduces-per-block (tensor parallelism).
#include "quiz/observations/ObservationSupport.h"

#include <algorithm>
#include <cmath>

namespace shardlab::quiz::observation {
namespace {

// The parts of the gap between a measured bubble and (p−1)/(V·m+p−1): the theory is
// never a wrong answer; the question is what the run adds to it (hand-offs, waits on
// sends, neighbours waiting for a core) or takes from it (stage time the formula omits:
// the optimizer step, a heavier stage, a stage's own core waits recorded as compute).
const LocalizedText& fillAndDrainOnly() {
  static const LocalizedText t = text::message("bubble-fraction.fill-and-drain-only");
  return t;
}
const LocalizedText& timeTheFormulaLeavesOut() {
  static const LocalizedText t = text::message("bubble-fraction.time-the-formula-leaves-out");
  return t;
}
// Below the theory: every stage's optimizer step counts as its stage time and no stage
// idles during it (docs/replay.md, "Limits"); the last stage also computes the output
// layer and the loss; and with more ranks than cores a stage's own wait for a core is
// recorded as compute, not idle (docs/performance.md, "p = 4 is distorted").
const LocalizedText& unequalStages() {
  static const LocalizedText t = text::message("bubble-fraction.unequal-stages");
  return t;
}

class BubbleFraction final : public ObservationTemplate {
public:
  std::string id() const override { return "bubble-fraction"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    const auto& b = in.summary.bubble;
    if (strategyOf(in.trace) != StrategyKind::Pipeline || !b.present || b.perStage.empty()) return std::nullopt;
    const int stage = static_cast<int>(b.perStage.size()) - 1; // the last stage waits longest for its first input
    const double measured = b.perStage.back();
    const double gap = measured - b.theory;
    constexpr double kNoise = 0.05;
    Draft d;
    d.templateId = id();
    d.lesson = "pipeline-bubble";
    d.moment = "bubble";
    const text::Params args{{"schedule", b.schedule},
                            {"stages", std::to_string(b.stages)},
                            {"microbatches", std::to_string(b.microbatches)},
                            {"stage", std::to_string(stage)},
                            {"measured", text::percent(measured)},
                            {"theory", text::percent(b.theory)},
                            {"virtual_stages", std::to_string(b.virtualStages)},
                            {"gap", text::fixed(gap * 100.0, 1)}};
    d.text = text::message("bubble-fraction.question", args);
    const LocalizedText* parts[] = {&fillAndDrainOnly(), &timeTheFormulaLeavesOut(), &unequalStages()};
    const std::size_t right = gap > kNoise ? 1 : gap < -kNoise ? 2 : 0;
    d.correct = *parts[right];
    for (std::size_t i = 0; i < 3; ++i)
      if (i != right) d.wrong.push_back(*parts[i]);
    d.wrong.push_back(text::message("bubble-fraction.wrong-gpus-only"));
    d.explanation = text::message("bubble-fraction.explanation", args);
    d.numeric = NumericAnswer{gap, kNoise, "fraction"};
    return finish(std::move(d), in);
  }
};

// Two pipeline runs with different micro-batch counts (m = 1 and m = 8, say). The
// theory's values are given in the question, and never offered as a wrong choice.
class BubbleChange final : public ObservationTemplate {
public:
  std::string id() const override { return "bubble-change"; }
  bool needsTwoRuns() const override { return true; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (!in.second || !in.secondSummary) return std::nullopt;
    if (strategyOf(in.trace) != StrategyKind::Pipeline || strategyOf(*in.second) != StrategyKind::Pipeline)
      return std::nullopt;
    const auto &a = in.summary.bubble, &b = in.secondSummary->bubble;
    if (!a.present || !b.present || a.microbatches >= b.microbatches) return std::nullopt; // fewer first
    Draft d;
    d.templateId = id();
    d.lesson = "pipeline-bubble";
    d.moment = "bubble";
    d.evidenceRun = 1;
    const text::Params args{{"from_m", std::to_string(a.microbatches)},   {"to_m", std::to_string(b.microbatches)},
                            {"from_measured", text::percent(a.measured)}, {"to_measured", text::percent(b.measured)},
                            {"from_theory", text::percent(a.theory)},     {"to_theory", text::percent(b.theory)},
                            {"stages", std::to_string(b.stages)}};
    d.text = text::message("bubble-change.question", args);
    auto change = [&](double from, double to) {
      return text::message("bubble-change.from-to", {{"from", text::percent(from)}, {"to", text::percent(to)}});
    };
    d.correct = change(a.measured, b.measured);
    std::vector<double> candidates;
    for (double v : {a.measured, a.measured / b.microbatches * a.microbatches, 0.0, std::min(1.0, a.measured * 1.5), 0.5,
                     0.9})
      if (std::abs(v - b.theory) >= 0.05) candidates.push_back(v); // the theory's value is not wrong
    for (double v : distinctFrom(b.measured, candidates, 0.05, false)) d.wrong.push_back(change(a.measured, v));
    d.explanation = text::message("bubble-change.explanation", args);
    d.numeric = NumericAnswer{b.measured - a.measured, 0.05, "fraction"};
    return finish(std::move(d), in);
  }
};

class ActivationBytesPerMessage final : public ObservationTemplate {
public:
  std::string id() const override { return "activation-bytes-per-message"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (strategyOf(in.trace) != StrategyKind::Pipeline) return std::nullopt;
    const auto moment = findMoment(in.trace, in.summary, "activation_send");
    if (!moment) return std::nullopt;
    const auto& e = in.trace.events[moment->eventIndex];
    const std::int64_t rows = e.rows, cols = e.cols;
    const std::int64_t batch = in.trace.config()->batch;  // a pipeline run has a job record
    const std::vector<std::int64_t> candidates{rows * cols, batch * cols * 4, rows * cols * 16, e.bytes * 2};
    Draft d;
    d.templateId = id();
    d.lesson = "pipeline-bubble";
    d.moment = "activation_send";
    d.text = text::message("activation-bytes-per-message.question",
                           {{"batch", std::to_string(batch)},
                            {"microbatches", std::to_string(in.summary.bubble.microbatches)},
                            {"cols", std::to_string(cols)},
                            {"rank", std::to_string(e.rank)},
                            {"peer", std::to_string(e.peer)}});
    d.correct = text::message(
        "activation-bytes-per-message.micro-batch-fp32",
        {{"bytes", text::bytes(e.bytes)}, {"rows", std::to_string(rows)}, {"cols", std::to_string(cols)}});
    const std::vector<LocalizedText> reasons{
        text::message(
            "activation-bytes-per-message.one-byte-per-value",
            {{"bytes", text::bytes(rows * cols)}, {"rows", std::to_string(rows)}, {"cols", std::to_string(cols)}}),
        text::message("activation-bytes-per-message.whole-batch", {{"bytes", text::bytes(batch * cols * 4)},
                                                                   {"batch", std::to_string(batch)},
                                                                   {"cols", std::to_string(cols)}}),
        text::message(
            "activation-bytes-per-message.inner-width",
            {{"bytes", text::bytes(rows * cols * 16)}, {"rows", std::to_string(rows)}, {"cols", std::to_string(cols)}}),
        text::message("activation-bytes-per-message.with-its-gradient", {{"bytes", text::bytes(e.bytes * 2)}})};
    for (std::size_t i = 0; i < reasons.size(); ++i)
      if (candidates[i] != e.bytes) d.wrong.push_back(reasons[i]);
    d.explanation = text::message(
        "activation-bytes-per-message.explanation",
        {{"rows", std::to_string(rows)}, {"cols", std::to_string(cols)}, {"bytes", text::bytes(e.bytes)}});
    d.numeric = NumericAnswer{static_cast<double>(e.bytes), 0.0, "bytes"};
    return finish(std::move(d), in);
  }
};

class PeakActivationMemory final : public ObservationTemplate {
public:
  std::string id() const override { return "peak-activation-memory"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (strategyOf(in.trace) != StrategyKind::Pipeline || in.summary.ranksDetail.empty()) return std::nullopt;
    const auto& r = in.summary.ranksDetail.front();
    const auto peak = r.peakByCategory[static_cast<std::size_t>(trace::Category::Activations)];
    if (peak <= 0) return std::nullopt;
    const int m = std::max(1, in.summary.bubble.microbatches);
    const double p = static_cast<double>(peak);
    Draft d;
    d.templateId = id();
    // A zero-bubble run's peak is the zero-bubble lesson's point (every stage holds p).
    const bool zeroBubble = in.summary.bubble.schedule == "zb-h1" || in.summary.bubble.schedule == "zb-h2";
    d.lesson = zeroBubble ? "zero-bubble" : m > 1 ? "gpipe-vs-1f1b" : "pipeline-bubble";
    d.moment = "activation_send";
    d.text = text::message("peak-activation-memory.question", {{"schedule", in.summary.bubble.schedule},
                                                               {"microbatches", std::to_string(m)},
                                                               {"rank", std::to_string(r.rank)}});
    d.correct = same(text::bytes(peak));
    for (double v : distinctFrom(p, {p * m, p / m, p * 2, p / 2, p * 4, p / 4}, 0.2, true))
      d.wrong.push_back(same(text::bytes(static_cast<std::int64_t>(std::llround(v)))));
    d.explanation = text::message(
        "peak-activation-memory.explanation",
        {{"peak", text::bytes(peak)}, {"rank", std::to_string(r.rank)}, {"microbatches", std::to_string(m)}});
    d.numeric = NumericAnswer{p, 0.05 * p, "bytes"};
    return finish(std::move(d), in);
  }
};

class TpAllReducesPerBlock final : public ObservationTemplate {
public:
  std::string id() const override { return "tp-all-reduces-per-block"; }
  std::optional<ObservedQuestion> generate(const ObservationInput& in) const override {
    if (strategyOf(in.trace) != StrategyKind::Tp) return std::nullopt;
    const int blocks = blockCount(in.trace);
    const auto it = in.summary.collectives.find("all_reduce");
    const int steps = in.summary.stepsCompleted;
    if (blocks <= 0 || steps <= 0 || it == in.summary.collectives.end() || in.summary.steps != steps) return std::nullopt;
    const std::int64_t count = it->second.count;
    if (count <= 0 || count % (static_cast<std::int64_t>(steps) * blocks) != 0) return std::nullopt;
    const std::int64_t perBlock = count / (static_cast<std::int64_t>(steps) * blocks);
    const auto b = std::to_string(blocks), n = std::to_string(in.summary.ranks);
    std::vector<std::pair<std::int64_t, LocalizedText>> options{{2, text::message("tp-all-reduces-per-block.two")},
                                                                {1, text::message("tp-all-reduces-per-block.one")},
                                                                {4, text::message("tp-all-reduces-per-block.four")},
                                                                {0, text::message("tp-all-reduces-per-block.none")},
                                                                {3, text::message("tp-all-reduces-per-block.three")}};
    Draft d;
    d.templateId = id();
    d.lesson = "tensor-parallel";
    d.moment = "tp_all_reduce";
    d.text = text::message("tp-all-reduces-per-block.question", {{"ranks", n}, {"blocks", b}});
    bool matched = false;
    for (auto& [k, label] : options) {
      if (k == perBlock) {
        d.correct = label;
        matched = true;
      } else {
        d.wrong.push_back(label);
      }
    }
    if (!matched)
      d.correct = text::message("tp-all-reduces-per-block.answer-from-trace", {{"count", std::to_string(perBlock)}});
    d.explanation = text::message("tp-all-reduces-per-block.explanation", {{"count", std::to_string(count)},
                                                                           {"steps", std::to_string(steps)},
                                                                           {"blocks", b},
                                                                           {"per_block", std::to_string(perBlock)}});
    d.numeric = NumericAnswer{static_cast<double>(perBlock), 0.0, "count"};
    return finish(std::move(d), in);
  }
};

} // namespace

std::vector<std::unique_ptr<ObservationTemplate>> modelParallelTemplates() {
  std::vector<std::unique_ptr<ObservationTemplate>> v;
  v.push_back(std::make_unique<BubbleFraction>());
  v.push_back(std::make_unique<BubbleChange>());
  v.push_back(std::make_unique<ActivationBytesPerMessage>());
  v.push_back(std::make_unique<PeakActivationMemory>());
  v.push_back(std::make_unique<TpAllReducesPerBlock>());
  return v;
}

} // namespace shardlab::quiz::observation
