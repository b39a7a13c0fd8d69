#include "quiz/observations/EvidenceMoment.h"

#include "quiz/observations/ObservationSupport.h"
#include "quiz/observations/ObservationText.h"

#include <algorithm>
#include <bit>
#include <functional>
#include <vector>

namespace shardlab::quiz {
namespace {

using observation::categoryName;
using observation::modelBytes;
using observation::strategyOf;

using trace::Category;
using trace::Event;
using trace::Kind;
using trace::Record;

bool isBlock(const trace::Trace& t, int unit) { return t.unitName(unit).rfind("block", 0) == 0; }

// The matching event of the lowest rank that has one, earliest first; with
// `preferBlocks`, an event on a block unit wins over one on another unit.
std::optional<std::size_t> firstWhere(const trace::Trace& t, const std::function<bool(const Event&)>& pred,
                                      bool preferBlocks = false) {
  std::optional<std::size_t> best;
  auto better = [&](const Event& a, const Event& b) { // a better than b?
    if (preferBlocks && isBlock(t, a.unit) != isBlock(t, b.unit)) return isBlock(t, a.unit);
    if (a.rank != b.rank) return a.rank < b.rank;
    return a.t0 < b.t0;
  };
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const auto& e = t.events[i];
    if (!pred(e)) continue;
    if (!best || better(e, t.events[*best])) best = i;
  }
  return best;
}


LocalizedText same(const std::string& s) { return text::localized("{0}", "{0}", "{0}", {s}); }

MomentLocation at(const trace::Trace& t, std::string_view moment, std::size_t index) {
  const auto& e = t.events[index];
  MomentLocation m;
  m.moment = std::string(moment);
  m.time = e.t0;
  m.endTime = std::max(e.t0, e.t1);
  m.rank = e.rank;
  m.unit = e.unit;
  m.unitName = e.unit >= 0 ? t.unitName(e.unit) : std::string();
  m.eventIndex = index;
  m.sinceStart = e.t0 - traceOrigin(t);
  return m;
}

LocalizedText kindWord(Kind k) {
  switch (k) {
  case Kind::Forward: return text::localized("the forward pass", "la passe avant", "прямой проход");
  case Kind::Backward: return text::localized("the backward pass", "la passe arrière", "обратный проход");
  case Kind::Optimizer: return text::localized("the optimizer step", "le pas de l'optimiseur", "шаг оптимизатора");
  default: return text::localized("compute", "le calcul", "вычисления");
  }
}

std::optional<MomentLocation> firstAllGather(const trace::Trace& t) {
  const auto i = firstWhere(t, [](const Event& e) { return e.record == Record::Collective && e.kind == Kind::AllGather; }, true);
  if (!i) return std::nullopt;
  auto m = at(t, "first_all_gather", *i);
  const auto& e = t.events[*i];
  const int n = std::max(1, std::popcount(e.participants));
  m.sentence = text::localized(
      "In your run rank {0} all-gathered the full parameters of {1} ({2}) from the {3} ranks' shards at t = {4}; "
      "each rank sent its {5} slice, and the call took {6}.",
      "Dans votre exécution, le rang {0} a rassemblé (all-gather) les paramètres complets de {1} ({2}) à partir des "
      "shards des {3} rangs à t = {4} ; chaque rang a envoyé sa tranche de {5}, et l'appel a duré {6}.",
      "В вашем запуске ранг {0} собрал (all-gather) полные параметры {1} ({2}) из шардов {3|ранга|рангов|рангов} при t = {4}; "
      "каждый ранг отправил свою часть {5}, вызов занял {6}.",
      {text::integer(e.rank), m.unitName, text::bytes(e.bytes), text::integer(n), text::ms(e.t0 - traceOrigin(t)),
       text::bytes(e.bytes / n), text::ms(e.t1 - e.t0)});
  return m;
}

std::optional<MomentLocation> gatheredFreed(const trace::Trace& t) {
  const auto i = firstWhere(
      t, [](const Event& e) { return e.record == Record::Memory && e.category == Category::GatheredParams && e.bytes < 0; },
      true);
  if (!i) return std::nullopt;
  auto m = at(t, "gathered_freed", *i);
  const auto& e = t.events[*i];
  m.sentence = text::localized(
      "In your run rank {0} freed the {1} of {2}'s gathered parameters at t = {3}, right after computing with them; "
      "it then held {4} in all.",
      "Dans votre exécution, le rang {0} a libéré les {1} des paramètres rassemblés de {2} à t = {3}, juste après "
      "s'en être servi ; il détenait alors {4} au total.",
      "В вашем запуске ранг {0} освободил {1} собранных параметров {2} при t = {3}, сразу после вычислений с ними; "
      "после этого у него было {4} всего.",
      {text::integer(e.rank), text::bytes(-e.bytes), m.unitName, text::ms(e.t0 - traceOrigin(t)), text::bytes(e.total)});
  return m;
}

std::optional<MomentLocation> firstReduceScatter(const trace::Trace& t) {
  const auto i =
      firstWhere(t, [](const Event& e) { return e.record == Record::Collective && e.kind == Kind::ReduceScatter; }, true);
  if (!i) return std::nullopt;
  auto m = at(t, "first_reduce_scatter", *i);
  const auto& e = t.events[*i];
  const int n = std::max(1, std::popcount(e.participants));
  m.sentence = text::localized(
      "In your run rank {0} reduce-scattered the gradients of {1} ({2}) at t = {3}: the {4} ranks summed them and "
      "each kept only its own {5} slice.",
      "Dans votre exécution, le rang {0} a fait un reduce-scatter des gradients de {1} ({2}) à t = {3} : les {4} "
      "rangs les ont sommés et chacun n'a gardé que sa tranche de {5}.",
      "В вашем запуске ранг {0} выполнил reduce-scatter градиентов {1} ({2}) при t = {3}: {4|ранг сложил|ранга сложили|рангов сложили} их, и "
      "каждый оставил себе только свою долю {5}.",
      {text::integer(e.rank), m.unitName, text::bytes(e.bytes), text::ms(e.t0 - traceOrigin(t)), text::integer(n),
       text::bytes(e.bytes / n)});
  return m;
}

std::optional<MomentLocation> persistentMemory(const trace::Trace& t, const trace::Summary& s) {
  if (s.stepsCompleted <= 0) return std::nullopt;
  const trace::RankSummary* rank = nullptr;
  for (const auto& r : s.ranksDetail)
    if (r.persistentBytes > 0) {
      rank = &r;
      break;
    }
  if (!rank) return std::nullopt;
  // The end of the last step that rank completed: where persistent_bytes is measured.
  std::optional<std::size_t> last;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const auto& e = t.events[i];
    if (e.record == Record::Step && e.rank == rank->rank && (!last || e.t0 >= t.events[*last].t0)) last = i;
  }
  if (!last) return std::nullopt;
  auto m = at(t, "persistent_memory", *last);
  const std::int64_t model = modelBytes(t);
  m.sentence = text::localized(
      "In your run rank {0} held {1} between steps (parameters, gradients and AdamW moments); the model's parameters "
      "alone are {2}, and its full training state (parameters, gradients, two moments) is {3}.",
      "Dans votre exécution, le rang {0} détenait {1} entre les pas (paramètres, gradients et moments d'AdamW) ; les "
      "paramètres du modèle seuls font {2}, et tout son état d'entraînement (paramètres, gradients, deux moments) {3}.",
      "В вашем запуске ранг {0} хранил {1} между шагами (параметры, градиенты и моменты AdamW); одни параметры модели "
      "занимают {2}, а всё её состояние обучения (параметры, градиенты, два момента) — {3}.",
      {text::integer(rank->rank), text::bytes(rank->persistentBytes), text::bytes(model), text::bytes(4 * model)});
  return m;
}

std::optional<MomentLocation> prefetchOverlap(const trace::Trace& t) {
  // Each rank's compute intervals, then the first all-gather that overlaps one of them.
  std::vector<std::vector<std::size_t>> ops(static_cast<std::size_t>(std::max(0, t.rankCount())));
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const auto& e = t.events[i];
    if (e.record == Record::Op && e.rank >= 0 && static_cast<std::size_t>(e.rank) < ops.size())
      ops[static_cast<std::size_t>(e.rank)].push_back(i);
  }
  std::optional<std::size_t> best;
  std::size_t bestOp = 0;
  std::int64_t bestOverlap = 0;
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const auto& e = t.events[i];
    if (e.record != Record::Collective || e.kind != Kind::AllGather) continue;
    if (e.rank < 0 || static_cast<std::size_t>(e.rank) >= ops.size()) continue;
    if (best && (e.rank > t.events[*best].rank || (e.rank == t.events[*best].rank && e.t0 >= t.events[*best].t0)))
      continue;
    for (std::size_t k : ops[static_cast<std::size_t>(e.rank)]) {
      const auto& o = t.events[k];
      const std::int64_t overlap = std::min(e.t1, o.t1) - std::max(e.t0, o.t0);
      if (overlap > 0) {
        best = i;
        bestOp = k;
        bestOverlap = overlap;
        break;
      }
    }
  }
  if (!best) return std::nullopt;
  auto m = at(t, "prefetch_overlap", *best);
  const auto& e = t.events[*best];
  const auto& o = t.events[bestOp];
  m.sentence = text::localized(
      "In your run rank {0}'s all-gather of {1} ran while {2} of {3} was computing: {4} of its {5} were hidden "
      "behind compute.",
      "Dans votre exécution, l'all-gather de {1} du rang {0} s'est déroulé pendant {2} de {3} : {4} de ses {5} ont "
      "été masquées par le calcul.",
      "В вашем запуске all-gather {1} на ранге {0} шёл одновременно с операцией «{2}» модуля {3}: {4} из его {5} "
      "скрыты за вычислениями.",
      std::vector<LocalizedText>{same(text::integer(e.rank)),
                                 same(m.unitName), kindWord(o.kind),
                                 same(t.unitName(o.unit)),
                                 same(text::ms(bestOverlap)),
                                 same(text::ms(e.t1 - e.t0))});
  return m;
}

std::optional<MomentLocation> allReduce(const trace::Trace& t, bool tensorParallel) {
  if ((strategyOf(t) == StrategyKind::Tp) != tensorParallel) return std::nullopt;
  const auto i = firstWhere(t, [](const Event& e) { return e.record == Record::Collective && e.kind == Kind::AllReduce; },
                            tensorParallel);
  if (!i) return std::nullopt;
  const auto& e = t.events[*i];
  const int n = std::max(1, std::popcount(e.participants));
  if (tensorParallel) {
    auto m = at(t, "tp_all_reduce", *i);
    m.sentence = text::localized(
        "In your run rank {0} all-reduced {1} inside {2} at t = {3}: the {4} ranks each computed a partial result "
        "from their slice of the weights, and the all-reduce summed them; it took {5}.",
        "Dans votre exécution, le rang {0} a fait un all-reduce de {1} à l'intérieur de {2} à t = {3} : chacun des "
        "{4} rangs avait calculé un résultat partiel avec sa tranche des poids, et l'all-reduce les a sommés ; "
        "durée {5}.",
        "В вашем запуске ранг {0} выполнил all-reduce {1} внутри {2} при t = {3}: каждый из {4} рангов посчитал "
        "частичный результат по своей части весов, а all-reduce сложил их; это заняло {5}.",
        {text::integer(e.rank), text::bytes(e.bytes), m.unitName, text::ms(e.t0 - traceOrigin(t)), text::integer(n),
         text::ms(e.t1 - e.t0)});
    return m;
  }
  auto m = at(t, "first_all_reduce", *i);
  m.sentence = text::localized(
      "In your run rank {0} all-reduced the {1} of gradients of {2} with the other {3|rank|ranks} at t = {4}; afterwards "
      "every rank holds the same summed gradient.",
      "Dans votre exécution, le rang {0} a fait un all-reduce des {1} de gradients de {2} avec {3|autre rang|autres rangs} "
      "à t = {4} ; ensuite chaque rang détient le même gradient sommé.",
      "В вашем запуске ранг {0} выполнил all-reduce {1} градиентов {2} с {3|другим рангом|другими рангами|другими рангами} при t = {4}; после "
      "этого у всех рангов одинаковый суммарный градиент.",
      {text::integer(e.rank), text::bytes(e.bytes), m.unitName.empty() ? std::string("-") : m.unitName,
       text::integer(n - 1), text::ms(e.t0 - traceOrigin(t))});
  return m;
}

std::optional<MomentLocation> bubble(const trace::Trace& t, const trace::Summary& s) {
  auto isBubble = [](const Event& e) {
    return e.record == Record::Idle && (e.kind == Kind::WaitActivation || e.kind == Kind::WaitGradient);
  };
  // The stage with the largest measured bubble, its longest wait in a steady step (else any step).
  int stage = -1;
  for (std::size_t r = 0; r < s.bubble.perStage.size(); ++r)
    if (stage < 0 || s.bubble.perStage[r] > s.bubble.perStage[static_cast<std::size_t>(stage)]) stage = static_cast<int>(r);
  std::optional<std::size_t> best;
  for (int pass = 0; pass < 2 && !best; ++pass)
    for (std::size_t i = 0; i < t.events.size(); ++i) {
      const auto& e = t.events[i];
      if (!isBubble(e) || (stage >= 0 && e.rank != stage) || (pass == 0 && e.step < 1)) continue;
      if (!best || e.t1 - e.t0 > t.events[*best].t1 - t.events[*best].t0) best = i;
    }
  if (!best) return std::nullopt;
  auto m = at(t, "bubble", *best);
  const auto& e = t.events[*best];
  const double perStage =
      e.rank >= 0 && static_cast<std::size_t>(e.rank) < s.bubble.perStage.size() ? s.bubble.perStage[static_cast<std::size_t>(e.rank)] : 0.0;
  const bool activation = e.kind == Kind::WaitActivation;
  m.sentence = text::localized(
      "In your run stage {0} waited {1} for {2} at t = {3} (step {4}); over the steady steps this stage was idle {5} "
      "of its time; the run's bubble, all stages together, is {9}, against {6} in theory for p = {7}, m = {8}.",
      "Dans votre exécution, l'étage {0} a attendu {1} {2} à t = {3} (pas {4}) ; sur les pas stables cet étage a été "
      "inactif {5} de son temps ; la bulle de l'exécution, tous les étages ensemble, est de {9}, contre {6} en théorie "
      "pour p = {7}, m = {8}.",
      "В вашем запуске стадия {0} ждала {2} {1} при t = {3} (шаг {4}); на установившихся шагах эта стадия простаивала "
      "{5} своего времени; пузырь всего запуска, по всем стадиям вместе, — {9}, против {6} по теории при p = {7}, m = {8}.",
      std::vector<LocalizedText>{
          same(text::integer(e.rank)),
          same(text::ms(e.t1 - e.t0)),
          activation ? text::localized("an activation", "une activation", "активацию")
                     : text::localized("a gradient", "un gradient", "градиент"),
          same(text::ms(e.t0 - traceOrigin(t))),
          same(text::integer(e.step)),
          same(text::percent(perStage)),
          same(text::percent(s.bubble.theory)),
          same(text::integer(s.bubble.stages)),
          same(text::integer(s.bubble.microbatches)),
          same(text::percent(s.bubble.measured))});
  return m;
}

std::optional<MomentLocation> activationSend(const trace::Trace& t) {
  const auto i = firstWhere(t, [](const Event& e) {
    return e.record == Record::Collective && e.kind == Kind::Send && e.peer > e.rank && e.rows > 0;
  });
  if (!i) return std::nullopt;
  auto m = at(t, "activation_send", *i);
  const auto& e = t.events[*i];
  m.sentence = text::localized(
      "In your run rank {0} sent micro-batch {1}'s activation to rank {2} at t = {3}: a {4}×{5} tensor of fp32, "
      "{4} × {5} × 4 = {6}.",
      "Dans votre exécution, le rang {0} a envoyé l'activation du micro-lot {1} au rang {2} à t = {3} : un tenseur "
      "fp32 de {4}×{5}, soit {4} × {5} × 4 = {6}.",
      "В вашем запуске ранг {0} отправил активацию микробатча {1} к рангу {2} при t = {3}: тензор fp32 {4}×{5}, "
      "{4} × {5} × 4 = {6}.",
      {text::integer(e.rank), text::integer(e.micro), text::integer(e.peer), text::ms(e.t0 - traceOrigin(t)), text::integer(e.rows),
       text::integer(e.cols), text::bytes(e.bytes)});
  return m;
}

std::optional<MomentLocation> outOfMemory(const trace::Trace& t, const trace::Summary& s) {
  if (!s.outOfMemory) return std::nullopt;
  const auto& o = *s.outOfMemory;
  const auto i = firstWhere(t, [&](const Event& e) { return e.record == Record::OutOfMemory && e.rank == o.rank; });
  if (!i) return std::nullopt;
  auto m = at(t, "out_of_memory", *i);
  m.sentence = text::localized(
      "In your run rank {0} needed {1} more ({2}, unit {3}) while holding {4}; with a budget of {5}, the {6} it "
      "would have held do not fit, so it stopped at t = {7}.",
      "Dans votre exécution, le rang {0} avait besoin de {1} de plus ({2}, unité {3}) en détenant déjà {4} ; avec un "
      "budget de {5}, les {6} qu'il aurait détenus ne tiennent pas : il s'est arrêté à t = {7}.",
      "В вашем запуске ранг {0} уже занимал {4} и запросил ещё {1} ({2}, модуль {3}); при бюджете {5} итоговые "
      "{6} не помещаются, и он остановился при t = {7}.",
      std::vector<LocalizedText>{same(text::integer(o.rank)), same(text::bytes(o.needed)), categoryName(o.category),
                                 same(o.unit), same(text::bytes(o.holding)), same(text::bytes(o.budget)),
                                 same(text::bytes(o.holding + o.needed)),
                                 same(text::ms(t.events[*i].t0 - traceOrigin(t)))});
  return m;
}

} // namespace

std::int64_t traceOrigin(const trace::Trace& trace) {
  if (trace.events.empty()) return 0;
  std::int64_t origin = trace.events.front().t0;
  for (const auto& e : trace.events) origin = std::min(origin, e.t0);
  return origin;
}

nlohmann::json MomentLocation::toJson(std::string_view lang) const {
  nlohmann::json j = {{"moment", moment},   {"time_ns", time}, {"since_start_ns", sinceStart}, {"end_ns", endTime}, {"rank", rank},
                      {"unit", unitName},   {"event", eventIndex}};
  if (lang.empty()) j["sentence"] = sentence.toJson();
  else j["sentence"] = sentence.get(lang);
  return j;
}

std::optional<MomentLocation> findMoment(const trace::Trace& trace, const trace::Summary& summary,
                                         std::string_view moment) {
  if (moment == "first_all_gather") return firstAllGather(trace);
  if (moment == "gathered_freed") return gatheredFreed(trace);
  if (moment == "first_reduce_scatter") return firstReduceScatter(trace);
  if (moment == "persistent_memory") return persistentMemory(trace, summary);
  if (moment == "prefetch_overlap") return prefetchOverlap(trace);
  if (moment == "first_all_reduce") return allReduce(trace, false);
  if (moment == "tp_all_reduce") return allReduce(trace, true);
  if (moment == "bubble") return bubble(trace, summary);
  if (moment == "activation_send") return activationSend(trace);
  if (moment == "out_of_memory") return outOfMemory(trace, summary);
  return std::nullopt;
}

std::optional<MomentLocation> findMoment(const trace::Trace& trace, std::string_view moment) {
  return findMoment(trace, trace::summarizeMeasured(trace), moment);
}

} // namespace shardlab::quiz
