// TraceModel: one run in memory, as the app sees it. Owns a shardlab::trace::Trace,
// fills it line by line through TraceParser (a live job) or from a file, and keeps
// the per-rank indexes the views need (lanes sorted by time, memory records,
// stepping points). Numbers shown to the learner come from summary(), i.e. from
// shardlab::trace::summarize(), so the app agrees with shardlab-run and the quiz.
#pragma once

#include "Event.h"
#include "Summary.h"
#include "Trace.h"
#include "TraceReader.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>
#include <vector>

class TraceModel : public QObject {
  Q_OBJECT
public:
  enum class Lane { Compute, Comm, Idle };

  explicit TraceModel(QObject* parent = nullptr);

  // Starts an empty run (a live job is about to stream into it).
  void clear();
  // Reads a whole file. A damaged file keeps what came before the damage; the
  // return value is empty on success or the message naming what and where.
  QString loadFile(const QString& path);
  // Live ingestion: parses the lines, updates the indexes, emits appended() once.
  // Returns the number of lines that were not valid records (the first error is kept).
  int appendLines(const QList<QByteArray>& lines);
  // Replaces the run with an already parsed trace (tests, the compare window).
  void setTrace(shardlab::trace::Trace trace);

  const shardlab::trace::Trace& trace() const { return *trace_; }
  const shardlab::trace::Event& event(int index) const { return trace_->events[static_cast<std::size_t>(index)]; }
  int eventCount() const { return static_cast<int>(trace_->events.size()); }
  // Summary of the run from summarize(); recomputed when events arrived since.
  const shardlab::trace::Summary& summary() const;

  bool isEmpty() const { return trace_->events.empty() && trace_->ranks.empty() && trace_->job.is_null(); }
  int rankCount() const;
  qint64 startTime() const { return tMin_ == INT64_MAX ? 0 : tMin_; }
  qint64 endTime() const { return tMax_; }
  int stepsPlanned() const;
  int stepsDone() const { return stepsDone_; }
  QString strategy() const;
  QString unitName(int unit) const { return QString::fromStdString(trace_->unitName(unit)); }
  int unitCount() const { return static_cast<int>(trace_->units.size()); }

  // "4 CPU ranks (Open MPI, shared memory)", "4 × NVIDIA H200 (NCCL 2.28)".
  QString runLabel() const;
  // "CPU rank 2", "GPU 1 · NVIDIA H200".
  QString rankLabel(int rank) const;
  bool rankIsCpu(int rank) const;

  // Event indices of one rank's lane, sorted by start time.
  const std::vector<int>& lane(int rank, Lane lane) const;
  // Memory records (mem) of one rank in time order.
  const std::vector<int>& memoryRecords(int rank) const;
  // Highest rank total seen on any rank (bytes): the scale of memory bars.
  qint64 peakBytes() const { return peakBytes_; }
  qint64 peakBytes(int rank) const;

  // Sorted start times to step the playhead to.
  const std::vector<qint64>& eventStarts() const;      // ops, collectives, idle, oom, fail
  const std::vector<qint64>& collectiveStarts() const; // collectives
  const std::vector<qint64>& phaseStarts() const;      // compute kind changes, step ends

  // Failures in the trace (OOM or fail records), in order.
  const std::vector<int>& failureEvents() const { return failures_; }
  QString parseError() const { return parseError_; }

Q_SIGNALS:
  void reset();    // a new run (or a cleared one)
  void appended(); // events were added to the current run

private:
  void index(int from);
  void ensureRank(int rank);
  void sortIfNeeded() const;

  std::unique_ptr<shardlab::trace::Trace> trace_;
  std::unique_ptr<shardlab::trace::TraceParser> parser_;
  struct RankIndex {
    std::vector<int> lanes[3];
    std::vector<int> memory;
    qint64 peak = 0;
    shardlab::trace::Kind lastCompute = shardlab::trace::Kind::None;
  };
  mutable std::vector<RankIndex> ranks_;
  mutable std::vector<qint64> eventStarts_, collStarts_, phaseStarts_;
  mutable bool unsorted_ = false;
  mutable std::unique_ptr<shardlab::trace::Summary> summary_;
  mutable int summaryAt_ = -1;
  qint64 tMin_ = INT64_MAX, tMax_ = 0, peakBytes_ = 0;
  int stepsDone_ = 0;
  std::vector<int> failures_;
  QString parseError_;
};
