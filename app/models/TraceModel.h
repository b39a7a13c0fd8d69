// TraceModel: one run in memory, as the app sees it. Owns a shardlab::trace::Trace,
// fills it line by line through TraceParser (a live job) or from a file, and keeps
// the per-rank indexes the views need (lanes sorted by time, memory records,
// stepping points). Numbers shown to the learner come from summary(), i.e. from
// shardlab::trace::summarize(), so the app agrees with shardlab-run and the quiz.
#pragma once

#include "models/RunEnding.h"

#include "trace/Event.h"
#include "trace/Replay.h"
#include "trace/Summary.h"
#include "trace/Trace.h"
#include "trace/TraceReader.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace shardlab::app {

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
  // The run as a Chrome trace (chrome://tracing, Perfetto); false when it cannot be written.
  bool writeChromeTrace(const QString& path) const;
  // Live ingestion: parses the lines, updates the indexes, emits appended() once.
  // Returns the number of lines that were not valid records (the first error is kept).
  int appendLines(const QList<QByteArray>& lines);
  // Replaces the run with an already parsed trace (tests, the compare window).
  void setTrace(shardlab::trace::Trace trace);

  // The run on screen: the measured trace, or a replay of it (showReplay).
  const shardlab::trace::Trace& trace() const { return *trace_; }
  // The measured run, whatever is on screen: what the quiz checks answers against.
  const shardlab::trace::Trace& measured() const { return measured_ ? *measured_ : *trace_; }

  // Shows a replay of the measured run in its place (docs/replay.md), or the
  // measured run again (nullopt). Emits reset(). A new run, file or trace drops it.
  void showReplay(std::optional<shardlab::trace::ReplayMode> mode);
  const std::optional<shardlab::trace::ReplayMode>& replayMode() const { return replayMode_; }
  static QString replayName(shardlab::trace::ReplayMode mode); // what the replay assumes, in words
  // The measured run's lost pipeline stage time taken apart (replays of it); none for
  // other strategies. While events stream in, recomputed at most every `maxAgeMs`.
  const std::optional<shardlab::trace::BubbleBreakdown>& breakdown(int maxAgeMs = 2000) const;
  const shardlab::trace::Event& event(int index) const { return trace_->events[static_cast<std::size_t>(index)]; }
  int eventCount() const { return static_cast<int>(trace_->events.size()); }
  // Summary of the run from summarize(); recomputed when events arrived since.
  const shardlab::trace::Summary& summary() const;
  // The same, but while events stream in recomputed at most every `maxAgeMs` of wall
  // time (summarize() is O(events)): for views painted many times a second.
  const shardlab::trace::Summary& recentSummary(int maxAgeMs = 500) const;

  // Changes whenever the run's content changes (cleared, replaced, events appended):
  // the key of views' cached drawings.
  quint64 generation() const { return generation_; }

  bool isEmpty() const { return trace_->events.empty() && trace_->ranks.empty() && !trace_->job; }
  int rankCount() const { return rankCount_; } // from the job record, or the highest rank seen
  qint64 startTime() const { return tMin_ == INT64_MAX ? 0 : tMin_; }
  qint64 endTime() const { return tMax_; }
  // The job of the run, from the trace's job record (Trace::config()); none before it arrives.
  const std::optional<shardlab::JobConfig>& config() const { return config_; }
  // The run was imported from another program's trace (a PyTorch profiler trace): its
  // job record holds only what that trace shows (docs/pytorch-traces.md).
  bool imported() const { return measured().job && measured().job->imported; }
  int stepsPlanned() const { return config_ ? config_->steps : 0; }
  // Owner slots per unit, as the rank cards draw them: the ranks that share one unit's
  // slices (FSDP's shard degree: all ranks, G under hybrid, 1 under no-shard); under
  // the other strategies every rank holds whole units, drawn as one slot per rank.
  int slotCount() const;
  // The slot a rank owns: its position in its shard group (hybrid groups are ranks
  // g·G … g·G+G−1, engine/strategies/Fsdp.cpp).
  int slotOf(int rank) const { return rank % std::max(1, slotCount()); }
  // Hybrid sharding with more than one shard group: the cards form a grid, one row per
  // shard group and one column per slice (a column's ranks are replicas of each other).
  bool hybridGrid() const { return slotCount() > 1 && slotCount() < rankCount(); }
  int stepsDone() const { return stepsDone_; }
  QString unitName(int unit) const { return QString::fromStdString(trace_->unitName(unit)); }
  int unitCount() const { return static_cast<int>(trace_->units.size()); }

  // "4 CPU ranks (Open MPI, shared memory)", "4 × NVIDIA H200 (NCCL 2.28)".
  QString runLabel() const;
  // "CPU rank 2", "GPU 1 · NVIDIA H200".
  QString rankLabel(int rank) const;
  bool rankIsCpu(int rank) const;

  // Event indices of one rank's lane, sorted by start time (ties: file order).
  const std::vector<int>& lane(int rank, Lane lane) const;
  // Start times of lane(rank, lane), position by position.
  const std::vector<qint64>& laneStarts(int rank, Lane lane) const;
  // Positions [first, last) in lane(rank, lane) of the blocks that may overlap [t0, t1]
  // (a block overlaps when its start <= t1 and its end >= t0). Found by binary search
  // on the start times and on the running maximum of the end times: every block outside
  // the range misses [t0, t1]; inside it, only a block covered by an earlier, longer one
  // of the same lane can miss it (lanes of one stream do not overlap themselves).
  std::pair<std::size_t, std::size_t> laneRange(int rank, Lane lane, qint64 t0, qint64 t1) const;
  // Latest end time of the blocks at positions 0..pos of lane(rank, lane).
  qint64 laneMaxEnd(int rank, Lane lane, std::size_t pos) const {
    return ranks_[static_cast<std::size_t>(rank)].maxEnd[static_cast<int>(lane)][pos];
  }
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
  // The flight records (a hung rank's recent communication calls), in order.
  const std::vector<int>& flightRecords() const { return flights_; }
  // How the run ended when it did not finish: a hang or failed ranks (RunEnding); none
  // while a replay is shown. Recomputed when events arrived since.
  const RunEnding& ending() const;
  QString parseError() const { return parseError_; }

Q_SIGNALS:
  void reset();    // a new run (or a cleared one)
  void appended(); // events were added to the current run

private:
  void index(int from);
  void ensureRank(int rank);
  struct RankIndex;
  void sortLaneTail(RankIndex& ri, int lane, std::size_t oldSize);

  std::unique_ptr<shardlab::trace::Trace> trace_;
  std::unique_ptr<shardlab::trace::Trace> measured_; // held here while a replay is shown
  std::optional<shardlab::trace::ReplayMode> replayMode_;
  mutable std::optional<shardlab::trace::BubbleBreakdown> breakdown_;
  mutable int breakdownAt_ = -1;
  mutable QElapsedTimer breakdownAge_;
  void reindex();
  std::unique_ptr<shardlab::trace::TraceParser> parser_;
  struct RankIndex {
    std::vector<int> lanes[3];
    std::vector<qint64> starts[3]; // t0 of lanes[l][k]
    std::vector<qint64> maxEnd[3]; // max t1 of lanes[l][0..k]
    std::vector<int> memory;
    qint64 peak = 0;
    shardlab::trace::Kind lastCompute = shardlab::trace::Kind::None;
  };
  std::vector<RankIndex> ranks_;
  std::vector<qint64> eventStarts_, collStarts_, phaseStarts_;
  mutable std::unique_ptr<shardlab::trace::Summary> summary_;
  mutable int summaryAt_ = -1;
  mutable QElapsedTimer summaryAge_;
  qint64 tMin_ = INT64_MAX, tMax_ = 0, peakBytes_ = 0;
  int stepsDone_ = 0;
  int rankCount_ = 0;
  quint64 generation_ = 0;
  void updateJob();
  std::optional<shardlab::JobConfig> config_;
  std::vector<int> failures_;
  std::vector<int> flights_;
  mutable RunEnding ending_;
  mutable int endingAt_ = -1;
  QString parseError_;
};

} // namespace shardlab::app
