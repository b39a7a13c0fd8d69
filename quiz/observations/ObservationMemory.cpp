// Observation templates about memory and traffic per rank: persistent-bytes-per-rank,
// persistent-ratio (DDP vs FSDP), sent-bytes-ratio (DDP vs FSDP), bf16-all-gather-bytes
// (bf16 vs fp32 parameters), oom-needed-vs-budget.
#include "quiz/observations/ObservationSupport.h"

#include <algorithm>
#include <cmath>

namespace shardlab::quiz::observation {
namespace {

using text::localized;

const trace::RankSummary* firstRank(const trace::Summary& s) {
  return s.ranksDetail.empty() ? nullptr : &s.ranksDetail.front();
}

LocalizedText whyPersistent(StrategyKind strategy, Sharding sharding, int ranks, int degree) {
  const auto n = std::to_string(ranks), d = std::to_string(degree);
  const std::string stage = std::to_string(zeroStage(sharding)), sharded(name(sharding));
  switch (strategy) {
  case StrategyKind::Ddp:
    return localized("DDP replicates everything: each rank holds all parameters, all gradients and both AdamW moments, "
                     "4 × the parameter bytes.",
                     "DDP réplique tout : chaque rang détient tous les paramètres, tous les gradients et les deux "
                     "moments d'AdamW, soit 4 × la taille des paramètres.",
                     "DDP копирует всё: каждый ранг хранит все параметры, все градиенты и оба момента AdamW — 4 × "
                     "объём параметров.");
  case StrategyKind::Fsdp:
    // In Ψ (the parameter count) at fp32: parameters 4Ψ, gradients 4Ψ, AdamW's moments 8Ψ,
    // each divided by the shard degree where the stage shards it (docs/sharding.md).
    if (sharding == Sharding::NoShard)
      return localized("Your FSDP run (sharding \"{0}\", ZeRO-{1}) shards nothing: each rank keeps the parameters "
                       "(4Ψ), the gradients (4Ψ) and both AdamW moments (8Ψ) in full, 16Ψ bytes for Ψ parameters in "
                       "fp32, as DDP does.",
                       "Votre exécution FSDP (partitionnement « {0} », ZeRO-{1}) ne partitionne rien : chaque rang "
                       "garde en entier les paramètres (4Ψ), les gradients (4Ψ) et les deux moments d'AdamW (8Ψ), "
                       "soit 16Ψ octets pour Ψ paramètres en fp32, comme DDP.",
                       "Ваш запуск FSDP (шардирование «{0}», ZeRO-{1}) ничего не делит: каждый ранг хранит целиком "
                       "параметры (4Ψ), градиенты (4Ψ) и оба момента AdamW (8Ψ) — 16Ψ байт для Ψ параметров в fp32, "
                       "как DDP.",
                       {sharded, stage});
    if (sharding == Sharding::Optimizer)
      return localized("Your FSDP run (sharding \"{0}\", ZeRO-{1}) shards only the optimizer state: each rank keeps "
                       "the full parameters (4Ψ) and gradients (4Ψ) and 1/{2} of AdamW's moments (8Ψ/{2}), 8Ψ + 8Ψ/{2} "
                       "bytes for Ψ parameters in fp32 (each unit padded to a multiple of {2}).",
                       "Votre exécution FSDP (partitionnement « {0} », ZeRO-{1}) ne partitionne que l'état de "
                       "l'optimiseur : chaque rang garde les paramètres (4Ψ) et les gradients (4Ψ) en entier et 1/{2} "
                       "des moments d'AdamW (8Ψ/{2}), soit 8Ψ + 8Ψ/{2} octets pour Ψ paramètres en fp32 (chaque "
                       "unité complétée à un multiple de {2}).",
                       "Ваш запуск FSDP (шардирование «{0}», ZeRO-{1}) делит только состояние оптимизатора: каждый "
                       "ранг хранит параметры (4Ψ) и градиенты (4Ψ) целиком и 1/{2} моментов AdamW (8Ψ/{2}) — "
                       "8Ψ + 8Ψ/{2} байт для Ψ параметров в fp32 (каждый модуль дополнен до кратного {2}).",
                       {sharded, stage, d});
    if (sharding == Sharding::Hybrid)
      return localized("Your FSDP run (sharding \"{0}\") shards everything inside shard groups of {1|rank|ranks} and "
                       "replicates across the {2} groups: between steps each rank keeps 1/{1} of the parameters, "
                       "gradients and AdamW moments, 16Ψ/{1} bytes for Ψ parameters in fp32 — 1/{1}, not 1/{3}.",
                       "Votre exécution FSDP (partitionnement « {0} ») partitionne tout à l'intérieur de groupes de "
                       "{1|rang|rangs} et réplique entre les {2} groupes : entre les pas, chaque rang garde 1/{1} des "
                       "paramètres, des gradients et des moments d'AdamW, soit 16Ψ/{1} octets pour Ψ paramètres en "
                       "fp32 — 1/{1}, pas 1/{3}.",
                       "Ваш запуск FSDP (шардирование «{0}») делит всё внутри групп из {1|ранга|рангов|рангов} и "
                       "копирует между {2} группами: между шагами каждый ранг хранит 1/{1} параметров, градиентов и "
                       "моментов AdamW — 16Ψ/{1} байт для Ψ параметров в fp32, то есть 1/{1}, а не 1/{3}.",
                       {sharded, d, std::to_string(ranks / std::max(1, degree)), n});
    // grad-op follows PyTorch's SHARD_GRAD_OP, only close to ZeRO-2: ZeRO-2 keeps the
    // parameters replicated (4Ψ + 12Ψ/N in fp32), SHARD_GRAD_OP gathers them in the forward,
    // keeps them to the end of the backward, then frees them: between steps a rank holds
    // its shards alone, as under full (docs/sharding.md, "Two honest differences").
    if (sharding == Sharding::GradOp)
      return localized("Your FSDP run (sharding \"{1}\", PyTorch's SHARD_GRAD_OP) keeps only slices between steps: "
                       "each rank holds 1/{0} of the parameters, gradients and AdamW moments, 16Ψ/{0} bytes for Ψ "
                       "parameters in fp32 (each unit padded to a multiple of {0}). It is only close to ZeRO-2, which "
                       "keeps the parameters replicated (4Ψ + 12Ψ/{0}): SHARD_GRAD_OP holds every unit's full "
                       "parameters from its forward to the end of the backward, then frees them.",
                       "Votre exécution FSDP (partitionnement « {1} », SHARD_GRAD_OP de PyTorch) ne garde que des "
                       "tranches entre les pas : chaque rang détient 1/{0} des paramètres, des gradients et des "
                       "moments d'AdamW, soit 16Ψ/{0} octets pour Ψ paramètres en fp32 (chaque unité complétée à un "
                       "multiple de {0}). Ce n'est que proche de ZeRO-2, qui garde les paramètres répliqués "
                       "(4Ψ + 12Ψ/{0}) : SHARD_GRAD_OP détient les paramètres complets de chaque unité de sa passe "
                       "avant jusqu'à la fin de la passe arrière, puis les libère.",
                       "Ваш запуск FSDP (шардирование «{1}», SHARD_GRAD_OP в PyTorch) между шагами хранит только "
                       "доли: каждый ранг держит 1/{0} параметров, градиентов и моментов AdamW — 16Ψ/{0} байт для Ψ "
                       "параметров в fp32 (каждый модуль дополнен до кратного {0}). Это лишь близко к ZeRO-2, где "
                       "параметры хранятся целиком на каждом ранге (4Ψ + 12Ψ/{0}): SHARD_GRAD_OP держит полные "
                       "параметры каждого модуля от его прямого прохода до конца обратного, а затем освобождает их.",
                       {d, sharded});
    // full frees each unit's gathered parameters after its forward and again after its
    // backward: between steps a rank holds its shards alone.
    return localized("Your FSDP run (sharding \"{1}\", ZeRO-{2}) shards everything: between steps each rank keeps 1/{0} "
                     "of the parameters, gradients and AdamW moments, 16Ψ/{0} bytes for Ψ parameters in fp32 (each "
                     "unit padded to a multiple of {0}); the parameters it gathered for the step are already freed.",
                     "Votre exécution FSDP (partitionnement « {1} », ZeRO-{2}) partitionne tout : entre les pas, "
                     "chaque rang garde 1/{0} des paramètres, des gradients et des moments d'AdamW, soit 16Ψ/{0} "
                     "octets pour Ψ paramètres en fp32 (chaque unité complétée à un multiple de {0}) ; les paramètres "
                     "rassemblés pour le pas sont déjà libérés.",
                     "Ваш запуск FSDP (шардирование «{1}», ZeRO-{2}) делит всё: между шагами каждый ранг хранит 1/{0} "
                     "параметров, градиентов и моментов AdamW — 16Ψ/{0} байт для Ψ параметров в fp32 (каждый модуль "
                     "дополнен до кратного {0}); собранные для шага параметры уже освобождены.",
                     {d, sharded, stage});
  case StrategyKind::Pipeline:
    return localized("A pipeline stage holds the full training state of its own units only.",
                     "Un étage de pipeline ne détient l'état d'entraînement complet que de ses propres unités.",
                     "Стадия конвейера хранит полное состояние обучения только своих модулей.");
  case StrategyKind::Tp:
    break;
  }
  return localized("Tensor parallelism splits each block's weights across {0|rank|ranks}; the embedding and output stay "
                   "whole.",
                   "Le parallélisme tensoriel répartit les poids de chaque bloc sur {0|rang|rangs} ; l'embedding et la "
                   "sortie restent entiers.",
                   "Тензорный параллелизм делит веса каждого блока между {0|рангом|рангами|рангами}; эмбеддинг и "
                   "выход остаются "
                   "целыми.",
                   {n});
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
    d.text = localized("Your {0} run on {1|rank|ranks} (model: {2} of fp32 parameters): how many bytes did rank {3} "
                       "hold persistently between steps (parameters, gradients, optimizer state)?",
                       "Votre exécution {0} sur {1|rang|rangs} (modèle : {2} de paramètres fp32) : combien d'octets le "
                       "rang {3} détenait-il en permanence entre les pas (paramètres, gradients, état de l'optimiseur) ?",
                       "Ваш запуск {0} на {1|ранге|рангах|рангах} (модель: {2} параметров fp32): сколько байт ранг {3} хранил "
                       "постоянно между шагами (параметры, градиенты, состояние оптимизатора)?",
                       std::vector<LocalizedText>{strategyName(*strategy), same(std::to_string(in.summary.ranks)),
                                                  same(text::bytes(model)), same(std::to_string(r->rank))});
    d.correct = same(text::bytes(r->persistentBytes));
    // The textbook's totals for the stages (16Ψ, 8Ψ + 8Ψ/N, 16Ψ/N with m = 4Ψ), then multiples of the answer.
    for (double v : distinctFrom(p, {4 * m, 2 * m + 2 * m / n, 4 * m / n, m, 2 * m, p * n, p / n, 2 * p, p / 2}, 0.15, true))
      d.wrong.push_back(same(text::bytes(static_cast<std::int64_t>(std::llround(v)))));
    d.explanation = localized("Your summary: rank {0} held {1} at the end of its last step (persistent_bytes). {2}",
                              "Votre résumé : le rang {0} détenait {1} à la fin de son dernier pas (persistent_bytes). "
                              "{2}",
                              "Ваша сводка: ранг {0} хранил {1} в конце последнего шага (persistent_bytes). {2}",
                              std::vector<LocalizedText>{same(std::to_string(r->rank)), same(text::bytes(r->persistentBytes)),
                                                         whyPersistent(*strategy, in.trace.config()->sharding, in.summary.ranks,
                                                                       in.trace.config()->shardDegree())});
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
    d.text = localized("Your DDP run ({0|rank|ranks}) and your FSDP run ({1|rank|ranks}, sharding \"{2}\"): how many "
                       "times more persistent memory did rank 0 hold under DDP than under FSDP?",
                       "Votre exécution DDP ({0|rang|rangs}) et votre exécution FSDP ({1|rang|rangs}, partitionnement "
                       "« {2} ») : combien de fois plus de mémoire persistante le rang 0 détenait-il sous DDP que sous "
                       "FSDP ?",
                       "Ваш запуск DDP ({0|ранг|ранга|рангов}) и запуск FSDP ({1|ранг|ранга|рангов}, шардирование "
                       "«{2}»): во сколько раз больше постоянной памяти хранил ранг 0 при DDP, чем при FSDP?",
                       {std::to_string(runs->ddpS->ranks), std::to_string(n), sharding});
    d.correct = same(text::times(ratio));
    for (double v : distinctFrom(ratio, {1.0, 2.0, static_cast<double>(n) * 2, static_cast<double>(n) / 2, 0.5,
                                         static_cast<double>(n)},
                                 0.15, true))
      d.wrong.push_back(same(text::times(v)));
    d.explanation = localized("Your summaries: rank 0 held {0} under DDP and {1} under FSDP, {2}. DDP keeps a full "
                              "replica of parameters, gradients and AdamW moments on every rank; your FSDP run "
                              "(sharding \"{4}\") keeps only its 1/{3} shard of each between steps: both shardings "
                              "free the gathered parameters by the end of the step, so the ratio is about {3} "
                              "(less the padding of each unit to a multiple of {3}).",
                              "Vos résumés : le rang 0 détenait {0} sous DDP et {1} sous FSDP, soit {2}. DDP garde une "
                              "réplique complète des paramètres, gradients et moments d'AdamW sur chaque rang ; votre "
                              "exécution FSDP (partitionnement « {4} ») ne garde entre les pas que son shard de 1/{3} "
                              "de chacun : les deux partitionnements libèrent les paramètres rassemblés avant la fin "
                              "du pas, d'où un rapport d'environ {3} (au remplissage près de chaque unité à un "
                              "multiple de {3}).",
                              "Ваши сводки: ранг 0 хранил {0} при DDP и {1} при FSDP, то есть {2}. DDP держит полную "
                              "копию параметров, градиентов и моментов AdamW на каждом ранге; ваш запуск FSDP "
                              "(шардирование «{4}») хранит между шагами только свой шард — 1/{3} каждого: оба режима "
                              "освобождают собранные параметры к концу шага, поэтому отношение близко к {3} (с "
                              "поправкой на дополнение каждого модуля до кратного {3}).",
                              {text::bytes(a->persistentBytes), text::bytes(b->persistentBytes), text::times(ratio),
                               std::to_string(n), sharding});
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
  const auto it = t.job.find("collective_algorithms");
  if (it == t.job.end() || !it->is_object()) return false;
  const auto choice = it->find("choice");
  return choice != it->end() && choice->is_string() && choice->get<std::string>() == "ring";
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
    d.text = measured
                 ? localized("Your DDP run and your FSDP run (sharding \"{0}\"): per training step, how many times the "
                             "bytes a DDP rank really sent (as Open MPI's monitoring counted them) did an FSDP rank send?",
                             "Vos exécutions DDP et FSDP (partitionnement « {0} ») : par pas d'entraînement, un rang FSDP "
                             "a réellement envoyé combien de fois les octets qu'a envoyés un rang DDP (comptés par la "
                             "surveillance d'Open MPI) ?",
                             "Ваши запуски DDP и FSDP (шардирование «{0}»): во сколько раз больше байт за шаг реально "
                             "отправил ранг FSDP, чем ранг DDP (по подсчёту мониторинга Open MPI)?",
                             {sharding})
                 : localized("Your DDP run and your FSDP run (sharding \"{0}\"): per training step, how many times the "
                             "bytes a DDP rank sends does an FSDP rank send, by the ring model of each collective?",
                             "Vos exécutions DDP et FSDP (partitionnement « {0} ») : par pas d'entraînement, selon le "
                             "modèle en anneau de chaque collective, un rang FSDP envoie combien de fois les octets "
                             "qu'envoie un rang DDP ?",
                             "Ваши запуски DDP и FSDP (шардирование «{0}»): во сколько раз больше байт за шаг отправляет "
                             "ранг FSDP, чем ранг DDP, по кольцевой модели каждой коллективной операции?",
                             {sharding});
    d.correct = same(text::times(ratio));
    // The ring model's answer is the most tempting wrong one when the measurement differs from it.
    std::vector<double> candidates{modelledRatio, 1.5, 1.0, 2.0, 0.5, 3.0, 0.25, 4.0};
    for (double v : distinctFrom(ratio, candidates, 0.2, true)) d.wrong.push_back(same(text::times(v)));
    // The explanation counts the run's own calls and bytes per step, whatever the sharding.
    const std::vector<std::string> args{text::bytes(static_cast<std::int64_t>(perA)),
                                        text::bytes(static_cast<std::int64_t>(perB)), text::times(ratio),
                                        perStepByKind(*runs->ddpS, measured), perStepByKind(*runs->fsdpS, measured),
                                        text::times(modelledRatio)};
    // By default shardlab-run runs the collectives as rings (--collective-algorithms ring,
    // recorded in the job record), so what was measured is what the ring model says; a
    // run that left the choice to Open MPI (or a trace older than the option) may differ.
    d.explanation =
        measured && ranAsRings(*runs->ddp) && ranAsRings(*runs->fsdp)
            ? localized("Your summaries: rank 0 really sent {0} per step under DDP and {1} under FSDP, {2} (Open MPI's "
                        "monitoring, measured_sent_bytes). Per step, DDP: {3}; FSDP: {4}. The ring model of the same "
                        "calls gives {5}: both runs ran their all-reduces, all-gathers and reduce-scatters as rings "
                        "(shardlab-run --collective-algorithms ring, the default), so each call sent what the ring "
                        "model says.",
                        "Vos résumés : le rang 0 a réellement envoyé {0} par pas sous DDP et {1} sous FSDP, soit {2} "
                        "(surveillance d'Open MPI, measured_sent_bytes). Par pas, DDP : {3} ; FSDP : {4}. Le modèle en "
                        "anneau des mêmes appels donne {5} : les deux exécutions ont fait leurs all-reduce, all-gather "
                        "et reduce-scatter en anneau (shardlab-run --collective-algorithms ring, le réglage par "
                        "défaut), si bien que chaque appel a envoyé ce que dit le modèle en anneau.",
                        "Ваши сводки: ранг 0 реально отправил {0} за шаг при DDP и {1} при FSDP, то есть {2} "
                        "(мониторинг Open MPI, measured_sent_bytes). За шаг, DDP: {3}; FSDP: {4}. Кольцевая модель тех "
                        "же вызовов даёт {5}: оба запуска выполняли all-reduce, all-gather и reduce-scatter по кольцу "
                        "(shardlab-run --collective-algorithms ring, по умолчанию), поэтому каждый вызов отправил "
                        "столько, сколько говорит кольцевая модель.",
                        args)
        : measured
            ? localized("Your summaries: rank 0 really sent {0} per step under DDP and {1} under FSDP, {2} (Open MPI's "
                        "monitoring, measured_sent_bytes). Per step, DDP: {3}; FSDP: {4}. The ring model of the same "
                        "calls gives {5}: these runs left each collective's algorithm to Open MPI "
                        "(--collective-algorithms open-mpi, or a trace older than that option), and its own algorithm "
                        "can send more or less than a ring for the same call.",
                        "Vos résumés : le rang 0 a réellement envoyé {0} par pas sous DDP et {1} sous FSDP, soit {2} "
                        "(surveillance d'Open MPI, measured_sent_bytes). Par pas, DDP : {3} ; FSDP : {4}. Le modèle en "
                        "anneau des mêmes appels donne {5} : ces exécutions ont laissé Open MPI choisir l'algorithme "
                        "de chaque collective (--collective-algorithms open-mpi, ou une trace antérieure à cette "
                        "option), et l'algorithme qu'il choisit peut envoyer plus ou moins qu'un anneau pour le même "
                        "appel.",
                        "Ваши сводки: ранг 0 реально отправил {0} за шаг при DDP и {1} при FSDP, то есть {2} "
                        "(мониторинг Open MPI, measured_sent_bytes). За шаг, DDP: {3}; FSDP: {4}. Кольцевая модель тех "
                        "же вызовов даёт {5}: в этих запусках алгоритм каждой коллективной операции выбирал Open MPI "
                        "(--collective-algorithms open-mpi или трасса, записанная до появления этого параметра), а "
                        "его алгоритм может отправить для того же вызова больше или меньше, чем кольцо.",
                        args)
            : localized("Your summaries: rank 0 sent {0} per step under DDP and {1} under FSDP, {2}. These bytes are "
                        "modelled, not measured: sent_bytes applies the ring algorithm's factor to each collective "
                        "your trace records, (N−1)/N of the buffer for all-gather and reduce-scatter, 2(N−1)/N for "
                        "all-reduce. Per step, DDP: {3}; FSDP: {4}.",
                        "Vos résumés : le rang 0 a envoyé {0} par pas sous DDP et {1} sous FSDP, soit {2}. Ces octets "
                        "sont modélisés, non mesurés : sent_bytes applique le facteur de l'algorithme en anneau à "
                        "chaque collective enregistrée dans votre trace, (N−1)/N du tampon pour all-gather et "
                        "reduce-scatter, 2(N−1)/N pour all-reduce. Par pas, DDP : {3} ; FSDP : {4}.",
                        "Ваши сводки: ранг 0 отправлял {0} за шаг при DDP и {1} при FSDP, то есть {2}. Эти байты "
                        "смоделированы, а не измерены: sent_bytes применяет множитель кольцевого алгоритма к каждой "
                        "коллективной операции из вашей трассы: (N−1)/N буфера для all-gather и reduce-scatter, "
                        "2(N−1)/N для all-reduce. За шаг, DDP: {3}; FSDP: {4}.",
                        args);
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
    d.text = measured
                 ? localized("Your two FSDP runs on {0|rank|ranks}, one with bf16 parameters (`--param-dtype bf16`) and "
                             "one in fp32: per step, what fraction of the fp32 run's all-gather bytes did the bf16 run "
                             "really send (as Open MPI's monitoring counted them)?",
                             "Vos deux exécutions FSDP sur {0|rang|rangs}, l'une avec des paramètres bf16 "
                             "(`--param-dtype bf16`), l'autre en fp32 : par pas, quelle fraction des octets d'all-gather "
                             "de l'exécution fp32 l'exécution bf16 a-t-elle réellement envoyée (comptés par la "
                             "surveillance d'Open MPI) ?",
                             "Ваши два запуска FSDP на {0|ранге|рангах|рангах}, один с параметрами bf16 "
                             "(`--param-dtype bf16`), другой в fp32: какую долю байтов all-gather запуска fp32 за шаг "
                             "реально отправил запуск bf16 (по подсчёту мониторинга Open MPI)?",
                             {std::to_string(a.ranks)})
                 : localized("Your two FSDP runs on {0|rank|ranks}, one with bf16 parameters (`--param-dtype bf16`) and "
                             "one in fp32: per step, what fraction of the fp32 run's all-gather bytes (the buffers your "
                             "traces record) did the bf16 run move?",
                             "Vos deux exécutions FSDP sur {0|rang|rangs}, l'une avec des paramètres bf16 "
                             "(`--param-dtype bf16`), l'autre en fp32 : par pas, quelle fraction des octets d'all-gather "
                             "de l'exécution fp32 (les tampons que vos traces enregistrent) l'exécution bf16 a-t-elle "
                             "transférée ?",
                             "Ваши два запуска FSDP на {0|ранге|рангах|рангах}, один с параметрами bf16 "
                             "(`--param-dtype bf16`), другой в fp32: какую долю байтов all-gather запуска fp32 за шаг "
                             "(буферов, записанных в ваших трассах) передал запуск bf16?",
                             {std::to_string(a.ranks)});
    d.correct = same(text::times(ratio));
    for (double v : distinctFrom(ratio, {1.0, 0.25, 0.75, 2.0, 0.125}, 0.15, true)) d.wrong.push_back(same(text::times(v)));
    const std::vector<std::string> args{text::bytes(static_cast<std::int64_t>(std::llround(perA))),
                                        text::bytes(static_cast<std::int64_t>(std::llround(perB))), text::times(ratio),
                                        std::to_string(ia->second.count / a.stepsCompleted),
                                        std::to_string(ib->second.count / b.stepsCompleted)};
    d.explanation = localized(
        "Your summaries: per step the bf16 run's all-gathers moved {0}, the fp32 run's {1}, {2}, in {3} and {4} calls. "
        "Before each all-gather a rank converts its fp32 slice to bf16, 2 bytes a value instead of 4; the same values "
        "travel, so the bytes halve. The master shards, the gradients and AdamW's moments stay fp32 in both runs, and "
        "on CPU ranks the gathered values are upcast to fp32 for the compute.",
        "Vos résumés : par pas, les all-gathers de l'exécution bf16 ont transféré {0}, ceux de l'exécution fp32 {1}, "
        "soit {2}, en {3} et {4} appels. Avant chaque all-gather, un rang convertit sa tranche fp32 en bf16, 2 octets "
        "par valeur au lieu de 4 ; les mêmes valeurs voyagent, donc les octets sont divisés par deux. Les shards "
        "maîtres, les gradients et les moments d'AdamW restent en fp32 dans les deux exécutions, et sur des rangs CPU "
        "les valeurs rassemblées sont reconverties en fp32 pour le calcul.",
        "Ваши сводки: за шаг all-gather запуска bf16 передали {0}, запуска fp32 — {1}, то есть {2}, за {3} и {4} "
        "вызовов. Перед каждым all-gather ранг переводит свою часть из fp32 в bf16, 2 байта на значение вместо 4; "
        "передаются те же значения, поэтому байтов вдвое меньше. Мастер-шарды, градиенты и моменты AdamW в обоих "
        "запусках остаются в fp32, а на CPU-рангах собранные значения для вычислений снова переводятся в fp32.",
        args);
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
    const std::vector<LocalizedText> args{same(std::to_string(o.rank)), same(text::bytes(o.holding)),
                                          same(text::bytes(o.needed)), categoryName(o.category), same(o.unit),
                                          same(text::bytes(o.budget)), strategyName(*strategy),
                                          same(std::to_string(in.summary.ranks))};
    d.text = symmetric
                 ? localized("Your {6} run on {7|rank|ranks} with a memory budget of {5} per rank stopped: a rank ran "
                             "out of memory. Why?",
                             "Votre exécution {6} sur {7|rang|rangs} avec un budget mémoire de {5} par rang s'est "
                             "arrêtée : un rang a manqué de mémoire. Pourquoi ?",
                             "Ваш запуск {6} на {7|ранге|рангах|рангах} с бюджетом памяти {5} на ранг остановился: "
                             "одному из рангов не хватило памяти. Почему?",
                             args)
                 : localized("Your {6} run on {7|rank|ranks} with a memory budget of {5} per rank stopped. Which rank "
                             "ran out of memory first, and why?",
                             "Votre exécution {6} sur {7|rang|rangs} avec un budget mémoire de {5} par rang s'est "
                             "arrêtée. Quel rang a manqué de mémoire le premier, et pourquoi ?",
                             "Ваш запуск {6} на {7|ранге|рангах|рангах} с бюджетом памяти {5} на ранг остановился. "
                             "Какому рангу первым не хватило памяти и почему?",
                             args);
    d.correct = localized("Rank {0} already held {1} and asked for {2} more ({3}, unit {4}): past the {5} budget",
                          "Le rang {0} détenait déjà {1} et demandait {2} de plus ({3}, unité {4}) : au-delà du "
                          "budget de {5}",
                          "Ранг {0} уже занимал {1} и запросил ещё {2} ({3}, модуль {4}) — больше бюджета {5}", args);
    d.wrong.push_back(localized("It received the other ranks' gradients and had no room left for them",
                                "Il a reçu les gradients des autres rangs et n'avait plus de place",
                                "Он получил градиенты других рангов, и для них не осталось места"));
    d.wrong.push_back(localized("Its activations alone were larger than the {5} budget",
                                "Ses seules activations dépassaient le budget de {5}",
                                "Одни его активации были больше бюджета {5}", args));
    d.wrong.push_back(localized("No rank did: MPI stopped the job because a rank was too slow",
                                "Aucun : MPI a arrêté le travail parce qu'un rang était trop lent",
                                "Никому: MPI остановил задачу, потому что один ранг был слишком медленным"));
    d.wrong.push_back(localized("The budget applies to the sum over all ranks, and together they exceeded it",
                                "Le budget s'applique à la somme sur tous les rangs, qu'ils ont dépassée ensemble",
                                "Бюджет относится к сумме по всем рангам, и вместе они его превысили"));
    const LocalizedText race =
        symmetric ? localized(" Every {6} rank holds the same bytes, so all of them reach the budget at the same "
                              "allocation; rank {0} is only the one that reported first.",
                              " Chaque rang {6} détient les mêmes octets : tous atteignent le budget à la même "
                              "allocation ; le rang {0} est seulement celui qui l'a signalé le premier.",
                              " Все ранги {6} хранят одинаковые объёмы, поэтому бюджет они превышают на одном и том "
                              "же выделении памяти; ранг {0} просто сообщил об этом первым.",
                              args)
                  : localized("", "", "");
    std::vector<LocalizedText> withRace = args;
    withRace.push_back(race);
    d.explanation = localized("Your trace's oom record: rank {0} held {1} and asked for {2} ({3}, unit {4}); {1} + {2} "
                              "is more than the {5} budget, so the allocator refused and the rank stopped.{8}",
                              "L'enregistrement oom de votre trace : le rang {0} détenait {1} et demandait {2} ({3}, "
                              "unité {4}) ; {1} + {2} dépasse le budget de {5}, l'allocateur a refusé et le rang "
                              "s'est arrêté.{8}",
                              "Запись oom в вашей трассе: ранг {0} занимал {1} и запросил {2} ({3}, модуль {4}); "
                              "{1} + {2} больше бюджета {5}, поэтому аллокатор отказал, и ранг остановился.{8}",
                              withRace);
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
