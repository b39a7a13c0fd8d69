// Reading a trace file for File → Open trace: what can be shown of it, and what the
// learner is told about the rest: the damage the reading stopped at (the events before
// it are kept) and the lines that are no record at all (skipped; the lines after them
// are read). The window replaces its run only when something readable came out.
// A PyTorch profiler trace (a file, or a folder of one file per rank) is imported
// (docs/pytorch-traces.md) and what was not mapped of it is said.
#pragma once

#include "trace/PytorchTrace.h"
#include "trace/Trace.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace shardlab::app {

struct TraceOpening {
  Q_DECLARE_TR_FUNCTIONS(TraceOpening)
public:
  static TraceOpening read(const QString& path);

  shardlab::trace::Trace trace;
  QString problem;        // what could not be read and what was kept; "" when all of it was read
  bool stopped = false;   // the reading stopped at damage (problem says where)
  // Set when the file or folder was a PyTorch profiler trace: what the importer mapped.
  std::optional<shardlab::trace::ImportReport> imported;
  // Something to show: at least one event (a job record alone shows nothing).
  bool readable() const { return !trace.events.empty(); }
  // What the learner is told when nothing can be shown (an empty file, no event, the
  // file unreadable): the run on screen stays.
  QString refusal() const;
  // What is said above a trace that was shown: "" when all of it was read.
  QString damage() const;
  // For the log, when imported: where it came from and the events not mapped, by name.
  QString importNote() const;
  // What the message bar says above an imported trace that was read whole: which panes
  // show it, which have nothing from it.
  QString importedMessage(int stepsCompleted) const;

private:
  QString fileName_;
};

} // namespace shardlab::app
