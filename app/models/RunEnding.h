// RunEnding: how a run ended when it did not finish, read from its trace alone, so a
// just-run job and an opened file say the same: a hang (the flight records the hang
// watchdog wrote, compared by trace::hangReport(), as shardlab-run does), or failed
// ranks (their `fail` records: the rank's own, or the launcher's for a rank that was
// killed or exited, as mpirun reported it). Out of memory is not an ending here: the
// out-of-memory lesson shows it in its own way (RankView's box, JobRunner's message).
// The views highlight the culprit ranks (the hang's missing ranks, the failed ones),
// show the waiting ranks in the call they are stuck in, and the window jumps to the
// run's last moments.
#pragma once

#include "trace/HangReport.h"
#include "trace/Trace.h"

#include <QCoreApplication>
#include <QString>

#include <map>
#include <optional>
#include <vector>

namespace shardlab::app {

class RunEnding {
  Q_DECLARE_TR_FUNCTIONS(RunEnding)
public:
  enum class Kind { None, Hang, RankFailed };

  // A call a rank started and never finished: the entry of its flight recorder with END -1.
  struct StuckCall {
    int rank = -1;
    shardlab::trace::Kind kind = shardlab::trace::Kind::None;
    int unit = -1, step = -1, micro = -1, peer = -1;
    qint64 start = 0;  // when the rank entered it
    qint64 seenAt = 0; // when its watchdog wrote the flight recorder: still unfinished then
  };

  static RunEnding of(const shardlab::trace::Trace& trace);

  Kind kind = Kind::None;
  std::optional<shardlab::trace::HangReport> hang;
  std::vector<int> culprits; // the hang's missing ranks, or the ranks that failed first
  std::vector<int> waiting;  // the hang's waiting ranks
  std::map<int, QString> failures; // rank -> why it failed (translated where the launcher's words are known)
  std::map<int, StuckCall> stuck;  // each waiting rank's oldest unfinished call
  qint64 hangSince = 0;   // a hang: when the first waiting rank entered the call
  qint64 moment = 0;      // where the playhead goes: the first watchdog's dump, or the first failure
  qint64 windowStart = 0; // the timeline shows the last moments from here to the run's end
  double timeoutSeconds = 0; // the job's collective_timeout (a hang)

  bool isCulprit(int rank) const;
  bool isWaiting(int rank) const;
  // Whether the playhead at t is in the ending (after the hang began, at or after the failure).
  bool reached(qint64 t) const;
  // The banner: "Hang after 5 s (--collective-timeout): rank 2 never entered all-gather of
  // embedding in step 3; ranks 0, 1 and 3 are waiting in it." or "Rank 2 failed: killed by signal 9 …"
  QString text() const;
  // What a culprit's card and timeline row say: "never entered all-gather of embedding
  // (step 3)", "killed by signal 9 (Killed)".
  QString culpritText(int rank) const;
  // What a waiting rank's card says: "waiting in all-gather of embedding (step 3) for rank 2".
  QString waitingText(const shardlab::trace::Trace& trace, int rank) const;
};

} // namespace shardlab::app
