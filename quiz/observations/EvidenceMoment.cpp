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

LocalizedText same(const std::string& s) { return text::same(s); }

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
  case Kind::Forward: return text::message("kind-word.forward-pass");
  case Kind::Backward: return text::message("kind-word.backward-pass");
  case Kind::Optimizer: return text::message("kind-word.optimizer-step");
  default: return text::message("kind-word.compute");
  }
}

std::optional<MomentLocation> firstAllGather(const trace::Trace& t) {
  const auto i = firstWhere(t, [](const Event& e) { return e.record == Record::Collective && e.kind == Kind::AllGather; }, true);
  if (!i) return std::nullopt;
  auto m = at(t, "first_all_gather", *i);
  const auto& e = t.events[*i];
  const int n = std::max(1, std::popcount(e.participants));
  m.sentence = text::message("moment.first-all-gather", {{"rank", text::integer(e.rank)},
                                                         {"unit", m.unitName},
                                                         {"bytes", text::bytes(e.bytes)},
                                                         {"ranks", text::integer(n)},
                                                         {"at", text::ms(e.t0 - traceOrigin(t))},
                                                         {"shard_bytes", text::bytes(e.bytes / n)},
                                                         {"duration", text::ms(e.t1 - e.t0)}});
  return m;
}

std::optional<MomentLocation> gatheredFreed(const trace::Trace& t) {
  const auto i = firstWhere(
      t, [](const Event& e) { return e.record == Record::Memory && e.category == Category::GatheredParams && e.bytes < 0; },
      true);
  if (!i) return std::nullopt;
  auto m = at(t, "gathered_freed", *i);
  const auto& e = t.events[*i];
  m.sentence = text::message("moment.gathered-freed", {{"rank", text::integer(e.rank)},
                                                       {"bytes", text::bytes(-e.bytes)},
                                                       {"unit", m.unitName},
                                                       {"at", text::ms(e.t0 - traceOrigin(t))},
                                                       {"total", text::bytes(e.total)}});
  return m;
}

std::optional<MomentLocation> firstReduceScatter(const trace::Trace& t) {
  const auto i =
      firstWhere(t, [](const Event& e) { return e.record == Record::Collective && e.kind == Kind::ReduceScatter; }, true);
  if (!i) return std::nullopt;
  auto m = at(t, "first_reduce_scatter", *i);
  const auto& e = t.events[*i];
  const int n = std::max(1, std::popcount(e.participants));
  m.sentence = text::message("moment.first-reduce-scatter", {{"rank", text::integer(e.rank)},
                                                             {"unit", m.unitName},
                                                             {"bytes", text::bytes(e.bytes)},
                                                             {"at", text::ms(e.t0 - traceOrigin(t))},
                                                             {"ranks", text::integer(n)},
                                                             {"e_bytes_n", text::bytes(e.bytes / n)}});
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
  m.sentence = text::message("moment.persistent-memory", {{"rank", text::integer(rank->rank)},
                                                          {"held", text::bytes(rank->persistentBytes)},
                                                          {"model", text::bytes(model)},
                                                          {"model_times_4", text::bytes(4 * model)}});
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
  m.sentence = text::message("moment.prefetch-overlap", {{"rank", same(text::integer(e.rank))},
                                                         {"unit", same(m.unitName)},
                                                         {"kind", kindWord(o.kind)},
                                                         {"other_unit", same(t.unitName(o.unit))},
                                                         {"overlap", same(text::ms(bestOverlap))},
                                                         {"duration", same(text::ms(e.t1 - e.t0))}});
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
    m.sentence = text::message("moment.all-reduce-overlapped", {{"rank", text::integer(e.rank)},
                                                                {"bytes", text::bytes(e.bytes)},
                                                                {"unit", m.unitName},
                                                                {"at", text::ms(e.t0 - traceOrigin(t))},
                                                                {"ranks", text::integer(n)},
                                                                {"duration", text::ms(e.t1 - e.t0)}});
    return m;
  }
  auto m = at(t, "first_all_reduce", *i);
  m.sentence = text::message("moment.all-reduce", {{"rank", text::integer(e.rank)},
                                                   {"bytes", text::bytes(e.bytes)},
                                                   {"unit", m.unitName.empty() ? std::string("-") : m.unitName},
                                                   {"others", text::integer(n - 1)},
                                                   {"at", text::ms(e.t0 - traceOrigin(t))}});
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
  m.sentence = text::message("moment.bubble", {{"stage", same(text::integer(e.rank))},
                                               {"waited", same(text::ms(e.t1 - e.t0))},
                                               {"what", activation ? text::message("moment.bubble-activation")
                                                                   : text::message("moment.bubble-gradient")},
                                               {"at", same(text::ms(e.t0 - traceOrigin(t)))},
                                               {"step", same(text::integer(e.step))},
                                               {"stage_share", same(text::percent(perStage))},
                                               {"theory", same(text::percent(s.bubble.theory))},
                                               {"stages", same(text::integer(s.bubble.stages))},
                                               {"microbatches", same(text::integer(s.bubble.microbatches))},
                                               {"measured", same(text::percent(s.bubble.measured))}});
  return m;
}

std::optional<MomentLocation> activationSend(const trace::Trace& t) {
  const auto i = firstWhere(t, [](const Event& e) {
    return e.record == Record::Collective && e.kind == Kind::Send && e.peer > e.rank && e.rows > 0;
  });
  if (!i) return std::nullopt;
  auto m = at(t, "activation_send", *i);
  const auto& e = t.events[*i];
  m.sentence = text::message("moment.activation-send", {{"rank", text::integer(e.rank)},
                                                        {"micro", text::integer(e.micro)},
                                                        {"peer", text::integer(e.peer)},
                                                        {"at", text::ms(e.t0 - traceOrigin(t))},
                                                        {"rows", text::integer(e.rows)},
                                                        {"cols", text::integer(e.cols)},
                                                        {"bytes", text::bytes(e.bytes)}});
  return m;
}

std::optional<MomentLocation> outOfMemory(const trace::Trace& t, const trace::Summary& s) {
  if (!s.outOfMemory) return std::nullopt;
  const auto& o = *s.outOfMemory;
  const auto i = firstWhere(t, [&](const Event& e) { return e.record == Record::OutOfMemory && e.rank == o.rank; });
  if (!i) return std::nullopt;
  auto m = at(t, "out_of_memory", *i);
  m.sentence = text::message("moment.out-of-memory", {{"rank", same(text::integer(o.rank))},
                                                      {"needed", same(text::bytes(o.needed))},
                                                      {"category", categoryName(o.category)},
                                                      {"unit", same(o.unit)},
                                                      {"holding", same(text::bytes(o.holding))},
                                                      {"budget", same(text::bytes(o.budget))},
                                                      {"total", same(text::bytes(o.holding + o.needed))},
                                                      {"at", same(text::ms(t.events[*i].t0 - traceOrigin(t)))}});
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
