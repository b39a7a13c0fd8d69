#include "models/Phases.h"

#include "models/TraceModel.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <utility>

namespace shardlab::app {

namespace st = shardlab::trace;

namespace {
// The order of a step's phases, for ties in time.
int order(st::Kind k) { return k == st::Kind::Forward ? 0 : k == st::Kind::Backward ? 1 : 2; }
// A split backward's two halves (input and weight gradients) are one backward phase.
st::Kind phaseOf(st::Kind k) { return st::isBackward(k) ? st::Kind::Backward : k; }
} // namespace

const std::vector<Phase>& PhaseIndex::phases(const TraceModel& model) {
  if (model_ == &model && generation_ == model.generation()) return phases_;
  model_ = &model;
  generation_ = model.generation();
  // (step, kind) -> its earliest op on any rank, and on each rank. Ops are written when
  // they end, so a live run only ever moves a phase's start earlier as lines arrive.
  using Starts = std::map<std::pair<int, int>, qint64>;
  Starts first;
  std::vector<Starts> firstOnRank(static_cast<std::size_t>(std::max(0, model.rankCount())));
  auto note = [](Starts& starts, const st::Event& e) {
    const auto key = std::pair{e.step, static_cast<int>(phaseOf(e.kind))};
    const auto it = starts.find(key);
    if (it == starts.end() || e.t0 < it->second) starts[key] = e.t0;
  };
  for (const auto& e : model.trace().events) {
    if (e.record != st::Record::Op || e.step < 0) continue;
    if (e.kind != st::Kind::Forward && !st::isBackward(e.kind) && e.kind != st::Kind::Optimizer) continue;
    note(first, e);
    if (e.rank >= 0 && static_cast<std::size_t>(e.rank) < firstOnRank.size())
      note(firstOnRank[static_cast<std::size_t>(e.rank)], e);
  }
  auto inTimeOrder = [](const Starts& starts) {
    std::vector<Phase> out;
    for (const auto& [key, start] : starts) out.push_back({start, key.first, static_cast<st::Kind>(key.second)});
    std::stable_sort(out.begin(), out.end(), [](const Phase& a, const Phase& b) {
      if (a.start != b.start) return a.start < b.start;
      if (a.step != b.step) return a.step < b.step;
      return order(a.kind) < order(b.kind);
    });
    return out;
  };
  phases_ = inTimeOrder(first);
  byRank_.clear();
  for (const auto& starts : firstOnRank) byRank_.push_back(inTimeOrder(starts));
  return phases_;
}

namespace {
std::optional<Phase> lastAtOrBefore(const std::vector<Phase>& all, qint64 t) {
  const auto it = std::upper_bound(all.begin(), all.end(), t, [](qint64 time, const Phase& p) { return time < p.start; });
  if (it == all.begin()) return std::nullopt;
  return *std::prev(it);
}
} // namespace

std::optional<Phase> PhaseIndex::at(const TraceModel& model, qint64 t, int rank) {
  phases(model);
  if (rank < 0 || static_cast<std::size_t>(rank) >= byRank_.size()) return std::nullopt;
  return lastAtOrBefore(byRank_[static_cast<std::size_t>(rank)], t);
}

int PhaseIndex::opStarting(const TraceModel& model, const Phase& phase) {
  for (int r = 0; r < model.rankCount(); ++r)
    for (int i : model.lane(r, TraceModel::Lane::Compute)) {
      const auto& e = model.event(i);
      if (e.t0 > phase.start) break;
      if (e.t0 == phase.start && phaseOf(e.kind) == phase.kind && e.step == phase.step) return i;
    }
  return -1;
}

std::optional<Phase> PhaseIndex::at(const TraceModel& model, qint64 t) { return lastAtOrBefore(phases(model), t); }

QString PhaseIndex::name(const Phase& phase) {
  switch (phase.kind) {
  case st::Kind::Forward: return QCoreApplication::translate("Phases", "Step %1 · forward pass").arg(phase.step);
  case st::Kind::Backward: return QCoreApplication::translate("Phases", "Step %1 · backward pass").arg(phase.step);
  default: return QCoreApplication::translate("Phases", "Step %1 · optimizer step").arg(phase.step);
  }
}

} // namespace shardlab::app
