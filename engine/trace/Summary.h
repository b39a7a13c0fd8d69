// The run summary, computed from a trace. The launcher prints it, the app shows it
// and the quiz asks about it: all three call summarizeMeasured() or summarize()
// (trace/Report.h: with the replay section) so the numbers agree.
#pragma once

#include "trace/ReplayReport.h"
#include "trace/Trace.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shardlab::trace {

struct CollectiveStats {
  std::int64_t count = 0;     // calls issued by one rank (the busiest, for send/recv)
  std::int64_t bytes = 0;     // summed full-buffer size of those calls (nccl-tests' "size")
  std::int64_t wireBytes = 0; // what that rank sends under a ring algorithm
  // What that rank really sent, as Open MPI's monitoring counted it (the records'
  // WIRE_BYTES); nullopt when any of its calls was not measured (NCCL, monitoring off or
  // absent, point-to-point on Open MPI 4.1) or it made none.
  std::optional<std::int64_t> measuredWireBytes;
  double seconds = 0.0;       // summed duration on that rank
};

struct RankSummary {
  int rank = 0;
  std::string device;              // from the rank record: "cpu", "cuda", ...
  std::int64_t persistentBytes = 0; // held at the end of the last completed step
  std::int64_t peakBytes = 0;
  std::array<std::int64_t, kCategoryCount> peakByCategory{};
  // The accounting (docs/trace-format.md, "The identity"): over the rank's steps,
  // stepS = computeS + exposedCommS + otherIdleS + untrackedS exactly.
  double stepS = 0;        // the rank's steps, end to end: its step time
  double computeS = 0;     // union of op intervals
  double commS = 0;        // union of coll intervals
  double exposedCommS = 0; // communication under neither compute nor a pipeline wait
  double otherIdleS = 0;   // pipeline waits not under compute; waits for a collective past its end
  double untrackedS = 0;   // step time under no record at all
  double idleS = 0;        // sum of idle records (waits for a collective overlap exposedCommS)
  std::optional<double> coreWaitS; // op wall time minus its CPU time; unknown without CPU times
  std::int64_t sentBytes = 0;      // wire bytes this rank sent, all collectives (ring model)
  std::optional<std::int64_t> measuredSentBytes; // measured, all its calls; nullopt unless every one was
  // Op records by kind (an op split around a wait counts once per piece). forwardOps
  // includes the recomputed forwards of activation checkpointing, also counted apart.
  std::int64_t forwardOps = 0, recomputeOps = 0, backwardOps = 0, optimizerOps = 0;
  bool finished = false;           // wrote its end record
  std::optional<std::string> failure;
};

struct OutOfMemoryReport {
  int rank = 0;
  Category category = Category::Count;
  std::string unit;
  std::int64_t needed = 0, budget = 0, holding = 0;
  std::string message() const; // "out of memory on rank R: needs X, budget Y, holding Z"
};

struct BubbleSummary {
  bool present = false;
  std::vector<double> perStage; // idle / stage time over the steady steps
  double measured = 0.0;        // idle / stage time, all stages together
  double stageS = 0.0;          // stage time: the steady steps' time, summed over stages
  double opS = 0.0;             // op time inside those steps, summed over stages
  double theory = 0.0;
  // zb-h1: the paper's (p-1)(T_F+T_B-T_W) / (m(T_F+T_B+T_W) + (p-1)(T_F+T_B-T_W)) with this
  // run's own T_F, T_B, T_W: each op kind's time in the steady steps over stages x m x steps;
  // -1 for every other schedule.
  double theoryOwnTimes = -1.0;
  // Per stage: the activations category's peak over the run (bytes), and the most
  // micro-batches the schedule holds at once on that stage (heldAtPeak(); -1 where it
  // is not stated), side by side so a schedule's memory reads against its diagram.
  std::vector<std::int64_t> peakActivations;
  std::vector<int> heldAtPeak;
  std::string schedule;
  int stages = 0, microbatches = 0, virtualStages = 1;
};

// FSDP's sharding and prefetch settings, named as PyTorch and ZeRO name them.
struct ShardingSummary {
  std::string name, pytorch;     // "full", "FULL_SHARD"
  int zeroStage = 3;
  int shardDegree = 1;           // ranks sharing one unit's slices
  int replicas = 1;              // ranks holding the same slice
  std::string backwardPrefetch;  // "pre", "post", "none"
  bool forwardPrefetch = false;
  int limitAllGathers = 0;       // 0: no limit
  std::string paramDtype = "fp32", reduceDtype = "fp32"; // mixed precision: what is gathered and reduced
};

struct Summary {
  std::string strategy, device;
  std::optional<ShardingSummary> sharding; // FSDP runs
  int ranks = 0, steps = 0, stepsCompleted = 0;
  std::int64_t parameters = 0;
  int units = 0;
  std::vector<double> lossPerStep;
  std::vector<RankSummary> ranksDetail;
  std::map<std::string, CollectiveStats> collectives; // by kind name
  BubbleSummary bubble;
  std::optional<OutOfMemoryReport> outOfMemory;
  double wallS = 0.0;
  // The step time: the mean steady step (step >= 1) of the slowest rank, from the step
  // ends every rank recorded (a one-step run: its end). The figure every pane calls
  // "step time"; ranksDetail[].stepS is each rank's whole time inside its steps.
  double stepTimeS = 0.0;
  ReplayReport replay; // the trace replayed under the three modes: summarize() fills it (trace/Report.h)

  nlohmann::json toJson() const;
  std::string toTable() const; // the readable table shardlab-run prints
};

// The measured summary alone: for readers that never show the replay (the app's views,
// the quiz) and for the replay itself, which measures its replayed traces with it.
// The replay costs three schedules of the whole trace, so they do not pay for it.
Summary summarizeMeasured(const Trace& trace);

// Theoretical bubble fraction: (p-1)/(V*m + p-1); naive is m = 1; zb-h1 and zb-h2 with
// equal F, B and W times: rank 0's idle over it plus 3m (docs/pipeline.md).
double theoreticalBubble(Schedule schedule, int stages, int microbatches, int virtualStages);

// The most micro-batches whose activations the schedule holds at once on `rank`, from
// its F until its backward (zero bubble: until its W): GPipe m, 1F1B min(p - rank, m)
// (stage 0: p, the paper's p M_B), ZB-H1 min(p, m) on every stage (1F1B's stage-0 peak:
// the W's that wait keep their micro-batches), ZB-H2 min(2p - 1, m) on every stage;
// naive 1. Interleaved: -1 (chunks of different sizes).
// PipelineSchedule.HeldAtPeakIsTheSchedulesOwn checks each against the schedule itself.
int heldAtPeak(Schedule schedule, int stages, int rank, int microbatches);

// "1.50 MiB", "96.0 KiB", "512 B".
std::string formatBytes(std::int64_t bytes);

} // namespace shardlab::trace
