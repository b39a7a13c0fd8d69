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

using text::localized;

// A count question's choices: the reason given for the count the trace shows is the
// correct one (or the bare count when no reason has it), the other reasons are wrong.
void chooseByCount(Draft& d, const std::map<std::int64_t, LocalizedText>& reasons, std::int64_t actual) {
  if (const auto it = reasons.find(actual); it != reasons.end())
    d.correct = it->second;
  else
    d.correct = localized("{0}, as your trace counts", "{0}, comme le compte votre trace", "{0}, как показывает ваша трасса",
                          {std::to_string(actual)});
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
      reasons[2 * units] = localized("{0}: each of the {1} units is gathered before its forward and again before its "
                                     "backward, because its full parameters are freed right after use",
                                     "{0} : chacune des {1} unités est rassemblée avant sa passe avant puis de nouveau "
                                     "avant sa passe arrière, car ses paramètres complets sont libérés juste après "
                                     "usage",
                                     "{0}: каждый из {1|модуля|модулей|модулей} собирается перед прямым проходом и ещё раз перед "
                                     "обратным, потому что его полные параметры освобождаются сразу после использования",
                                     {std::to_string(2 * units), u});
      reasons[units] = localized("{0}: each of the {1} units is gathered once and kept from its forward to its backward",
                                 "{0} : chacune des {1} unités est rassemblée une fois et gardée de la passe avant à "
                                 "la passe arrière",
                                 "{0}: каждый из {1|модуля|модулей|модулей} собирается один раз и хранится от прямого прохода до "
                                 "обратного",
                                 {u, u});
      reasons[1] = localized("1: the whole model is gathered at once at the start of the step",
                             "1 : tout le modèle est rassemblé d'un coup au début du pas",
                             "1: вся модель собирается сразу в начале шага");
      reasons[3 * units] = localized("{0}: forward, backward and the optimizer step each gather every unit",
                                     "{0} : la passe avant, la passe arrière et l'optimiseur rassemblent chacun chaque "
                                     "unité",
                                     "{0}: прямой проход, обратный проход и шаг оптимизатора собирают каждый модуль",
                                     {std::to_string(3 * units)});
      // Only when no reason above already has that count (8 ranks, 2 layers: 8 = 2 × 4 units).
      reasons.try_emplace(in.summary.ranks,
                          localized("{0}: one per rank, to fetch each rank's shard of the model",
                                    "{0} : un par rang, pour chercher le shard de chaque rang",
                                    "{0}: по одному на ранг, чтобы получить шард каждого ранга", {n}));
    } else {
      reasons[units] = localized("{0}: one per unit, on its gradients as soon as its backward has produced them",
                                 "{0} : une par unité, sur ses gradients dès que sa passe arrière les a produits",
                                 "{0}: по одному на модуль, над его градиентами, как только обратный проход их посчитал",
                                 {u});
      reasons[2 * units] = localized("{0}: one per unit in the forward (parameters) and one in the backward (gradients)",
                                     "{0} : une par unité dans la passe avant (paramètres) et une dans la passe "
                                     "arrière (gradients)",
                                     "{0}: по одному на модуль в прямом проходе (параметры) и в обратном (градиенты)",
                                     {std::to_string(2 * units)});
      reasons[1] = localized("1: all gradients are summed in one call at the end of the backward",
                             "1 : tous les gradients sont sommés en un seul appel à la fin de la passe arrière",
                             "1: все градиенты суммируются одним вызовом в конце обратного прохода");
      reasons[0] = localized("0: each rank trains its replica alone; the replicas are averaged only at the end",
                             "0 : chaque rang entraîne sa réplique seul ; les répliques ne sont moyennées qu'à la fin",
                             "0: каждый ранг обучает свою копию сам; копии усредняются только в конце");
    }
    Draft d;
    d.templateId = id();
    d.lesson = fsdp ? "fsdp-shard-gather-free" : "ddp-replicas";
    d.moment = fsdp ? "first_all_gather" : "first_all_reduce";
    const std::string sharding(name(in.trace.config()->sharding));  // an fsdp or ddp run has a job record
    d.text = fsdp ? localized("Your FSDP run ({0|rank|ranks}, {1|unit|units}, sharding \"{2}\"): how many all-gathers did one "
                              "rank issue per training step, and why?",
                              "Votre exécution FSDP ({0|rang|rangs}, {1|unité|unités}, partitionnement « {2} ») : combien "
                              "d'all-gathers un rang a-t-il lancés par pas d'entraînement, et pourquoi ?",
                              "Ваш запуск FSDP ({0|ранг|ранга|рангов}, {1|модуль|модуля|модулей}, шардирование «{2}»): сколько all-gather "
                              "выполнил один ранг за шаг обучения и почему?",
                              {n, u, sharding})
                  : localized("Your DDP run ({0|rank|ranks}, {1|unit|units}): how many all-reduces did one rank issue per "
                              "training step, and why?",
                              "Votre exécution DDP ({0|rang|rangs}, {1|unité|unités}) : combien d'all-reduces un rang a-t-il "
                              "lancés par pas d'entraînement, et pourquoi ?",
                              "Ваш запуск DDP ({0|ранг|ранга|рангов}, {1|модуль|модуля|модулей}): сколько all-reduce выполнил один ранг за шаг "
                              "обучения и почему?",
                              {n, u});
    chooseByCount(d, reasons, perStep);
    const std::string total = std::to_string(it->second.count), steps = std::to_string(in.summary.stepsCompleted);
    d.explanation = fsdp ? localized("Your trace: {0} all-gathers per rank over {1|step|steps}, {2} per step for {3|unit|units}.",
                                     "Votre trace : {0} all-gathers par rang sur {1} pas, soit {2} par pas pour "
                                     "{3|unité|unités}.",
                                     "Ваша трасса: {0} all-gather на ранг за {1|шаг|шага|шагов}, то есть {2} за шаг на "
                                     "{3|модуль|модуля|модулей}.",
                                     {total, steps, std::to_string(perStep), u})
                         : localized("Your trace: {0} all-reduces per rank over {1|step|steps}, {2} per step for {3|unit|units}.",
                                     "Votre trace : {0} all-reduces par rang sur {1} pas, soit {2} par pas pour "
                                     "{3|unité|unités}.",
                                     "Ваша трасса: {0} all-reduce на ранг за {1|шаг|шага|шагов}, то есть {2} за шаг на "
                                     "{3|модуль|модуля|модулей}.",
                                     {total, steps, std::to_string(perStep), u});
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
      return rs.empty() ? localized("none", "aucun", "ни один") : same(text::rankList(rs));
    };
    std::vector<std::pair<std::vector<int>, LocalizedText>> options{
        {all, localized("Ranks {0}: every rank gathered the whole unit for its own compute",
                        "Rangs {0} : chaque rang a rassemblé l'unité entière pour son propre calcul",
                        "Ранги {0}: каждый ранг собрал весь модуль для своих вычислений", {text::rankList(all)})},
        {{ag.rank}, localized("Only rank {0}, the rank whose call you are looking at",
                              "Seulement le rang {0}, celui dont vous regardez l'appel",
                              "Только ранг {0}, чей вызов вы рассматриваете", {std::to_string(ag.rank)})},
        {{owner}, localized("Only rank {0}, which owns {1}", "Seulement le rang {0}, propriétaire de {1}",
                            "Только ранг {0}, которому принадлежит {1}", {std::to_string(owner), unit})},
        {{}, localized("None: every rank keeps only its 1/{0} shard and computes on it",
                       "Aucun : chaque rang ne garde que son shard de 1/{0} et calcule avec",
                       "Ни один: каждый ранг хранит только свой шард (1/{0}) и считает на нём", {n})}};
    Draft d;
    d.templateId = id();
    d.lesson = "fsdp-shard-gather-free";
    d.moment = "first_all_gather";
    d.text = localized("In your run, rank {0} all-gathered {1} at t = {2}. When this all-gather ended on each rank, "
                       "which ranks held the full parameters of {1}?",
                       "Dans votre exécution, le rang {0} a rassemblé {1} à t = {2}. À la fin de cet all-gather sur "
                       "chaque rang, quels rangs détenaient les paramètres complets de {1} ?",
                       "В вашем запуске ранг {0} собрал {1} при t = {2}. Какие ранги хранили полные параметры {1}, "
                       "когда этот all-gather закончился на каждом из них?",
                       {std::to_string(ag.rank), unit, text::ms(ag.t0 - traceOrigin(in.trace))});
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
      d.correct = localized("Ranks {0}", "Rangs {0}", "Ранги {0}", std::vector<LocalizedText>{set(holders)});
    }
    const auto freed = findMoment(in.trace, in.summary, "gathered_freed");
    d.explanation = localized("Your trace: at the end of their call (rank {4}: t = {0}) ranks {1} each held the {2} of "
                              "{3}'s gathered parameters; the all-gather built the full unit on every rank, and each "
                              "frees it right after computing.",
                              "Votre trace : à la fin de leur appel (rang {4} : t = {0}), les rangs {1} détenaient "
                              "chacun les {2} des paramètres rassemblés de {3} ; l'all-gather a reconstruit l'unité "
                              "entière sur chaque rang, et chacun la libère juste après son calcul.",
                              "Ваша трасса: в конце своего вызова (ранг {4}: t = {0}) ранги {1} хранили по {2} "
                              "собранных параметров {3}; all-gather собрал весь модуль на каждом ранге, и каждый "
                              "освобождает его сразу после вычислений.",
                              std::vector<LocalizedText>{same(text::ms(ag.t1 - traceOrigin(in.trace))), set(holders), same(text::bytes(ag.bytes)),
                                                         same(unit), same(std::to_string(ag.rank))});
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
    d.text = localized("Your FSDP run (prefetch {0}): rank {1} spent {2} s communicating. What fraction of that time "
                       "did compute hide (communication not exposed)?",
                       "Votre exécution FSDP (prélecture {0}) : le rang {1} a passé {2} s à communiquer. Quelle "
                       "part de ce temps le calcul a-t-il masquée (communication non exposée) ?",
                       "Ваш запуск FSDP (предвыборка {0}): ранг {1} потратил на обмен {2} с. Какую долю этого времени "
                       "скрыли вычисления (обмен, который не был «на виду»)?",
                       std::vector<LocalizedText>{prefetch ? localized("on", "activée", "вкл.") : localized("off", "désactivée", "выкл."),
                                                  same(std::to_string(r.rank)), same(text::fixed(r.commS, 4))});
    d.correct = same(text::percent(hidden));
    for (double v : distinctFrom(hidden, {0.5, 0.9, 0.25, 1.0, 0.75, 0.0, 0.1}, 0.1, false))
      d.wrong.push_back(same(text::percent(v)));
    d.explanation = localized("Your summary for rank {0}: comm_s = {1} s, exposed_comm_s = {2} s, so {3} of the "
                              "communication ran while the rank was computing. Not all of it is prefetch's doing: "
                              "the reduce-scatters overlap the rest of the backward with prefetch on or off, so even "
                              "without prefetch this share is not 0. Prefetch adds the next unit's all-gather during "
                              "the current unit's compute, and can hide no more than that compute lasts. On CPU "
                              "ranks hidden communication still shares the cores with compute, so what counts in the "
                              "end is the step time ({4} s here, the summary's step time), which the prefetch lesson "
                              "compares between its two runs.",
                              "Votre résumé pour le rang {0} : comm_s = {1} s, exposed_comm_s = {2} s, donc {3} de la "
                              "communication s'est déroulée pendant le calcul. Tout n'est pas dû à la prélecture : "
                              "les reduce-scatters recouvrent la fin de la passe arrière, avec ou sans prélecture, "
                              "donc même sans elle cette part n'est pas nulle. La prélecture ajoute l'all-gather de "
                              "l'unité suivante pendant le calcul de l'unité courante, et ne peut masquer plus que la "
                              "durée de ce calcul. Sur des rangs CPU, la communication masquée partage encore les "
                              "cœurs avec le calcul ; ce qui compte au bout du compte est la durée du pas (ici {4} s, "
                              "celle du résumé), que la leçon sur la prélecture compare entre ses deux exécutions.",
                              "Ваша сводка для ранга {0}: comm_s = {1} с, exposed_comm_s = {2} с, значит {3} обмена "
                              "шло во время вычислений. Не всё это заслуга предвыборки: reduce-scatter перекрывает "
                              "остаток обратного прохода и с предвыборкой, и без неё, поэтому и без предвыборки эта "
                              "доля не равна 0. Предвыборка добавляет all-gather следующего модуля во время "
                              "вычислений текущего и может скрыть не больше, чем длятся эти вычисления. На "
                              "CPU-рангах скрытый обмен всё равно делит ядра с вычислениями, поэтому в итоге важно "
                              "время шага (здесь {4} с, по сводке), которое урок о предвыборке сравнивает для двух "
                              "своих запусков.",
                              {std::to_string(r.rank), text::fixed(r.commS, 4), text::fixed(r.exposedCommS, 4),
                               text::percent(hidden), text::fixed(in.summary.stepTimeS, 4)});
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
    reasons[2 * units] = localized("{0}: each of the {1} units runs its forward once in the forward pass and again "
                                   "inside the backward, from the input it kept (`recompute`)",
                                   "{0} : chacune des {1} unités fait sa passe avant une fois dans la passe avant, puis "
                                   "de nouveau dans la passe arrière, depuis l'entrée qu'elle a gardée (`recompute`)",
                                   "{0}: каждый из {1|модуля|модулей|модулей} выполняет прямой проход один раз в прямом "
                                   "проходе и ещё раз в обратном, из сохранённого входа (`recompute`)",
                                   {std::to_string(2 * units), u});
    reasons[units] = localized("{0}: one per unit; checkpointing only changes what is kept in memory",
                               "{0} : une par unité ; le recalcul des activations ne change que ce qui est gardé en mémoire",
                               "{0}: по одному на модуль; пересчёт активаций меняет только то, что хранится в памяти",
                               {u});
    reasons[3 * units] = localized("{0}: the forward, the recompute and once more before the optimizer step",
                                   "{0} : la passe avant, le recalcul et une fois de plus avant le pas de l'optimiseur",
                                   "{0}: прямой проход, пересчёт и ещё раз перед шагом оптимизатора",
                                   {std::to_string(3 * units)});
    reasons[4 * units] = localized("{0}: every unit is recomputed for each of its gradients (weights and input)",
                                   "{0} : chaque unité est recalculée pour chacun de ses gradients (poids et entrée)",
                                   "{0}: каждый модуль пересчитывается для каждого своего градиента (весов и входа)",
                                   {std::to_string(4 * units)});
    Draft d;
    d.templateId = id();
    d.lesson = "activation-checkpointing";
    d.moment = "persistent_memory";
    d.text = localized("Your run with activation checkpointing ({0|unit|units}): how many forward computations did rank 0 "
                       "run per training step, and why?",
                       "Votre exécution avec recalcul des activations ({0|unité|unités}) : combien de "
                       "passes avant le rang 0 a-t-il calculées par pas d'entraînement, et pourquoi ?",
                       "Ваш запуск с пересчётом активаций ({0|модуль|модуля|модулей}): сколько прямых "
                       "вычислений выполнил ранг 0 за шаг обучения и почему?",
                       {u});
    chooseByCount(d, reasons, perStep);
    d.explanation = localized("Your summary for rank {0}: {1|forward op|forward ops} over {2|step|steps}, {3} of them marked `recompute` in "
                              "the trace. The forward keeps only each unit's input; the backward runs the unit's forward "
                              "again just before computing its gradients. Less memory for activations, paid for in compute.",
                              "Votre résumé pour le rang {0} : {1|opération de passe avant|opérations de passe avant} sur {2|pas|pas}, dont {3} marquées "
                              "`recompute` dans la trace. La passe avant ne garde que l'entrée de chaque unité ; la passe "
                              "arrière refait la passe avant de l'unité juste avant de calculer ses gradients. Moins de "
                              "mémoire pour les activations, payée en calcul.",
                              "Ваша сводка для ранга {0}: {1|прямая операция|прямые операции|прямых операций} за {2|шаг|шага|шагов}, из них {3} помечены в трассе "
                              "как `recompute`. Прямой проход хранит только вход каждого модуля; обратный проход повторяет "
                              "прямой проход модуля прямо перед вычислением его градиентов. Меньше памяти на активации "
                              "ценой вычислений.",
                              {std::to_string(r.rank), std::to_string(r.forwardOps), std::to_string(in.summary.stepsCompleted),
                               std::to_string(r.recomputeOps)});
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
    reasons[units * k] = localized("{0}: each of the {1} units reduces its gradient at every one of the {2} micro-steps",
                                   "{0} : chacune des {1} unités réduit son gradient à chacun des {2} micro-pas",
                                   "{0}: каждый из {1|модуля|модулей|модулей} сводит свой градиент на каждом из "
                                   "{2|микрошага|микрошагов|микрошагов}",
                                   {std::to_string(units * k), u, kk});
    reasons[units] = localized("{0}: each unit once per step, at the last micro-step; the {1} before it accumulate "
                               "their gradients unreduced (`no_sync`)",
                               "{0} : chaque unité une fois par pas, au dernier micro-pas ; les {1} précédents "
                               "accumulent leurs gradients sans les réduire (`no_sync`)",
                               "{0}: каждый модуль один раз за шаг, на последнем микрошаге; "
                               "{1|предыдущий микрошаг копит|предыдущих микрошага копят|предыдущих микрошагов копят} "
                               "градиенты без сведения (`no_sync`)",
                               {u, std::to_string(k - 1)});
    reasons[units * (k - 1)] = localized("{0}: every micro-step but the last, whose gradients the optimizer reads at once",
                                         "{0} : à chaque micro-pas sauf le dernier, dont l'optimiseur lit les gradients "
                                         "aussitôt",
                                         "{0}: на каждом микрошаге, кроме последнего, чьи градиенты оптимизатор читает "
                                         "сразу",
                                         {std::to_string(units * (k - 1))});
    reasons.try_emplace(k, localized("{0}: one call per micro-step, for the gradients of all units together",
                                     "{0} : un appel par micro-pas, pour les gradients de toutes les unités ensemble",
                                     "{0}: один вызов на микрошаг, для градиентов всех модулей сразу", {kk}));
    reasons.try_emplace(2 * units * k,
                        localized("{0}: two per unit and micro-step, one for the weights and one for the biases",
                                  "{0} : deux par unité et par micro-pas, un pour les poids et un pour les biais",
                                  "{0}: по два на модуль и микрошаг, для весов и для смещений",
                                  {std::to_string(2 * units * k)}));
    Draft d;
    d.templateId = id();
    d.lesson = "gradient-accumulation";
    d.moment = allReduce ? "first_all_reduce" : "first_reduce_scatter";
    const std::string run = strategy == StrategyKind::Ddp ? "DDP" : "FSDP (" + std::string(name(config->sharding)) + ")";
    d.text = config->noSync
                 ? localized("Your {0} run with {1} micro-steps per step and `no_sync` ({2|unit|units}): how many {3} "
                             "calls did one rank issue per optimizer step, and why?",
                             "Votre exécution {0} avec {1} micro-pas par pas et `no_sync` ({2|unité|unités}) : combien "
                             "d'appels {3} un rang a-t-il lancés par pas de l'optimiseur, et pourquoi ?",
                             "Ваш запуск {0} с {1|микрошагом|микрошагами|микрошагами} на шаг и `no_sync` ({2|модуль|модуля|модулей}): сколько "
                             "вызовов {3} выполнил один ранг за шаг оптимизатора и почему?",
                             {run, kk, u, call})
                 : localized("Your {0} run with {1} micro-steps per step, without `no_sync` ({2|unit|units}): how many "
                             "{3} calls did one rank issue per optimizer step, and why?",
                             "Votre exécution {0} avec {1} micro-pas par pas, sans `no_sync` ({2|unité|unités}) : "
                             "combien d'appels {3} un rang a-t-il lancés par pas de l'optimiseur, et pourquoi ?",
                             "Ваш запуск {0} с {1|микрошагом|микрошагами|микрошагами} на шаг, без `no_sync` ({2|модуль|модуля|модулей}): "
                             "сколько вызовов {3} выполнил один ранг за шаг оптимизатора и почему?",
                             {run, kk, u, call});
    chooseByCount(d, reasons, perStep);
    const std::string total = std::to_string(it->second.count), steps = std::to_string(in.summary.stepsCompleted);
    d.explanation =
        config->noSync
            ? localized("Your trace: {0} {1} calls per rank over {2|step|steps}, {3} per step. Under `no_sync` the "
                        "gradients of the first micro-steps are summed locally, in full, and reduced once: less "
                        "communication, but every unit's full gradient is held from the first micro-step's backward to "
                        "the last one's reduction (DDP and no-shard hold full gradients anyway; the sharded stages "
                        "pay for it in memory).",
                        "Votre trace : {0} appels {1} par rang sur {2|pas|pas}, soit {3} par pas. Sous `no_sync`, les "
                        "gradients des premiers micro-pas sont sommés sur place, en entier, et réduits une seule fois : "
                        "moins de communication, mais le gradient complet de chaque unité est gardé de la passe arrière "
                        "du premier micro-pas jusqu'à la réduction du dernier (DDP et `no-shard` gardent de toute façon "
                        "des gradients complets ; les stades partitionnés le paient en mémoire).",
                        "Ваша трасса: {0} вызовов {1} на ранг за {2|шаг|шага|шагов}, то есть {3} за шаг. При `no_sync` "
                        "градиенты первых микрошагов складываются на месте, целиком, и сводятся один раз: обмена "
                        "меньше, но полный градиент каждого модуля хранится от обратного прохода первого микрошага до "
                        "сведения на последнем (DDP и `no-shard` и так хранят полные градиенты; шардированные режимы "
                        "платят за это памятью).",
                        {total, call, steps, std::to_string(perStep)})
            : localized("Your trace: {0} {1} calls per rank over {2|step|steps}, {3} per step. Without `no_sync` every "
                        "micro-step reduces each unit's gradient as soon as its backward has produced it: the sharded "
                        "stages free the full gradient at once, and pay for it with a reduction per micro-step.",
                        "Votre trace : {0} appels {1} par rang sur {2|pas|pas}, soit {3} par pas. Sans `no_sync`, "
                        "chaque micro-pas réduit le gradient de chaque unité dès que sa passe arrière l'a produit : "
                        "les stades partitionnés libèrent aussitôt le gradient complet, au prix d'une réduction par "
                        "micro-pas.",
                        "Ваша трасса: {0} вызовов {1} на ранг за {2|шаг|шага|шагов}, то есть {3} за шаг. Без "
                        "`no_sync` каждый микрошаг сводит градиент каждого модуля, как только обратный проход его "
                        "посчитал: шардированные режимы сразу освобождают полный градиент, платя сведением на каждом "
                        "микрошаге.",
                        {total, call, steps, std::to_string(perStep)});
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
            ? localized("at most {0|gathered unit|gathered units}", "au plus {0|unité rassemblée|unités rassemblées}",
                        "не больше {0|собранного модуля|собранных модулей|собранных модулей}",
                        {std::to_string(*config->limitAllGathers)})
            : localized("no limit on gathered units", "sans limite d'unités rassemblées",
                        "без ограничения собранных модулей");
    const LocalizedText mode = localized(
        "sharding \"{0}\", backward prefetch \"{1}\", forward prefetch {2}, {3}",
        "partitionnement « {0} », prélecture en passe arrière « {1} », prélecture en passe avant {2}, {3}",
        "шардирование «{0}», предвыборка в обратном проходе «{1}», предвыборка в прямом проходе {2}, {3}",
        std::vector<LocalizedText>{same(std::string(name(config->sharding))),
                                   same(std::string(name(config->backwardPrefetch))),
                                   config->forwardPrefetch ? localized("on", "activée", "вкл.")
                                                           : localized("off", "désactivée", "выкл."),
                                   limit});
    Draft d;
    d.templateId = id();
    d.lesson = "fsdp-prefetch";
    d.moment = "prefetch_overlap";
    d.text = localized("Your FSDP run ({0}; {1|unit|units}, the largest {2}): what was rank {3}'s peak of gathered "
                       "parameters (full copies held at once)?",
                       "Votre exécution FSDP ({0} ; {1|unité|unités}, la plus grande de {2}) : quel a été le pic de "
                       "paramètres rassemblés du rang {3} (copies complètes détenues en même temps) ?",
                       "Ваш запуск FSDP ({0}; {1|модуль|модуля|модулей}, самый большой — {2}): каким был пик "
                       "собранных параметров ранга {3} (полных копий одновременно)?",
                       std::vector<LocalizedText>{mode, same(std::to_string(sizes.size())),
                                                  same(text::bytes(sizes.front())), same(std::to_string(r.rank))});
    d.correct = same(text::bytes(peak));
    for (double v : distinctFrom(p, {largest(1), largest(2), largest(3), static_cast<double>(all), p / 2, 2 * p}, 0.15,
                                 true))
      d.wrong.push_back(same(text::bytes(static_cast<std::int64_t>(std::llround(v)))));
    d.explanation = localized(
        "Your summary: rank {0}'s peak of gathered parameters was {1} (peak_by_category), about {2} its largest unit."
        " A prefetch gathers the next unit while the current one still holds its copy: more overlap, one more "
        "unit held. `--backward-prefetch post` issues it after the current unit is freed; `--limit-all-gathers N` "
        "holds a prefetch back while N units are gathered, so N = 1 bounds the peak by the largest unit; under "
        "grad-op the units gathered in the forward stay until the backward.",
        "Votre résumé : le pic de paramètres rassemblés du rang {0} a été de {1} (peak_by_category), environ {2} "
        "sa plus grande unité. Une prélecture rassemble l'unité suivante pendant que l'unité courante garde sa copie : "
        "plus de recouvrement, une unité de plus détenue. `--backward-prefetch post` la lance après la libération de "
        "l'unité courante ; `--limit-all-gathers N` retient une prélecture tant que N unités sont rassemblées, donc "
        "N = 1 borne le pic par la plus grande unité ; sous `grad-op`, les unités rassemblées dans la passe avant "
        "restent jusqu'à la passe arrière.",
        "Ваша сводка: пик собранных параметров ранга {0} составил {1} (peak_by_category), примерно {2} от самого "
        "большого модуля. Предвыборка собирает следующий модуль, пока текущий ещё хранит свою копию: больше "
        "перекрытия, на один модуль больше в памяти. `--backward-prefetch post` запускает её после освобождения "
        "текущего модуля; `--limit-all-gathers N` придерживает предвыборку, пока собрано N модулей, поэтому N = 1 "
        "ограничивает пик самым большим модулем; при `grad-op` модули, собранные в прямом проходе, остаются до "
        "обратного.",
        {std::to_string(r.rank), text::bytes(peak), text::times(p / static_cast<double>(sizes.front()))});
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
