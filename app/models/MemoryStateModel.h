// MemoryStateModel answers "what does rank r hold at time t": memory by category,
// per unit (which units are gathered, which shards are held), which ops and
// collectives are running, and what was freed in a time window. Everything is
// replayed from the trace's mem/op/coll records; nothing is estimated.
// Replay runs forward from a per-rank cursor; a jump backwards restarts from the
// nearest checkpoint (a snapshot taken every kCheckpointEvery mem records of the
// rank), so any query costs at most kCheckpointEvery record steps, not a replay from t=0.
#pragma once

#include "models/TraceModel.h"

#include <algorithm>
#include <array>
#include <map>
#include <vector>

namespace shardlab::app {

using CategoryBytes = std::array<qint64, shardlab::trace::kCategoryCount>;

struct RankState {
  qint64 time = 0;
  CategoryBytes byCategory{}; // bytes held per category
  qint64 total = 0;           // the rank's total (last mem record's rankTotal)
  std::map<int, CategoryBytes> byUnit; // unit -> bytes per category (unit -1: not tied to a unit)
  std::vector<int> running;   // event indices of ops/collectives/idle with t0 <= t < t1
  int lastMemory = -1;        // index of the last mem record at or before t
};

class MemoryStateModel {
public:
  static constexpr std::size_t kCheckpointEvery = 4096;

  explicit MemoryStateModel(const TraceModel& model, std::size_t checkpointEvery = kCheckpointEvery)
      : model_(model), every_(std::max<std::size_t>(1, checkpointEvery)) {}

  RankState stateAt(int rank, qint64 t) const;
  // Bytes per category of one unit (-1: not tied to a unit) that rank holds at t:
  // stateAt(rank, t).byUnit[unit] without copying the whole state.
  CategoryBytes unitBytesAt(int rank, int unit, qint64 t) const;
  // Bytes per category held by `rank` at time t.
  CategoryBytes memoryAt(int rank, qint64 t) const;
  // Units whose full parameters (gathered_params) rank holds at t.
  std::vector<int> gatheredAt(int rank, qint64 t) const;
  // Units whose gathered parameters were freed (went to zero) in (t0, t1].
  std::vector<int> freedBetween(int rank, qint64 t0, qint64 t1) const;
  // The collective (or op) of a lane running on rank at t, or -1.
  int runningAt(int rank, TraceModel::Lane lane, qint64 t) const;
  // Forgets cached replay positions and checkpoints (call when the trace was replaced).
  void invalidate() {
    cache_.clear();
    checkpoints_.clear();
    unitFullBytes_.clear();
    unitFullBytesGeneration_ = ~0ull;
  }
  // The bytes of one unit's whole parameters, from the job record's model
  // (`unit_parameters` × the bytes of one parameter, `bytes` / `parameters`); 0 where the
  // record does not say. A rank's mem records against it give the share of the unit it holds.
  qint64 unitFullBytes(int unit) const;
  // What the rank view draws in a unit's owner slots (one per rank of its shard group).
  // Fill (0..1) of each owner slot of `unit` on `rank` at t: what the rank holds
  // of that unit's parameters, from its mem records and running all-gather. A replica is
  // drawn as the share of the unit its records hold (their bytes against the unit's size in
  // the job record's model): whole units under DDP, 1/N of each block under tensor
  // parallelism, from the rank's own slot on.
  std::vector<double> parameterSlots(int rank, int unit, qint64 t) const;
  // The memory category a filled parameter slot is drawn in (its fill; the unit is named
  // above its slots): a replica (DDP), the rank's own shard, or a slice gathered from
  // owner `slot`.
  shardlab::trace::Category slotCategory(int rank, int unit, int slot, qint64 t) const;
  // Same for the unit's gradients (full grads, own grad shard, slices leaving in a reduce-scatter).
  std::vector<double> gradientSlots(int rank, int unit, qint64 t) const;
  // Of the ops, collectives and idle spans that started on `rank` at or before t (in each
  // lane the latest), the one that ended last, or -1: what the rank did last at the newest
  // recorded instant, where it is between records (events are written when they end).
  int lastRecordedAt(int rank, qint64 t) const;
  // Number of checkpoints taken so far for rank (tests).
  std::size_t checkpointCount(int rank) const;

private:
  struct Cursor {
    std::size_t next = 0; // position in memoryRecords(rank)
    qint64 time = INT64_MIN;
    CategoryBytes byCategory{};
    qint64 total = 0;
    std::map<int, CategoryBytes> byUnit;
    int last = -1;
    const void* trace = nullptr;
    qint64 maxT0 = INT64_MIN; // latest record time replayed (records are in time order per rank)
  };
  const Cursor& cursorAt(int rank, qint64 t) const;
  void advance(int rank, qint64 t, Cursor& c) const;
  const TraceModel& model_;
  std::size_t every_;
  mutable std::vector<Cursor> cache_;
  mutable std::vector<std::vector<Cursor>> checkpoints_; // per rank: state after k * kCheckpointEvery records
  mutable std::vector<qint64> unitFullBytes_;            // per unit, read from the job record once per generation
  mutable quint64 unitFullBytesGeneration_ = ~0ull;
};

} // namespace shardlab::app
