// Exit statuses of ShardLab's programs: one table for the launcher, the worker and the
// app, which reads the launcher's status to say what happened.
#pragma once

namespace shardlab {

// shardlab-run (documented in README.md and `shardlab-run --help`).
enum class LauncherExit : int {
  Done = 0,
  InvalidJob = 2,    // an option or the spec breaks a rule; nothing was launched
  RankFailed = 3,    // a rank failed (named, with its reason); the partial trace is kept
  MissingTool = 4,   // mpirun or shardlab-worker is missing, or could not be started
  OutputFailed = 5,  // an output (--trace, --summary-json …) could not be written whole: named
  Interrupted = 130, // stopped on request (SIGINT/SIGTERM); the partial trace is kept
};

// shardlab-worker, through MPI_Abort: mpirun reports the code of the rank that aborted.
enum class WorkerExit : int {
  Done = 0,
  InvalidJob = 2,  // the job file could not be read or breaks a rule
  OutOfMemory = 3, // the rank's memory budget was exceeded (an oom record was written)
  Failure = 4,     // any other error (a failed collective, a device error)
  Hang = 5,        // a collective or receive passed collective_timeout (flight records written)
};

constexpr int code(LauncherExit e) { return static_cast<int>(e); }
constexpr int code(WorkerExit e) { return static_cast<int>(e); }

} // namespace shardlab
