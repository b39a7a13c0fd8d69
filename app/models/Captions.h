// Captions: one sentence narrating a recorded event, e.g.
// "Rank 2 all-gathers block3: 3 shards of 96 KiB from ranks 0, 1 and 3 — 0.41 ms".
// Only the event's recorded fields are used; the figures and names in it are Format's.
#pragma once

#include "models/TraceModel.h"

#include <QCoreApplication>
#include <QLocale> // its texts follow QLocale() (decimal comma in fr and ru)
#include <QString>

namespace shardlab::app {

class Captions {
  Q_DECLARE_TR_FUNCTIONS(Captions)
public:
  static QString describe(const TraceModel& model, int eventIndex);
  // The caption for the playhead: the latest event started at or before t
  // (collectives first, then failures, then compute), or an empty string.
  static int eventAt(const TraceModel& model, qint64 t);
};

} // namespace shardlab::app
