// Faults injected on purpose: SHARDLAB_FAULT, which the tests use to kill or hang a
// rank and the straggler lesson uses to slow one. The launcher reads it once, before it
// launches anything (a malformed value is refused, exit 2), and gives the workers what
// it asks for: a straggler in the job's `straggler` (so the trace's job record says
// so), a failure as the worker's --fault option. No rank reads the variable.
#pragma once

#include "job/JobConfig.h"

#include <optional>
#include <string>
#include <string_view>

namespace shardlab {

// Rank `rank` fails at the start of step `step`: `kill` (SIGKILL itself), `segv`
// (SIGSEGV), `exit` (exit 7) or `hang` (sleeps forever: it never enters the step's
// first collective, and the other ranks' watchdogs report it).
struct InjectedFailure {
  enum class Kind { Kill, Segv, Exit, Hang };
  int rank = 0;
  int step = 0;
  Kind kind = Kind::Kill;
  bool operator==(const InjectedFailure&) const = default;
  std::string toString() const; // "1:3:kill": SHARDLAB_FAULT's and --fault's form
};

struct Faults {
  std::optional<InjectedFailure> failure;  // RANK:STEP:kill|segv|exit|hang
  std::optional<Straggler> straggler;  // RANK:STEP:slow:FACTOR
};

// A SHARDLAB_FAULT value. nullopt and `error` (naming the variable and the form) when
// it is neither form; the ranks are checked against the job by the caller.
std::optional<Faults> parseFaults(std::string_view text, std::string& error);
// A --fault value: RANK:STEP:kill|segv|exit|hang only.
std::optional<InjectedFailure> parseInjectedFailure(std::string_view text, std::string& error);

} // namespace shardlab
