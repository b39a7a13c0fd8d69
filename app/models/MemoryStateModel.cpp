#include "models/MemoryStateModel.h"

#include <algorithm>

namespace shardlab::app {

namespace st = shardlab::trace;

namespace {
constexpr auto kParamShard = static_cast<std::size_t>(st::Category::ParamShard);
constexpr auto kParamReplica = static_cast<std::size_t>(st::Category::ParamReplica);
constexpr auto kGathered = static_cast<std::size_t>(st::Category::GatheredParams);
constexpr auto kGrads = static_cast<std::size_t>(st::Category::Grads);
constexpr auto kGradShard = static_cast<std::size_t>(st::Category::GradShard);

double progressOf(const st::Event& e, qint64 t) {
  if (e.t1 <= e.t0) return 1.0;
  return std::clamp(static_cast<double>(t - e.t0) / static_cast<double>(e.t1 - e.t0), 0.0, 1.0);
}

// The share of a unit's whole parameters that `bytes` of it are (1 where the job record
// does not give the unit's size: the old traces held whole units only).
double heldShare(const MemoryStateModel& state, int unit, qint64 bytes) {
  const qint64 full = state.unitFullBytes(unit);
  return full > 0 ? std::clamp(static_cast<double>(bytes) / static_cast<double>(full), 0.0, 1.0) : 1.0;
}

// Fills `share` of a unit's slots, from the rank's own slot on (the slice a tensor-parallel
// rank holds is its own), one slot after another; the last one partly, from the bottom.
void fillShare(std::vector<double>& fill, double share, int own) {
  const int n = static_cast<int>(fill.size());
  if (n == 0) return;
  double left = share * n;
  for (int k = 0; k < n && left > 0; ++k, left -= 1.0)
    fill[static_cast<std::size_t>((own + k) % n)] = std::min(1.0, left);
}

int runningCollective(const TraceModel& model, const MemoryStateModel& state, int rank, qint64 t, st::Kind kind,
                      int unit) {
  const int i = state.runningAt(rank, TraceModel::Lane::Comm, t);
  if (i < 0) return -1;
  const auto& e = model.event(i);
  return e.kind == kind && (unit < 0 || e.unit == unit) ? i : -1;
}
} // namespace

void MemoryStateModel::advance(int rank, qint64 t, Cursor& c) const {
  const auto& recs = model_.memoryRecords(rank);
  const auto r = static_cast<std::size_t>(rank);
  if (checkpoints_.size() <= r) checkpoints_.resize(r + 1);
  auto& cps = checkpoints_[r];
  if (c.trace != &model_.trace() || c.next > recs.size()) {
    c = Cursor{};
    cps.clear();
  }
  if (!cps.empty() && (cps.front().trace != &model_.trace() || cps.back().next > recs.size())) cps.clear();
  if (t < c.time || (!cps.empty() && cps.back().next > c.next)) {
    // Restart from the last checkpoint whose records all lie at or before t (exactly
    // where a replay from the start would be after them): backwards always, forwards
    // when it is ahead of the cursor.
    auto it = std::upper_bound(cps.begin(), cps.end(), t, [](qint64 time, const Cursor& cp) { return time < cp.maxT0; });
    if (t < c.time) c = it == cps.begin() ? Cursor{} : *std::prev(it);
    else if (it != cps.begin() && std::prev(it)->next > c.next) c = *std::prev(it);
  }
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
    c.maxT0 = std::max<qint64>(c.maxT0, e.t0);
    ++c.next;
    if (c.next % every_ == 0 && cps.size() == c.next / every_ - 1) {
      cps.push_back(c);
      cps.back().time = INT64_MIN;
    }
  }
  c.time = t;
}

const MemoryStateModel::Cursor& MemoryStateModel::cursorAt(int rank, qint64 t) const {
  if (cache_.size() < static_cast<std::size_t>(model_.rankCount())) cache_.resize(static_cast<std::size_t>(model_.rankCount()));
  auto& c = cache_[static_cast<std::size_t>(rank)];
  if (c.time != t || c.trace != &model_.trace() || c.next < model_.memoryRecords(rank).size()) advance(rank, t, c);
  return c;
}

std::size_t MemoryStateModel::checkpointCount(int rank) const {
  return rank >= 0 && static_cast<std::size_t>(rank) < checkpoints_.size() ? checkpoints_[static_cast<std::size_t>(rank)].size() : 0;
}

RankState MemoryStateModel::stateAt(int rank, qint64 t) const {
  RankState s;
  s.time = t;
  if (rank < 0 || rank >= model_.rankCount()) return s;
  const auto& c = cursorAt(rank, t);
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

CategoryBytes MemoryStateModel::unitBytesAt(int rank, int unit, qint64 t) const {
  if (rank < 0 || rank >= model_.rankCount()) return {};
  const auto& c = cursorAt(rank, t);
  const auto it = c.byUnit.find(unit);
  return it == c.byUnit.end() ? CategoryBytes{} : it->second;
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

qint64 MemoryStateModel::unitFullBytes(int unit) const {
  if (unitFullBytesGeneration_ != model_.generation()) {
    unitFullBytesGeneration_ = model_.generation();
    unitFullBytes_.clear();
    if (const auto& job = model_.trace().job) {
      const auto& m = job->model;
      // fp32 unless the record says otherwise through its total bytes over its parameters.
      double perParameter = 4.0;
      if (m.bytes > 0 && m.parameters > 0) perParameter = static_cast<double>(m.bytes) / static_cast<double>(m.parameters);
      for (const std::int64_t n : m.unitParameters)
        unitFullBytes_.push_back(static_cast<qint64>(static_cast<double>(n) * perParameter + 0.5));
    }
  }
  return unit >= 0 && static_cast<std::size_t>(unit) < unitFullBytes_.size() ? unitFullBytes_[static_cast<std::size_t>(unit)] : 0;
}

std::vector<double> MemoryStateModel::parameterSlots(int rank, int unit,
                                             qint64 t) const {
  const int n = model_.slotCount();
  std::vector<double> fill(static_cast<std::size_t>(n), 0.0);
  const CategoryBytes held = unitBytesAt(rank, unit, t);
  const CategoryBytes untied = unitBytesAt(rank, -1, t);
  if (held[kParamReplica] > 0) {
    // A replica of what the rank's records hold: the whole unit (DDP, a pipeline stage's
    // units) or a slice of it (tensor parallelism: 1/N of each block).
    fillShare(fill, heldShare(*this, unit, held[kParamReplica]), model_.slotOf(rank));
    return fill;
  }
  if (untied[kParamReplica] > 0) {
    std::fill(fill.begin(), fill.end(), 1.0);
    return fill;
  }
  const auto own = static_cast<std::size_t>(model_.slotOf(rank));
  if (held[kParamShard] > 0) fill[own] = 1.0;
  if (int i = runningCollective(model_, *this, rank, t, st::Kind::AllGather, unit); i >= 0) {
    const auto& e = model_.event(i);
    const double p = progressOf(e, t);
    // The participants are this rank's shard group: slot slotOf(j) comes from rank j.
    for (int j = 0; j < model_.rankCount(); ++j)
      if (e.participants & (st::RankMask{1} << j))
        fill[static_cast<std::size_t>(model_.slotOf(j))] = j == rank ? 1.0 : p;
    return fill;
  }
  // A gathered buffer counts as the full copy only once an all-gather of the unit
  // has completed into it (the engine may allocate it before the collective starts).
  if (held[kGathered] > 0) {
    const auto& comm = model_.lane(rank, TraceModel::Lane::Comm);
    auto it = std::upper_bound(comm.begin(), comm.end(), t, [&](qint64 time, int idx) { return time < model_.event(idx).t0; });
    while (it != comm.begin()) {
      --it;
      const auto& e = model_.event(*it);
      if (e.kind == st::Kind::AllGather && e.unit == unit) {
        if (e.t1 <= t) std::fill(fill.begin(), fill.end(), 1.0);
        break;
      }
    }
  }
  return fill;
}

st::Category MemoryStateModel::slotCategory(int rank, int unit, int slot, qint64 t) const {
  if (unitBytesAt(rank, unit, t)[kParamReplica] > 0 || unitBytesAt(rank, -1, t)[kParamReplica] > 0)
    return st::Category::ParamReplica;
  return slot == model_.slotOf(rank) ? st::Category::ParamShard : st::Category::GatheredParams;
}

std::vector<double> MemoryStateModel::gradientSlots(int rank, int unit,
                                            qint64 t) const {
  const int n = model_.slotCount();
  std::vector<double> fill(static_cast<std::size_t>(n), 0.0);
  const CategoryBytes held = unitBytesAt(rank, unit, t);
  if (int i = runningCollective(model_, *this, rank, t, st::Kind::ReduceScatter, unit); i >= 0) {
    const auto& e = model_.event(i);
    const double p = progressOf(e, t);
    for (int j = 0; j < model_.rankCount(); ++j)
      if (e.participants & (st::RankMask{1} << j))
        fill[static_cast<std::size_t>(model_.slotOf(j))] = j == rank ? 1.0 : 1.0 - p;
    return fill;
  }
  if (held[kGrads] > 0) fillShare(fill, heldShare(*this, unit, held[kGrads]), model_.slotOf(rank));
  else if (held[kGradShard] > 0) fill[static_cast<std::size_t>(model_.slotOf(rank))] = 1.0;
  return fill;
}

int MemoryStateModel::lastRecordedAt(int rank, qint64 t) const {
  int latest = -1;
  for (auto lane : {TraceModel::Lane::Compute, TraceModel::Lane::Comm, TraceModel::Lane::Idle}) {
    const auto& starts = model_.laneStarts(rank, lane);
    const auto pos = std::upper_bound(starts.begin(), starts.end(), t) - starts.begin();
    if (pos == 0) continue;
    const int i = model_.lane(rank, lane)[static_cast<std::size_t>(pos - 1)];
    if (latest < 0 || model_.event(i).t1 > model_.event(latest).t1) latest = i;
  }
  return latest;
}

} // namespace shardlab::app
