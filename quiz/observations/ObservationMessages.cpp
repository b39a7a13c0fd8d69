#include "quiz/observations/ObservationMessages.h"

#include "quiz/bank/AssetLocator.h"
#include "quiz/bank/JsonFile.h"
#include "quiz/bank/JsonValidator.h"
#include "quiz/bank/Languages.h"
#include "quiz/bank/Plural.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>

namespace shardlab::quiz {

const std::vector<ObservationMessageSpec>& observationMessageSpecs() {
  // One row per message: its file, its id, the parameters the code passes to it.
  static const std::vector<ObservationMessageSpec> specs{
      {"fsdp", "choose-by-count.trace-counts", {"count"}},
      {"fsdp", "collective-count.each-units-gathered-before-forward", {"count", "units"}},
      {"fsdp", "collective-count.each-units-gathered-once-kept", {"units"}},
      {"fsdp", "collective-count.1-whole-model-gathered-once", {}},
      {"fsdp", "collective-count.forward-backward-optimizer-step-each", {"count"}},
      {"fsdp", "collective-count.one-per-rank-fetch-each", {"ranks"}},
      {"fsdp", "collective-count.one-per-unit-gradients-soon", {"units"}},
      {"fsdp", "collective-count.one-per-unit-forward-parameters", {"count"}},
      {"fsdp", "collective-count.1-all-gradients-summed-one", {}},
      {"fsdp", "collective-count.0-each-rank-trains-replica", {}},
      {"fsdp", "collective-count.fsdp-run-sharding-how-many", {"ranks", "units", "sharding"}},
      {"fsdp", "collective-count.ddp-run-how-many-all", {"ranks", "units"}},
      {"fsdp", "collective-count.trace-all-gathers-per-rank", {"total", "steps", "per_step", "units"}},
      {"fsdp", "collective-count.trace-all-reduces-per-rank", {"total", "steps", "per_step", "units"}},
      {"fsdp", "gather-free-sequence.none", {}},
      {"fsdp", "gather-free-sequence.ranks-every-rank-gathered-whole", {"rank_list"}},
      {"fsdp", "gather-free-sequence.only-rank-rank-whose-call", {"rank"}},
      {"fsdp", "gather-free-sequence.only-rank-which-owns", {"owner", "unit"}},
      {"fsdp", "gather-free-sequence.none-every-rank-keeps-only", {"ranks"}},
      {"fsdp", "gather-free-sequence.run-rank-all-gathered-t", {"rank", "unit", "at"}},
      {"fsdp", "gather-free-sequence.ranks", {"holders"}},
      {"fsdp", "gather-free-sequence.trace-end-their-call-rank", {"at", "holders", "bytes", "unit", "rank"}},
      {"fsdp", "overlap-fraction.fsdp-run-prefetch-rank-spent", {"prefetch", "rank", "comm_s"}},
      {"fsdp", "overlap-fraction.on", {}},
      {"fsdp", "overlap-fraction.off", {}},
      {"fsdp", "overlap-fraction.summary-rank-comm-s-s", {"rank", "comm_s", "exposed_comm_s", "hidden", "step_time_s"}},
      {"fsdp", "forwards-per-step.each-units-runs-forward-once", {"count", "units"}},
      {"fsdp", "forwards-per-step.one-per-unit-checkpointing-only", {"units"}},
      {"fsdp", "forwards-per-step.forward-recompute-once-more-before", {"count"}},
      {"fsdp", "forwards-per-step.every-unit-recomputed-each-gradients", {"count"}},
      {"fsdp", "forwards-per-step.run-activation-checkpointing-how-many", {"units"}},
      {"fsdp", "forwards-per-step.summary-rank-over-them-marked", {"rank", "forward_ops", "steps_completed", "recompute_ops"}},
      {"fsdp", "reductions-per-step.each-units-reduces-gradient-every", {"count", "units", "microsteps"}},
      {"fsdp", "reductions-per-step.each-unit-once-per-step", {"units", "skipped"}},
      {"fsdp", "reductions-per-step.every-micro-step-but-last", {"count"}},
      {"fsdp", "reductions-per-step.one-call-per-micro-step", {"microsteps"}},
      {"fsdp", "reductions-per-step.two-per-unit-micro-step", {"count"}},
      {"fsdp", "reductions-per-step.run-micro-steps-per-step", {"run", "microsteps", "units", "call"}},
      {"fsdp", "reductions-per-step.run-micro-steps-per-step-without", {"run", "microsteps", "units", "call"}},
      {"fsdp", "reductions-per-step.trace-calls-per-rank-over", {"total", "call", "steps", "per_step"}},
      {"fsdp", "reductions-per-step.trace-calls-per-rank-over-per", {"total", "call", "steps", "per_step"}},
      {"fsdp", "gathered-peak.most", {"limit"}},
      {"fsdp", "gathered-peak.no-limit-gathered-units", {}},
      {"fsdp", "gathered-peak.sharding-backward-prefetch-forward-prefetch", {"sharding", "backward_prefetch", "forward_prefetch", "limit"}},
      {"fsdp", "gathered-peak.fsdp-run-largest-what-rank", {"mode", "units", "largest", "rank"}},
      {"fsdp", "gathered-peak.summary-rank-s-peak-gathered", {"rank", "peak", "times_largest"}},
      {"memory", "why-persistent.ddp-replicates-everything-each-rank", {}},
      {"memory", "why-persistent.fsdp-run-sharding-zero-shards", {"sharding", "stage"}},
      {"memory", "why-persistent.fsdp-run-sharding-zero-shards-only", {"sharding", "stage", "degree"}},
      {"memory", "why-persistent.fsdp-run-sharding-shards-everything", {"sharding", "degree", "groups", "ranks"}},
      {"memory", "why-persistent.fsdp-run-sharding-pytorch-s", {"degree", "sharding"}},
      {"memory", "why-persistent.fsdp-run-sharding-zero-shards-everything", {"degree", "sharding", "stage"}},
      {"memory", "why-persistent.pipeline-stage-holds-full-training", {}},
      {"memory", "why-persistent.tensor-parallelism-splits-each-block", {"ranks"}},
      {"memory", "persistent-bytes-per-rank.run-model-fp32-parameters-how", {"strategy", "ranks", "model", "rank"}},
      {"memory", "persistent-bytes-per-rank.summary-rank-held-end-last", {"rank", "held", "why"}},
      {"memory", "persistent-ratio.ddp-run-fsdp-run-sharding", {"ddp_ranks", "fsdp_ranks", "sharding"}},
      {"memory", "persistent-ratio.summaries-rank-0-held-under", {"ddp_bytes", "fsdp_bytes", "ratio", "ranks", "sharding"}},
      {"memory", "sent-bytes-ratio.ddp-run-fsdp-run-sharding", {"sharding"}},
      {"memory", "sent-bytes-ratio.ddp-run-fsdp-run-sharding-per", {"sharding"}},
      {"memory", "sent-bytes-ratio.summaries-rank-0-really-sent", {"ddp_sent", "fsdp_sent", "ratio", "ddp_calls", "fsdp_calls", "ring_ratio"}},
      {"memory", "sent-bytes-ratio.summaries-rank-0-really-sent-per", {"ddp_sent", "fsdp_sent", "ratio", "ddp_calls", "fsdp_calls", "ring_ratio"}},
      {"memory", "sent-bytes-ratio.summaries-rank-0-sent-per", {"ddp_sent", "fsdp_sent", "ratio", "ddp_calls", "fsdp_calls"}},
      {"memory", "bf16-all-gather-bytes.two-fsdp-runs-one-bf16", {"ranks"}},
      {"memory", "bf16-all-gather-bytes.two-fsdp-runs-one-bf16-parameters", {"ranks"}},
      {"memory", "bf16-all-gather-bytes.summaries-per-step-bf16-run", {"bf16_bytes", "fp32_bytes", "ratio", "bf16_calls", "fp32_calls"}},
      {"memory", "oom-needed-vs-budget.run-memory-budget-per-rank", {"budget", "strategy", "ranks"}},
      {"memory", "oom-needed-vs-budget.run-memory-budget-per-rank-stopped", {"budget", "strategy", "ranks"}},
      {"memory", "oom-needed-vs-budget.rank-already-held-asked-more", {"rank", "holding", "needed", "category", "unit", "budget"}},
      {"memory", "oom-needed-vs-budget.received-other-ranks-gradients-had", {}},
      {"memory", "oom-needed-vs-budget.activations-alone-larger-than-budget", {"budget"}},
      {"memory", "oom-needed-vs-budget.no-rank-mpi-stopped-job", {}},
      {"memory", "oom-needed-vs-budget.budget-applies-sum-over-all", {}},
      {"memory", "oom-needed-vs-budget.every-rank-holds-same-bytes", {"rank", "strategy"}},
      {"memory", "oom-needed-vs-budget.trace-s-oom-record-rank", {"rank", "holding", "needed", "category", "unit", "budget", "race"}},
      {"model-parallel", "fill-and-drain-only.only-fill-drain-formula-counts", {}},
      {"model-parallel", "time-the-formula-leaves-out.time-formula-leaves-out-each", {}},
      {"model-parallel", "unequal-stages.unequal-stages-stage-time-formula", {}},
      {"model-parallel", "bubble-fraction.pipeline-run-schedule-p-m", {"schedule", "stages", "microbatches", "stage", "measured", "theory", "virtual_stages", "gap"}},
      {"model-parallel", "bubble-fraction.formula-holds-only-gpus-cpu", {}},
      {"model-parallel", "bubble-fraction.summary-stage-idle-steady-step", {"stages", "microbatches", "stage", "measured", "theory", "virtual_stages"}},
      {"model-parallel", "bubble-change.two-pipeline-runs-m-m", {"from_m", "to_m", "from_theory", "to_theory", "stages"}},
      {"model-parallel", "bubble-change.from-0-to-1", {"from", "to"}},
      {"model-parallel", "bubble-change.summaries-bubble-measured-m-m", {"from_m", "to_m", "from_measured", "to_measured", "from_theory", "to_theory"}},
      {"model-parallel", "activation-bytes-per-message.pipeline-run-batch-hidden-width", {"batch", "microbatches", "cols", "rank", "peer"}},
      {"model-parallel", "activation-bytes-per-message.one-micro-batch-hidden-4", {"bytes", "rows", "cols"}},
      {"model-parallel", "activation-bytes-per-message.hidden-one-byte-per-value", {"bytes", "rows", "cols"}},
      {"model-parallel", "activation-bytes-per-message.whole-batch-hidden-4-bytes", {"bytes", "batch", "cols"}},
      {"model-parallel", "activation-bytes-per-message.block-s-inner-width-4", {"bytes", "rows", "cols"}},
      {"model-parallel", "activation-bytes-per-message.activation-gradient-travel-together", {"bytes"}},
      {"model-parallel", "activation-bytes-per-message.trace-s-send-record-tensor", {"rows", "cols", "bytes"}},
      {"model-parallel", "peak-activation-memory.pipeline-run-schedule-what-rank", {"schedule", "microbatches", "rank"}},
      {"model-parallel", "peak-activation-memory.summary-peak-category-activations-rank", {"peak", "rank", "microbatches"}},
      {"model-parallel", "tp-all-reduces-per-block.2-one-after-row-parallel", {}},
      {"model-parallel", "tp-all-reduces-per-block.1-only-forward-sum-partial", {}},
      {"model-parallel", "tp-all-reduces-per-block.4-one-after-each-two", {}},
      {"model-parallel", "tp-all-reduces-per-block.0-each-rank-computes-slice", {}},
      {"model-parallel", "tp-all-reduces-per-block.3-forward-backward-optimizer-step", {}},
      {"model-parallel", "tp-all-reduces-per-block.tensor-parallel-run-how-many", {"ranks", "blocks"}},
      {"model-parallel", "tp-all-reduces-per-block.trace-counts", {"count"}},
      {"model-parallel", "tp-all-reduces-per-block.summary-all-reduces-per-rank", {"count", "steps", "blocks", "per_block"}},
      {"names", "strategy-name.pipeline", {}},
      {"names", "strategy-name.tensor-parallel", {}},
      {"names", "category-name.parameter-shard", {}},
      {"names", "category-name.parameters-full-replica", {}},
      {"names", "category-name.gathered-parameters", {}},
      {"names", "category-name.gradients", {}},
      {"names", "category-name.gradient-shard", {}},
      {"names", "category-name.optimizer-state", {}},
      {"names", "category-name.activations", {}},
      {"names", "category-name.communication-buffers", {}},
      {"names", "unit.KiB", {}},
      {"names", "unit.MiB", {}},
      {"names", "unit.GiB", {}},
      {"names", "unit.B", {}},
      {"names", "unit.ms", {}},
      {"moments", "kind-word.forward-pass", {}},
      {"moments", "kind-word.backward-pass", {}},
      {"moments", "kind-word.optimizer-step", {}},
      {"moments", "kind-word.compute", {}},
      {"moments", "first-all-gather.run-rank-all-gathered-full", {"rank", "unit", "bytes", "ranks", "at", "shard_bytes", "duration"}},
      {"moments", "gathered-freed.run-rank-freed-s-gathered", {"rank", "bytes", "unit", "at", "total"}},
      {"moments", "first-reduce-scatter.run-rank-reduce-scattered-gradients", {"rank", "unit", "bytes", "at", "ranks", "e_bytes_n"}},
      {"moments", "persistent-memory.run-rank-held-between-steps", {"rank", "held", "model", "model_times_4"}},
      {"moments", "prefetch-overlap.run-rank-s-all-gather", {"rank", "unit", "kind", "other_unit", "overlap", "duration"}},
      {"moments", "all-reduce.run-rank-all-reduced-inside", {"rank", "bytes", "unit", "at", "ranks", "duration"}},
      {"moments", "all-reduce.run-rank-all-reduced-gradients", {"rank", "bytes", "unit", "others", "at"}},
      {"moments", "bubble.run-stage-waited-t-step", {"stage", "waited", "what", "at", "step", "stage_share", "theory", "stages", "microbatches", "measured"}},
      {"moments", "bubble.activation", {}},
      {"moments", "bubble.gradient", {}},
      {"moments", "activation-send.run-rank-sent-micro-batch", {"rank", "micro", "peer", "at", "rows", "cols", "bytes"}},
      {"moments", "out-of-memory.run-rank-needed-more-unit", {"rank", "needed", "category", "unit", "holding", "budget", "total", "at"}},
      {"lesson-checks", "busy-machine.ranks-waited-cpu-core-up", {"share"}},
      {"lesson-checks", "plain-verdict.run-showed-lesson-s-point", {"what", "measured", "expected"}},
      {"lesson-checks", "plain-verdict.lesson-s-point-not-show", {"what", "measured", "expected"}},
      {"lesson-checks", "bubble-check.run-showed-lesson-s-point", {"measured", "theory"}},
      {"lesson-checks", "bubble-check.hand-offs-between-stages", {}},
      {"lesson-checks", "bubble-check.schedule-run-optimizer-step-stage", {}},
      {"lesson-checks", "bubble-check.slower-ops", {}},
      {"lesson-checks", "bubble-check.unexplained", {}},
      {"lesson-checks", "bubble-check.waiting-cpu-cores", {}},
      {"lesson-checks", "bubble-check.lesson-s-point-not-show", {"measured", "theory", "points", "causes", "schedule_alone"}},
      {"lesson-checks", "prefetch-check.rank-0-s-exposed-communication", {}},
      {"lesson-checks", "prefetch-check.not-shown-real-machine-each", {"ratio", "replay_ratio"}},
      {"lesson-checks", "ddp-check.rank-0-s-exposed-communication", {}},
      {"lesson-checks", "straggler-check.share-step-rank-0-waited", {}},
      {"lesson-checks", "zero-stages-check.rank-0-s-persistent-bytes", {}},
      {"lesson-checks", "mixed-precision-check.all-gathers-bytes-bf16-over", {}},
      {"lesson-checks", "accumulation-check.all-reduces-per-step-without", {}},
      {"lesson-checks", "checkpointing-check.rank-0-s-activation-peak", {}},
      {"lesson-checks", "finished-check.runs-ended-lesson-expects", {}},
      {"lesson-checks", "finished-check.run-not-end-lesson-expects", {}},
      {"prediction-checks", "compare.predicted-run-s-model-needs", {"predicted", "actual"}},
      {"prediction-checks", "compare.predicted-run-s-model-needs-4", {"predicted", "actual"}},
      {"prediction-checks", "compare.predicted-run-measured-well-predicted", {"predicted", "actual"}},
      {"prediction-checks", "compare.predicted-run-measured-look-moment", {"predicted", "actual"}},
  };
  return specs;
}

namespace {

std::string joinedNames(const std::vector<std::string_view>& names) {
  std::string out;
  for (const auto n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out.empty() ? "none" : out;
}

// Each problem of one language's text: a placeholder that names no parameter of the
// message, gives the wrong number of plural forms for the language, or is not closed
// on its line.
std::vector<std::string> placeholderIssues(std::string_view text, std::string_view lang,
                                           const std::vector<std::string_view>& params) {
  std::vector<std::string> issues;
  for (std::size_t at = text.find('{'); at != std::string_view::npos; at = text.find('{', at + 1)) {
    const std::size_t close = text.find_first_of("}\n", at + 1);
    if (close == std::string_view::npos || text[close] != '}') {
      issues.push_back("a '{' without its '}'");
      continue;
    }
    const std::string_view inside = text.substr(at + 1, close - at - 1);
    const std::size_t bar = inside.find('|');
    const std::string_view name = inside.substr(0, bar);
    if (std::find(params.begin(), params.end(), name) == params.end()) {
      issues.push_back("unknown placeholder {" + std::string(inside) + "} (this message's parameters: " +
                       joinedNames(params) + ")");
    } else if (bar != std::string_view::npos) {
      const auto forms = 1 + std::count(inside.begin() + static_cast<std::ptrdiff_t>(bar) + 1, inside.end(), '|');
      if (forms != pluralFormCount(lang))
        issues.push_back("{" + std::string(inside) + "} gives " + std::to_string(forms) + " plural forms; " +
                         std::string(lang) + " needs " + std::to_string(pluralFormCount(lang)) +
                         (lang == "ru" ? " (one|few|many)" : " (one|other)"));
    }
    at = close;
  }
  return issues;
}

} // namespace

ObservationMessages ObservationMessages::load(const std::filesystem::path& dir, Diagnostics& diagnostics) {
  ObservationMessages messages;
  std::vector<std::string_view> files;
  for (const auto& spec : observationMessageSpecs())
    if (std::find(files.begin(), files.end(), spec.file) == files.end()) files.push_back(spec.file);

  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
    if (entry.path().extension() == ".json" &&
        std::find(files.begin(), files.end(), entry.path().stem().string()) == files.end())
      diagnostics.add(entry.path(), "", "unknown-file", "no observation message is read from this file");

  for (const auto file : files) {
    const auto path = dir / (std::string(file) + ".json");
    const auto doc = JsonFile::read(path, diagnostics);
    if (!doc) continue;
    JsonValidator v(path, diagnostics);
    const JsonPath root;
    if (!v.requireObject(*doc, root)) continue;
    v.rejectUnknownKeys(*doc, root, {"format", "messages"});
    if (const auto* format = v.member(*doc, root, "format"); format && *format != 1)
      v.error(root / "format", "format", "unsupported format " + format->dump() + " (this build reads 1)");
    const auto* list = v.member(*doc, root, "messages");
    if (!list) continue;
    if (!list->is_object()) {
      v.error(root / "messages", "wrong-type", "expected an object of messages by id, found " + jsonTypeName(*list));
      continue;
    }
    for (const auto& spec : observationMessageSpecs())
      if (spec.file == file && !list->contains(std::string(spec.id)))
        v.error(root / "messages" / spec.id, "missing-message",
                "the message \"" + std::string(spec.id) + "\" is missing (its parameters: " + joinedNames(spec.params) +
                    ")");
    for (const auto& [id, value] : list->items()) {
      const JsonPath where = root / "messages" / id;
      const auto spec = std::find_if(observationMessageSpecs().begin(), observationMessageSpecs().end(),
                                     [&](const ObservationMessageSpec& s) { return s.file == file && s.id == id; });
      if (spec == observationMessageSpecs().end()) {
        v.error(where, "unknown-message", "no observation code asks for the message \"" + id + "\" in " + path.filename().string());
        continue;
      }
      const auto text = v.localized(value, where);
      if (!text) continue;
      for (const auto& [lang, s] : text->all())
        for (const auto& issue : placeholderIssues(s, lang, spec->params)) v.error(where / lang, "placeholder", issue);
      messages.texts_[id] = *text;
    }
  }
  return messages;
}

ObservationMessages ObservationMessages::loadOrThrow(const std::filesystem::path& dir) {
  Diagnostics diagnostics;
  auto messages = load(dir, diagnostics);
  if (!diagnostics.empty()) throw ValidationError(std::move(diagnostics));
  return messages;
}

const std::string& ObservationMessages::text(std::string_view id, std::string_view lang) const {
  const auto it = texts_.find(id);
  if (it == texts_.end()) throw std::logic_error("no observation message \"" + std::string(id) + "\" is declared");
  return it->second.get(lang);
}

namespace {

std::mutex gMutex;
// Every catalog loaded stays alive: a reference handed out earlier never dangles.
std::vector<std::unique_ptr<const ObservationMessages>> gLoaded;
const ObservationMessages* gCurrent = nullptr;

} // namespace

void useObservationAssets(const std::filesystem::path& assetsDir) {
  auto messages = std::make_unique<const ObservationMessages>(ObservationMessages::loadOrThrow(assetsDir / "observations"));
  const std::lock_guard lock(gMutex);
  gCurrent = messages.get();
  gLoaded.push_back(std::move(messages));
}

const ObservationMessages& observationMessages() {
  const std::lock_guard lock(gMutex);
  if (!gCurrent) {
    const auto dir = findAssetsDir(std::nullopt, currentExecutableDir()) / "observations";
    gLoaded.push_back(std::make_unique<const ObservationMessages>(ObservationMessages::loadOrThrow(dir)));
    gCurrent = gLoaded.back().get();
  }
  return *gCurrent;
}

} // namespace shardlab::quiz
