// Captions: one sentence narrating a recorded event, e.g.
// "Rank 2 all-gathers block3: 3 shards of 96 KiB from ranks 0, 1 and 3 — 0.41 ms".
// Only the event's recorded fields are used.
#pragma once

#include "models/TraceModel.h"

#include <QCoreApplication>
#include <QLocale> // its texts follow QLocale() (decimal comma in fr and ru)
#include <QString>

class Captions {
  Q_DECLARE_TR_FUNCTIONS(Captions)
public:
  static QString describe(const TraceModel& model, int eventIndex);
  // The caption for the playhead: the latest event started at or before t
  // (collectives first, then failures, then compute), or an empty string.
  static int eventAt(const TraceModel& model, qint64 t);
  static QString bytes(qint64 b);
  static QString duration(qint64 ns);
  static QString rankList(const QList<int>& ranks); // "0, 1 and 3"
  // Why a rank failed, as the launcher words it ("exited with status 1", "killed by signal
  // 9 (Killed)", "stopped the job (MPI_Abort, error code 3)"), in the app's language; any
  // The engine's own reports are translated too: out of memory ("out of memory on rank 0:
  // needs 129.2 KiB (optimizer_state of block2), budget …, holding …") and the hang
  // watchdog's collective timeout. Any other reason (an engine exception's message) as written.
  static QString failureReason(const QString& reason);
  // A byte count as formatBytes() writes it ("129.2 KiB"), in this language ("129,2 Kio").
  static QString localBytes(const QString& english);
};
