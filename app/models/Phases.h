// Phases: the training phases of a run, from its op kinds. For each step, where its
// forward, backward and optimizer phases begin: the earliest op of that kind and step
// on any rank. "Next phase" steps through them in that order (forward → backward →
// optimizer → the next step's forward). Ranks are not all in the same phase at once (a
// pipeline's stages, ZeRO-1's ranks after their slice's step), so the caption names
// the phase of the rank it describes: the same starts, over that rank's ops alone.
#pragma once

#include "trace/Event.h"

#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

namespace shardlab::app {

class TraceModel;

struct Phase {
  qint64 start = 0;
  int step = -1;
  shardlab::trace::Kind kind = shardlab::trace::Kind::None; // Forward, Backward or Optimizer
};

class PhaseIndex {
public:
  // The phases of `model`'s run in time order; recomputed when the run changed.
  const std::vector<Phase>& phases(const TraceModel& model);
  // The phase `t` is in: the last one starting at or before it (none before the first).
  std::optional<Phase> at(const TraceModel& model, qint64 t);
  // The phase rank `rank` is in at `t`, from its own ops.
  std::optional<Phase> at(const TraceModel& model, qint64 t, int rank);
  // The op that begins `phase` (the earliest of its kind and step), or -1.
  int opStarting(const TraceModel& model, const Phase& phase);
  // "Step 2 · backward pass", translated.
  static QString name(const Phase& phase);

private:
  const TraceModel* model_ = nullptr;
  quint64 generation_ = 0;
  std::vector<Phase> phases_;
  std::vector<std::vector<Phase>> byRank_;
};

} // namespace shardlab::app
