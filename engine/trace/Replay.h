// The replay: a recorded trace's dependency graph run again with each op's measured
// time and a chosen cost for communication (docs/replay.md). It is a computation on
// a real trace, never a simulation with invented durations, and every result and
// replayed trace says it is a replay and of which mode.
#pragma once

#include "trace/Trace.h"

#include <array>
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
std::string_view toString(ReplayMode mode); // "schedule_alone", "fitted", "reference"
std::optional<ReplayMode> replayModeFromString(std::string_view s);

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

struct ReplayReport {
  bool present = false;         // the trace had ops to replay
  std::string timesNote;        // which measured times the compute replays
  std::optional<std::string> stoppedAt; // a cut-short trace: where the replay stopped and why
  std::map<std::string, AlphaBeta> fitted; // the fitted mode's model, by kind
  std::vector<ReplayResult> results;       // in kReplayModes order
};

// The three modes' results (the summary's `replay` section).
ReplayReport replayReport(const Trace& measured);

// The replayed trace of one mode: same format, its job record marked
// {"replay": {"mode": ..., ...}}; `report` gets the notes and fitted model.
Trace replayedTrace(const Trace& measured, ReplayMode mode, ReplayReport* report = nullptr);

} // namespace shardlab::trace
