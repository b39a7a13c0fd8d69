// What a replay of a trace reports (trace/Replay.h computes it): the modes, each
// mode's result, the fitted model and the pipeline bubble taken apart. Data only, so
// that the summary can carry its replay section (Summary::replay) without depending
// on the replay, which measures its replayed traces with the summary.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab::trace {

enum class ReplayMode : std::uint8_t {
  ScheduleAlone, // communication is free: what the schedule alone costs
  Fitted,        // each kind costs alpha + bytes * beta, fitted to this run's own transfers
  Reference,     // each transfer costs what the reference interconnect would take
};
inline constexpr std::array<ReplayMode, 3> kReplayModes{ReplayMode::ScheduleAlone, ReplayMode::Fitted,
                                                        ReplayMode::Reference};
// "schedule_alone", "fitted", "reference".
inline std::string_view toString(ReplayMode mode) {
  switch (mode) {
  case ReplayMode::ScheduleAlone: return "schedule_alone";
  case ReplayMode::Fitted: return "fitted";
  case ReplayMode::Reference: return "reference";
  }
  return "?";
}
inline std::optional<ReplayMode> replayModeFromString(std::string_view s) {
  for (auto mode : kReplayModes)
    if (toString(mode) == s) return mode;
  return std::nullopt;
}

// A transfer of `bytes` costs alphaS + bytes * betaSPerByte seconds.
struct AlphaBeta {
  double alphaS = 0.0;
  double betaSPerByte = 0.0;
  int samples = 0; // transfers the fit saw
};

// The reference mode's interconnect; docs/replay.md cites where its figures come from.
struct Interconnect {
  std::string_view name;
  double latencyS;          // alpha per message (per ring step for collectives)
  double bandwidthBytesPerS; // per direction, per rank
};
inline constexpr Interconnect kReferenceInterconnect{"InfiniBand NDR 400 Gb/s (ConnectX-7), ring algorithm", 1.0e-6,
                                                     50.0e9};

// One mode's outcome, measured on the replayed trace exactly as the summary measures
// a recorded one.
struct ReplayResult {
  ReplayMode mode = ReplayMode::ScheduleAlone;
  double stepS = 0.0;           // mean step time over the steady steps (step >= 1), slowest rank
  double exposedCommS = 0.0;    // whole run, per rank (ranks_detail[].exposed_comm_s), mean over ranks
  std::optional<double> bubble; // pipeline jobs: the summary's bubble.measured of the replayed trace
};

// A pipeline run's bubble taken apart (docs/replay.md, "The bubble taken apart").
// The bubble is one figure: the summary's bubble.measured, the recorded pipeline idle
// over the steady steps' stage time. Its difference from the textbook's (p-1)/(V*m+p-1)
// is taken apart by replays of the same graph, each adding one measured effect:
//   scheduleAsRun  ops at their fastest time, communication free (the schedule-alone
//                  replay's bubble) minus the theory: what the formula leaves out
//                  (the optimizer step counted as stage time, unequal stages)
//   handoffs       + every transfer at its own measured duration
//   slowerOps      + every op at its own CPU time rather than its fastest
//   coreWaits      + every op at its own wall time: the time its rank waited for a core
//   unexplained    the measured bubble minus the last replay's (its sign kept)
// Each term is bubble_after - bubble_before, so theory + the terms = measured exactly
// and `unexplained` is the test of the graph: small when the replay reproduces the run.
// Ops that are all slower by the same factor leave the bubble unchanged: the parts are
// in the bubble's own unit, a share of stage time idle.
//
// A different quantity sits beside it: `notComputing`, the share of stage time not
// spent on the arithmetic at its fastest recorded time, 1 - U/S (U: the steady steps'
// ops at their fastest, S: their stage time). It counts slow ops as lost time too:
//   notComputing = measured + opsAboveFastest + untracked
// (opsAboveFastest: op time past its fastest, over S; untracked: step time under no
// record, over S), each part measured on this trace.
struct BubbleBreakdown {
  double measured = 0.0, theory = 0.0, scheduleAlone = 0.0;
  double scheduleAsRun = 0.0, handoffs = 0.0, slowerOps = 0.0, coreWaits = 0.0, unexplained = 0.0;
  bool cpuTimes = false; // without CPU times, slowerOps holds the core waits too and coreWaits is 0
  double notComputing = 0.0, opsAboveFastest = 0.0, untracked = 0.0;
};
// The tolerance docs/replay.md states for `unexplained` on a run that finished.
inline constexpr double kBreakdownTolerance = 0.05;

struct ReplayReport {
  bool present = false;         // the trace had ops to replay
  // Why the trace is not replayed at all (an imported trace: notReplayable()); "" otherwise.
  std::string notReplayed;
  std::string timesNote;        // which measured times the compute replays
  std::optional<std::string> stoppedAt; // a cut-short trace: where the replay stopped and why
  std::map<std::string, AlphaBeta> fitted; // the fitted mode's model, by kind
  std::vector<ReplayResult> results;       // in kReplayModes order
  std::optional<BubbleBreakdown> breakdown; // pipeline runs that completed a step
};

} // namespace shardlab::trace
