// MemoryStateModel answers "what does rank r hold at time t": memory by category,
// per unit (which units are gathered, which shards are held), which ops and
// collectives are running, and what was freed in a time window. Everything is
// replayed from the trace's mem/op/coll records; nothing is estimated.
#pragma once

#include "TraceModel.h"

#include <array>
#include <map>
#include <vector>

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
  explicit MemoryStateModel(const TraceModel& model) : model_(model) {}

  RankState stateAt(int rank, qint64 t) const;
  // Bytes per category held by `rank` at time t.
  CategoryBytes memoryAt(int rank, qint64 t) const;
  // Units whose full parameters (gathered_params) rank holds at t.
  std::vector<int> gatheredAt(int rank, qint64 t) const;
  // Units whose gathered parameters were freed (went to zero) in (t0, t1].
  std::vector<int> freedBetween(int rank, qint64 t0, qint64 t1) const;
  // The collective (or op) of a lane running on rank at t, or -1.
  int runningAt(int rank, TraceModel::Lane lane, qint64 t) const;
  // Forgets cached replay positions (call when the trace was replaced).
  void invalidate() { cache_.clear(); }

private:
  struct Cursor {
    std::size_t next = 0; // position in memoryRecords(rank)
    qint64 time = INT64_MIN;
    CategoryBytes byCategory{};
    qint64 total = 0;
    std::map<int, CategoryBytes> byUnit;
    int last = -1;
    const void* trace = nullptr;
  };
  void advance(int rank, qint64 t, Cursor& c) const;
  const TraceModel& model_;
  mutable std::vector<Cursor> cache_;
};
