#include "models/Phases.h"

#include "models/TraceModel.h"

#include <QCoreApplication>

#include <algorithm>
#include <map>
#include <utility>

namespace st = shardlab::trace;

namespace {
// The order of a step's phases, for ties in time.
int order(st::Kind k) { return k == st::Kind::Forward ? 0 : k == st::Kind::Backward ? 1 : 2; }
} // namespace

const std::vector<Phase>& PhaseIndex::phases(const TraceModel& model) {
  if (model_ == &model && generation_ == model.generation()) return phases_;
  model_ = &model;
  generation_ = model.generation();
  // (step, kind) -> its earliest op on any rank. Ops are written when they end, so a
  // live run only ever moves a phase's start earlier as lines arrive.
  std::map<std::pair<int, int>, qint64> first;
  const auto& events = model.trace().events;
  for (const auto& e : events) {
    if (e.record != st::Record::Op || e.step < 0) continue;
    if (e.kind != st::Kind::Forward && e.kind != st::Kind::Backward && e.kind != st::Kind::Optimizer) continue;
    const auto key = std::pair{e.step, static_cast<int>(e.kind)};
    const auto it = first.find(key);
    if (it == first.end() || e.t0 < it->second) first[key] = e.t0;
  }
  phases_.clear();
  for (const auto& [key, start] : first) phases_.push_back({start, key.first, static_cast<st::Kind>(key.second)});
  std::stable_sort(phases_.begin(), phases_.end(), [](const Phase& a, const Phase& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.step != b.step) return a.step < b.step;
    return order(a.kind) < order(b.kind);
  });
  return phases_;
}

std::optional<Phase> PhaseIndex::at(const TraceModel& model, qint64 t) {
  const auto& all = phases(model);
  const auto it = std::upper_bound(all.begin(), all.end(), t, [](qint64 time, const Phase& p) { return time < p.start; });
  if (it == all.begin()) return std::nullopt;
  return *std::prev(it);
}

QString PhaseIndex::name(const Phase& phase) {
  switch (phase.kind) {
  case st::Kind::Forward: return QCoreApplication::translate("Phases", "Step %1 · forward pass").arg(phase.step);
  case st::Kind::Backward: return QCoreApplication::translate("Phases", "Step %1 · backward pass").arg(phase.step);
  default: return QCoreApplication::translate("Phases", "Step %1 · optimizer step").arg(phase.step);
  }
}
