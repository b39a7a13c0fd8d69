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
      {"fsdp", "collective-count.answer-from-trace", {"count"}},
      {"fsdp", "collective-count.fsdp-gathered-twice", {"count", "units"}},
      {"fsdp", "collective-count.fsdp-gathered-once", {"units"}},
      {"fsdp", "collective-count.fsdp-whole-model", {}},
      {"fsdp", "collective-count.fsdp-three-times", {"count"}},
      {"fsdp", "collective-count.fsdp-one-per-rank", {"ranks"}},
      {"fsdp", "collective-count.ddp-one-per-unit", {"units"}},
      {"fsdp", "collective-count.ddp-two-per-unit", {"count"}},
      {"fsdp", "collective-count.ddp-one-call", {}},
      {"fsdp", "collective-count.ddp-none", {}},
      {"fsdp", "collective-count.fsdp-question", {"ranks", "units", "sharding"}},
      {"fsdp", "collective-count.ddp-question", {"ranks", "units"}},
      {"fsdp", "collective-count.fsdp-explanation", {"total", "steps", "per_step", "units"}},
      {"fsdp", "collective-count.ddp-explanation", {"total", "steps", "per_step", "units"}},
      {"fsdp", "gather-free-sequence.no-rank", {}},
      {"fsdp", "gather-free-sequence.every-rank", {"rank_list"}},
      {"fsdp", "gather-free-sequence.only-the-caller", {"rank"}},
      {"fsdp", "gather-free-sequence.only-the-owner", {"owner", "unit"}},
      {"fsdp", "gather-free-sequence.none-shards-only", {"ranks"}},
      {"fsdp", "gather-free-sequence.question", {"rank", "unit", "at"}},
      {"fsdp", "gather-free-sequence.rank-set", {"holders"}},
      {"fsdp", "gather-free-sequence.explanation", {"at", "holders", "bytes", "unit", "rank"}},
      {"fsdp", "overlap-fraction.question", {"prefetch", "rank", "comm_s"}},
      {"fsdp", "overlap-fraction.question-imported", {"rank", "comm_s"}},
      {"fsdp", "overlap-fraction.on", {}},
      {"fsdp", "overlap-fraction.off", {}},
      {"fsdp", "overlap-fraction.explanation", {"rank", "comm_s", "exposed_comm_s", "hidden", "step_time_s"}},
      {"fsdp", "forwards-per-step.twice-per-unit", {"count", "units"}},
      {"fsdp", "forwards-per-step.once-per-unit", {"units"}},
      {"fsdp", "forwards-per-step.three-per-unit", {"count"}},
      {"fsdp", "forwards-per-step.four-per-unit", {"count"}},
      {"fsdp", "forwards-per-step.question", {"units"}},
      {"fsdp", "forwards-per-step.explanation", {"rank", "forward_ops", "steps_completed", "recompute_ops"}},
      {"fsdp", "reductions-per-step.every-micro-step", {"count", "units", "microsteps"}},
      {"fsdp", "reductions-per-step.last-micro-step-only", {"units", "skipped"}},
      {"fsdp", "reductions-per-step.all-but-last", {"count"}},
      {"fsdp", "reductions-per-step.one-call-per-micro-step", {"microsteps"}},
      {"fsdp", "reductions-per-step.two-per-unit", {"count"}},
      {"fsdp", "reductions-per-step.question-no-sync", {"run", "microsteps", "units", "call"}},
      {"fsdp", "reductions-per-step.question-sync", {"run", "microsteps", "units", "call"}},
      {"fsdp", "reductions-per-step.explanation-no-sync", {"total", "call", "steps", "per_step"}},
      {"fsdp", "reductions-per-step.explanation-sync", {"total", "call", "steps", "per_step"}},
      {"fsdp", "gathered-peak.limit", {"limit"}},
      {"fsdp", "gathered-peak.no-limit", {}},
      {"fsdp", "gathered-peak.mode", {"sharding", "backward_prefetch", "forward_prefetch", "limit"}},
      {"fsdp", "gathered-peak.question", {"mode", "units", "largest", "rank"}},
      {"fsdp", "gathered-peak.explanation", {"rank", "peak", "times_largest"}},
      {"memory", "why-persistent.ddp", {}},
      {"memory", "why-persistent.no-shard", {"sharding", "stage"}},
      {"memory", "why-persistent.optimizer", {"sharding", "stage", "degree"}},
      {"memory", "why-persistent.hybrid", {"sharding", "degree", "groups", "ranks"}},
      {"memory", "why-persistent.grad-op", {"degree", "sharding"}},
      {"memory", "why-persistent.full", {"degree", "sharding", "stage"}},
      {"memory", "why-persistent.pipeline", {}},
      {"memory", "why-persistent.tp", {"ranks"}},
      {"memory", "persistent-bytes-per-rank.question", {"strategy", "ranks", "model", "rank"}},
      {"memory", "persistent-bytes-per-rank.explanation", {"rank", "held", "why"}},
      {"memory", "persistent-ratio.question", {"ddp_ranks", "fsdp_ranks", "sharding"}},
      {"memory", "persistent-ratio.explanation", {"ddp_bytes", "fsdp_bytes", "ratio", "ranks", "sharding"}},
      {"memory", "sent-bytes-ratio.question-measured", {"sharding"}},
      {"memory", "sent-bytes-ratio.question-modelled", {"sharding"}},
      {"memory", "sent-bytes-ratio.explanation-rings", {"ddp_sent", "fsdp_sent", "ratio", "ddp_calls", "fsdp_calls", "ring_ratio"}},
      {"memory", "sent-bytes-ratio.explanation-open-mpi", {"ddp_sent", "fsdp_sent", "ratio", "ddp_calls", "fsdp_calls", "ring_ratio"}},
      {"memory", "sent-bytes-ratio.explanation-modelled", {"ddp_sent", "fsdp_sent", "ratio", "ddp_calls", "fsdp_calls"}},
      {"memory", "bf16-all-gather-bytes.question-measured", {"ranks"}},
      {"memory", "bf16-all-gather-bytes.question-recorded", {"ranks"}},
      {"memory", "bf16-all-gather-bytes.explanation", {"bf16_bytes", "fp32_bytes", "ratio", "bf16_calls", "fp32_calls"}},
      {"memory", "oom-needed-vs-budget.question-symmetric", {"budget", "strategy", "ranks"}},
      {"memory", "oom-needed-vs-budget.question-which-rank", {"budget", "strategy", "ranks"}},
      {"memory", "oom-needed-vs-budget.correct", {"rank", "holding", "needed", "category", "unit", "budget"}},
      {"memory", "oom-needed-vs-budget.wrong-gradients-received", {}},
      {"memory", "oom-needed-vs-budget.wrong-activations-alone", {"budget"}},
      {"memory", "oom-needed-vs-budget.wrong-too-slow", {}},
      {"memory", "oom-needed-vs-budget.wrong-budget-summed", {}},
      {"memory", "oom-needed-vs-budget.race", {"rank", "strategy"}},
      {"memory", "oom-needed-vs-budget.explanation", {"rank", "holding", "needed", "category", "unit", "budget", "race"}},
      {"model-parallel", "bubble-fraction.fill-and-drain-only", {}},
      {"model-parallel", "bubble-fraction.time-the-formula-leaves-out", {}},
      {"model-parallel", "bubble-fraction.unequal-stages", {}},
      {"model-parallel", "bubble-fraction.question", {"schedule", "stages", "microbatches", "stage", "measured", "theory", "virtual_stages", "gap"}},
      {"model-parallel", "bubble-fraction.wrong-gpus-only", {}},
      {"model-parallel", "bubble-fraction.explanation", {"stages", "microbatches", "stage", "measured", "theory", "virtual_stages"}},
      {"model-parallel", "bubble-change.question", {"from_m", "to_m", "from_theory", "to_theory", "stages"}},
      {"model-parallel", "bubble-change.from-to", {"from", "to"}},
      {"model-parallel", "bubble-change.explanation", {"from_m", "to_m", "from_measured", "to_measured", "from_theory", "to_theory"}},
      {"model-parallel", "activation-bytes-per-message.question", {"batch", "microbatches", "cols", "rank", "peer"}},
      {"model-parallel", "activation-bytes-per-message.micro-batch-fp32", {"bytes", "rows", "cols"}},
      {"model-parallel", "activation-bytes-per-message.one-byte-per-value", {"bytes", "rows", "cols"}},
      {"model-parallel", "activation-bytes-per-message.whole-batch", {"bytes", "batch", "cols"}},
      {"model-parallel", "activation-bytes-per-message.inner-width", {"bytes", "rows", "cols"}},
      {"model-parallel", "activation-bytes-per-message.with-its-gradient", {"bytes"}},
      {"model-parallel", "activation-bytes-per-message.explanation", {"rows", "cols", "bytes"}},
      {"model-parallel", "peak-activation-memory.question", {"schedule", "microbatches", "rank"}},
      {"model-parallel", "peak-activation-memory.explanation", {"peak", "rank", "microbatches"}},
      {"model-parallel", "tp-all-reduces-per-block.two", {}},
      {"model-parallel", "tp-all-reduces-per-block.one", {}},
      {"model-parallel", "tp-all-reduces-per-block.four", {}},
      {"model-parallel", "tp-all-reduces-per-block.none", {}},
      {"model-parallel", "tp-all-reduces-per-block.three", {}},
      {"model-parallel", "tp-all-reduces-per-block.question", {"ranks", "blocks"}},
      {"model-parallel", "tp-all-reduces-per-block.answer-from-trace", {"count"}},
      {"model-parallel", "tp-all-reduces-per-block.explanation", {"count", "steps", "blocks", "per_block"}},
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
      {"names", "category-name.unknown", {}},
      {"names", "unit.KiB", {}},
      {"names", "unit.MiB", {}},
      {"names", "unit.GiB", {}},
      {"names", "unit.B", {}},
      {"names", "unit.ms", {}},
      {"moments", "kind-word.forward-pass", {}},
      {"moments", "kind-word.backward-pass", {}},
      {"moments", "kind-word.optimizer-step", {}},
      {"moments", "kind-word.compute", {}},
      {"moments", "moment.first-all-gather", {"rank", "unit", "bytes", "ranks", "at", "shard_bytes", "duration"}},
      {"moments", "moment.gathered-freed", {"rank", "bytes", "unit", "at", "total"}},
      {"moments", "moment.first-reduce-scatter", {"rank", "unit", "bytes", "at", "ranks", "e_bytes_n"}},
      {"moments", "moment.persistent-memory", {"rank", "held", "model", "model_times_4"}},
      {"moments", "moment.prefetch-overlap", {"rank", "unit", "kind", "other_unit", "overlap", "duration"}},
      {"moments", "moment.all-reduce-overlapped", {"rank", "bytes", "unit", "at", "ranks", "duration"}},
      {"moments", "moment.all-reduce", {"rank", "bytes", "unit", "others", "at"}},
      {"moments", "moment.bubble", {"stage", "waited", "what", "at", "step", "stage_share", "theory", "stages", "microbatches", "measured"}},
      {"moments", "moment.bubble-activation", {}},
      {"moments", "moment.bubble-gradient", {}},
      {"moments", "moment.activation-send", {"rank", "micro", "peer", "at", "rows", "cols", "bytes"}},
      {"moments", "moment.out-of-memory", {"rank", "needed", "category", "unit", "holding", "budget", "total", "at"}},
      {"lesson-checks", "check.busy-machine", {"share"}},
      {"lesson-checks", "check.shown", {"what", "measured", "expected"}},
      {"lesson-checks", "check.not-shown", {"what", "measured", "expected"}},
      {"lesson-checks", "bubble-check.shown", {"measured", "theory"}},
      {"lesson-checks", "bubble-check.part-hand-offs", {}},
      {"lesson-checks", "bubble-check.part-schedule", {}},
      {"lesson-checks", "bubble-check.part-slower-ops", {}},
      {"lesson-checks", "bubble-check.part-unexplained", {}},
      {"lesson-checks", "bubble-check.part-cores", {}},
      {"lesson-checks", "bubble-check.not-shown", {"measured", "theory", "points", "causes", "schedule_alone"}},
      {"lesson-checks", "prefetch-check.figure", {}},
      {"lesson-checks", "prefetch-check.not-shown-for-real", {"ratio", "replay_ratio"}},
      {"lesson-checks", "ddp-check.figure", {}},
      {"lesson-checks", "straggler-check.figure", {}},
      {"lesson-checks", "zero-stages-check.figure", {}},
      {"lesson-checks", "mixed-precision-check.figure", {}},
      {"lesson-checks", "accumulation-check.figure", {}},
      {"lesson-checks", "checkpointing-check.figure", {}},
      {"lesson-checks", "zero-bubble-check.figure", {}},
      {"lesson-checks", "finished-check.ended", {}},
      {"lesson-checks", "finished-check.stopped", {}},
      {"prediction-checks", "prediction.model-close", {"predicted", "actual"}},
      {"prediction-checks", "prediction.model-far", {"predicted", "actual"}},
      {"prediction-checks", "prediction.measured-close", {"predicted", "actual"}},
      {"prediction-checks", "prediction.measured-far", {"predicted", "actual"}},
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
    for (const auto& item : list->items()) {
      // Named copies, not a structured binding: the lambda below captures the id, which
      // clang before 16 does not allow for a binding.
      const std::string& id = item.key();
      const nlohmann::json& value = item.value();
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
