// Format: how the app writes the trace's quantities and names, in the UI language
// (QLocale(): a decimal comma in fr and ru). Byte counts as the engine's formatBytes()
// writes them ("1.50 MiB", the summary's figures), in this language ("1,50 Mio"); durations;
// rank lists ("0, 1 and 3"); why a rank failed, as the launcher and the engine word it;
// the names of op kinds and memory categories; a collective call ("all-gather of embedding
// in step 3"). Captions, the run's ending, the summary, the ledger and the views all
// write them through here, so one figure reads the same everywhere.
#pragma once

#include "trace/Event.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace shardlab::app {

class Format {
  Q_DECLARE_TR_FUNCTIONS(Format)
public:
  static QString bytes(qint64 b);
  // A byte count as formatBytes() writes it ("129.2 KiB"), in this language ("129,2 Kio").
  static QString localBytes(const QString& english);
  static QString duration(qint64 ns);
  static QString rankList(const QList<int>& ranks); // "0, 1 and 3"
  // Why a rank failed, as the launcher words it ("exited with status 1", "killed by signal
  // 9 (Killed)", "stopped the job (MPI_Abort, error code 3)"), in the app's language. The
  // engine's own reports are translated too: out of memory ("out of memory on rank 0:
  // needs 129.2 KiB (optimizer_state of block2), budget …, holding …") and the hang
  // watchdog's collective timeout. Any other reason (an engine exception's message) as written.
  static QString failureReason(const QString& reason);
  static QString categoryName(shardlab::trace::Category c); // "optimizer state"
  static QString kindName(shardlab::trace::Kind k);         // "all-gather"
  // The letter a compute block carries in the pipeline diagram: F, B, W (a split
  // backward's weight gradients) or O (the optimizer).
  static QString kindLetter(shardlab::trace::Kind k);
  // "all-gather of embedding in step 3", "receive from rank 0 of block1 in step 2 (micro-batch 0)"
  static QString call(shardlab::trace::Kind kind, const QString& unit, int step, int micro, int peer = -1);
};

} // namespace shardlab::app
