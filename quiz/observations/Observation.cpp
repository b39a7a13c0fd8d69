#include "quiz/observations/Observation.h"

#include "quiz/bank/Attempt.h"
#include "quiz/bank/KnownIds.h"
#include "quiz/observations/ObservationSupport.h"

#include <algorithm>
#include <cmath>

namespace shardlab::quiz {

namespace observation {

std::optional<StrategyKind> strategyOf(const trace::Trace& t) {
  const auto config = t.config();
  if (!config) return std::nullopt;
  return config->strategy;
}

std::int64_t modelBytes(const trace::Trace& t) {
  const auto config = t.config();
  return config ? config->modelJson().at("bytes").get<std::int64_t>() : 0;
}

int blockCount(const trace::Trace& t) {
  return static_cast<int>(std::count_if(t.units.begin(), t.units.end(),
                                        [](const std::string& u) { return u.rfind("block", 0) == 0; }));
}

std::string lessonFor(const trace::Trace& t) {
  const auto strategy = strategyOf(t);
  if (!strategy) return "";
  switch (*strategy) {
  case StrategyKind::Ddp: return "ddp-replicas";
  case StrategyKind::Fsdp:
    // FULL_SHARD is the shard-gather-free lesson's run; the other ZeRO stages are compared in zero-stages.
    return t.config()->sharding == Sharding::Full ? "fsdp-shard-gather-free" : "zero-stages";
  case StrategyKind::Pipeline: return "pipeline-bubble";
  case StrategyKind::Tp: return "tensor-parallel";
  }
  return "";
}

LocalizedText same(const std::string& s) { return text::same(s); }

LocalizedText strategyName(StrategyKind strategy) {
  switch (strategy) {
  case StrategyKind::Ddp: return same("DDP");
  case StrategyKind::Fsdp: return same("FSDP");
  case StrategyKind::Pipeline: return text::message("strategy-name.pipeline");
  case StrategyKind::Tp: return text::message("strategy-name.tensor-parallel");
  }
  return same(std::string(name(strategy)));
}

LocalizedText categoryName(trace::Category category) {
  switch (category) {
  case trace::Category::ParamShard: return text::message("category-name.parameter-shard");
  case trace::Category::ParamReplica: return text::message("category-name.parameters-full-replica");
  case trace::Category::GatheredParams: return text::message("category-name.gathered-parameters");
  case trace::Category::Grads: return text::message("category-name.gradients");
  case trace::Category::GradShard: return text::message("category-name.gradient-shard");
  case trace::Category::OptimizerState: return text::message("category-name.optimizer-state");
  case trace::Category::Activations: return text::message("category-name.activations");
  case trace::Category::CommBuffers: return text::message("category-name.communication-buffers");
  case trace::Category::Unknown: return text::message("category-name.unknown");
  case trace::Category::Count: break;
  }
  return same(std::string(trace::toString(category)));
}

std::vector<double> distinctFrom(double correct, const std::vector<double>& candidates, double minGap, bool relative,
                                 std::size_t count) {
  auto far = [&](double a, double b) {
    const double gap = std::abs(a - b);
    return relative ? gap >= minGap * std::max(std::abs(a), std::abs(b)) && gap > 0 : gap >= minGap;
  };
  std::vector<double> out;
  for (double c : candidates) {
    if (!std::isfinite(c) || c < 0 || !far(c, correct)) continue;
    if (std::all_of(out.begin(), out.end(), [&](double o) { return far(c, o); })) out.push_back(c);
    if (out.size() == count) break;
  }
  return out;
}

std::optional<ObservedQuestion> finish(Draft d, const ObservationInput& in) {
  if (!isKnownLessonId(d.lesson) || !isKnownMomentId(d.moment)) return std::nullopt;
  std::vector<LocalizedText> wrong;
  for (auto& w : d.wrong) {
    const auto& en = w.get("en");
    if (en.empty() || en == d.correct.get("en")) continue;
    if (std::any_of(wrong.begin(), wrong.end(), [&](const LocalizedText& o) { return o.get("en") == en; })) continue;
    wrong.push_back(std::move(w));
    if (wrong.size() == 3) break;
  }
  if (wrong.size() < 3) return std::nullopt;
  ObservedQuestion q;
  q.templateId = d.templateId;
  q.question.id = "obs-" + d.templateId;
  q.question.quiz = std::string(kObservationQuiz);
  q.question.text = std::move(d.text);
  q.question.choices.push_back({std::move(d.correct), true});
  for (auto& w : wrong) q.question.choices.push_back({std::move(w), false});
  q.question.explanation = std::move(d.explanation);
  q.question.evidence = Evidence{d.lesson, d.moment};
  q.numeric = d.numeric;
  q.evidenceRun = d.evidenceRun;
  const bool second = d.evidenceRun == 1 && in.second && in.secondSummary;
  if (d.evidenceRun == 1 && !second) q.evidenceRun = 0;
  q.evidenceAt = second ? findMoment(*in.second, *in.secondSummary, d.moment) : findMoment(in.trace, in.summary, d.moment);
  return q;
}

} // namespace observation

nlohmann::json ObservedQuestion::toJson(std::string_view lang, std::uint64_t seed) const {
  const auto order = Attempt::permutation(question.choices.size(), seed, question.id);
  nlohmann::json choices = nlohmann::json::array();
  for (std::size_t shown = 0; shown < order.size(); ++shown) {
    const auto& c = question.choices[order[shown]];
    choices.push_back({{"text", c.text.get(lang)}, {"correct", c.correct}});
  }
  nlohmann::json j = {{"id", question.id},
                      {"template", templateId},
                      {"text", question.text.get(lang)},
                      {"choices", choices},
                      {"answer", question.choices[question.correctIndex()].text.get(lang)},
                      {"explanation", question.explanation.get(lang)}};
  j["numeric"] = numeric ? nlohmann::json{{"value", numeric->value}, {"tolerance", numeric->tolerance}, {"unit", numeric->unit}}
                         : nlohmann::json(nullptr);
  nlohmann::json ev = nullptr;
  if (question.evidence) {
    ev = {{"lesson", question.evidence->lesson}, {"moment", question.evidence->moment}, {"run", evidenceRun}};
    if (evidenceAt) ev.update(evidenceAt->toJson(lang));
    ev["found"] = evidenceAt.has_value();
  }
  j["evidence"] = ev;
  return j;
}

const std::vector<std::unique_ptr<ObservationTemplate>>& observationTemplates() {
  static const auto all = [] {
    std::vector<std::unique_ptr<ObservationTemplate>> v;
    for (auto* make : {&observation::fsdpTemplates, &observation::memoryTemplates, &observation::modelParallelTemplates})
      for (auto& t : (*make)()) v.push_back(std::move(t));
    return v;
  }();
  return all;
}

std::vector<std::string> observationTemplateIds() {
  std::vector<std::string> ids;
  for (const auto& t : observationTemplates()) ids.push_back(t->id());
  return ids;
}

const ObservationTemplate* findObservationTemplate(std::string_view id) {
  for (const auto& t : observationTemplates())
    if (t->id() == id) return t.get();
  return nullptr;
}

namespace {
// The templates whose numbers an imported PyTorch trace holds: calls per step and units
// (collective-count, FSDP; a DDP trace has no units: PyTorch's gradient buckets are not
// in it), communication time hidden by compute (overlap-fraction). The others need
// what such a trace lacks (docs/pytorch-traces.md, "The quiz"): memory categories
// (gather-free-sequence, gathered-peak, peak-activation-memory), the model's size
// (persistent-bytes-per-rank, persistent-ratio), bytes on the wire (sent-bytes-ratio),
// options the job record keeps at their defaults (forwards-per-step, reductions-per-step,
// bf16-all-gather-bytes), an out-of-memory record, a pipeline or tensor-parallel job.
bool readsImportedTraces(const std::string& id) { return id == "collective-count" || id == "overlap-fraction"; }
bool isImported(const trace::Trace* t) { return t && t->job && t->job->imported; }
} // namespace

std::vector<ObservedQuestion> observe(const trace::Trace& trace, const trace::Trace* second,
                                      const std::vector<std::string>* only) {
  const auto s1 = trace::summarizeMeasured(trace);
  std::optional<trace::Summary> s2;
  if (second) s2 = trace::summarizeMeasured(*second);
  std::vector<ObservedQuestion> out;
  for (const auto& t : observationTemplates()) {
    if (only && std::find(only->begin(), only->end(), t->id()) == only->end()) continue;
    if ((isImported(&trace) || isImported(second)) && !readsImportedTraces(t->id())) continue;
    std::optional<ObservedQuestion> q;
    if (t->needsTwoRuns()) {
      if (!second) continue;
      q = t->generate({trace, s1, second, &*s2});
      if (!q) {
        q = t->generate({*second, *s2, &trace, &s1});
        if (q) q->evidenceRun = 1 - q->evidenceRun; // the template saw the runs swapped
      }
    } else {
      q = t->generate({trace, s1});
      if (!q && second) {
        q = t->generate({*second, *s2});
        if (q) q->evidenceRun = 1;
      }
    }
    if (q) out.push_back(std::move(*q));
  }
  return out;
}

} // namespace shardlab::quiz
