// MemoryLedger: what one rank held, measured from its mem records, beside the textbook's
// Ψ arithmetic for the same model, precisions and ZeRO stage (the Ultra-Scale Playbook's
// 2Ψ + 2Ψ + 12Ψ divided by N at each stage), and each difference explained. No widgets:
// LedgerView draws it.
//
// Persistent parts (parameters, gradients, optimizer state) are measured at the end of
// the rank's last completed step; the transient ones (gathered parameters, activations,
// communication buffers) at their peak, which the Ψ arithmetic leaves out.
#pragma once

#include "models/TraceModel.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace shardlab::app {

struct LedgerLine {
  shardlab::trace::Category category = shardlab::trace::Category::Count; // the categories measured
  shardlab::trace::Category also = shardlab::trace::Category::Count;     // a second one summed in, or Count
  bool persistent = true;               // measured at the last step's end, else at its peak
  std::int64_t measured = 0;            // bytes
  std::optional<double> formulaBytes;   // the Ψ arithmetic; none where it says nothing
  QString formula;                      // "4Ψ/N = 4Ψ/4"
  QString why;                          // the difference, explained
};

// How a run that ran out of memory ended, for the ledger: it has no completed step to
// measure at, so what the rank held is measured when the run stopped.
struct LedgerStop {
  int reportingRank = 0;    // the first rank to report out of memory (summarize())
  int step = -1;            // the step it was in; -1: before its first step (allocating its model state)
  qint64 at = 0;            // when the run stopped: that rank's oom record
  shardlab::trace::Category category = shardlab::trace::Category::Count; // what it was allocating
  QString unit;             // of which unit ("" when none)
  std::int64_t needed = 0, holding = 0, budget = 0; // the refused allocation, what it held, the budget
  bool rankRecorded = true; // whether the ledger's rank has any mem record before the stop
};

struct Ledger {
  int rank = 0;
  double psi = 0;          // Ψ: the model's parameter count
  int degree = 1;          // the ranks sharing one unit's slices (D)
  QString stage;           // "FULL_SHARD (ZeRO-3)", "DDP"; empty where the arithmetic does not apply
  bool applies = false;    // DDP and FSDP: the Ψ arithmetic is data parallelism's
  // Imported from a PyTorch profiler trace: its memory has no category (and its model
  // no size), so the ledger has the rank's uncategorised total only.
  bool imported = false;
  std::vector<LedgerLine> lines;
  // The run ended out of memory: persistent parts measured when it stopped, not at a step's end.
  std::optional<LedgerStop> outOfMemory;
  std::int64_t measuredPersistent() const;
  std::optional<double> formulaPersistent() const;
};

// "4.00 Ψ": bytes as a multiple of the model's parameter count, in the UI's locale;
// empty when Ψ is unknown.
QString psiMultiple(double bytes, double psi);

// The ledger of `rank` in the model's run (empty lines before any memory record).
Ledger memoryLedger(const TraceModel& model, int rank);

} // namespace shardlab::app
