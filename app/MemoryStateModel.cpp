#include "MemoryStateModel.h"

#include <algorithm>

namespace st = shardlab::trace;

void MemoryStateModel::advance(int rank, qint64 t, Cursor& c) const {
  const auto& recs = model_.memoryRecords(rank);
  if (c.trace != &model_.trace() || t < c.time || c.next > recs.size()) c = Cursor{};
  c.trace = &model_.trace();
  while (c.next < recs.size()) {
    const int idx = recs[c.next];
    const auto& e = model_.event(idx);
    if (e.t0 > t) break;
    const auto cat = static_cast<std::size_t>(e.category);
    if (cat < c.byCategory.size()) {
      c.byCategory[cat] = e.value;
      auto& unit = c.byUnit[e.unit];
      unit[cat] = std::max<qint64>(0, unit[cat] + e.bytes);
    }
    c.total = e.total;
    c.last = idx;
    ++c.next;
  }
  c.time = t;
}

RankState MemoryStateModel::stateAt(int rank, qint64 t) const {
  RankState s;
  s.time = t;
  if (rank < 0) return s;
  if (cache_.size() < static_cast<std::size_t>(model_.rankCount())) cache_.resize(static_cast<std::size_t>(model_.rankCount()));
  if (static_cast<std::size_t>(rank) >= cache_.size()) return s;
  auto& c = cache_[static_cast<std::size_t>(rank)];
  advance(rank, t, c);
  s.byCategory = c.byCategory;
  s.total = c.total;
  s.byUnit = c.byUnit;
  s.lastMemory = c.last;
  for (auto lane : {TraceModel::Lane::Compute, TraceModel::Lane::Comm, TraceModel::Lane::Idle}) {
    const int i = runningAt(rank, lane, t);
    if (i >= 0) s.running.push_back(i);
  }
  return s;
}

CategoryBytes MemoryStateModel::memoryAt(int rank, qint64 t) const { return stateAt(rank, t).byCategory; }

std::vector<int> MemoryStateModel::gatheredAt(int rank, qint64 t) const {
  std::vector<int> out;
  const auto s = stateAt(rank, t);
  const auto g = static_cast<std::size_t>(st::Category::GatheredParams);
  for (const auto& [unit, bytes] : s.byUnit)
    if (unit >= 0 && bytes[g] > 0) out.push_back(unit);
  return out;
}

std::vector<int> MemoryStateModel::freedBetween(int rank, qint64 t0, qint64 t1) const {
  std::vector<int> out;
  const auto& recs = model_.memoryRecords(rank);
  auto first = std::lower_bound(recs.begin(), recs.end(), t0,
                                [this](int idx, qint64 t) { return model_.event(idx).t0 <= t; });
  for (auto it = first; it != recs.end(); ++it) {
    const auto& e = model_.event(*it);
    if (e.t0 > t1) break;
    if (e.category == st::Category::GatheredParams && e.bytes < 0 && e.unit >= 0 &&
        std::find(out.begin(), out.end(), e.unit) == out.end()) {
      // Freed if nothing of that unit stays gathered after this record.
      auto after = stateAt(rank, e.t0).byUnit[e.unit][static_cast<std::size_t>(st::Category::GatheredParams)];
      if (after == 0) out.push_back(e.unit);
    }
  }
  return out;
}

int MemoryStateModel::runningAt(int rank, TraceModel::Lane lane, qint64 t) const {
  const auto& v = model_.lane(rank, lane);
  auto it = std::upper_bound(v.begin(), v.end(), t, [this](qint64 time, int idx) { return time < model_.event(idx).t0; });
  // Walk back over a few candidates: lanes rarely overlap themselves.
  for (int k = 0; k < 16 && it != v.begin(); ++k) {
    --it;
    const auto& e = model_.event(*it);
    if (e.t1 > t || (e.t0 == e.t1 && e.t0 == t)) return *it;
  }
  return -1;
}
