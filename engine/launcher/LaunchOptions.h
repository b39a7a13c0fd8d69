// shardlab-run's command line: the job (JobConfig) and where its outputs go.
#pragma once

#include "job/EnvSettings.h"
#include "job/Faults.h"
#include "job/JobConfig.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab {

struct LaunchOptions {
  JobConfig job;
  std::string traceFile;        // --trace
  std::string specFile;         // --spec, an input: no output may be written over it
  std::string chromeTraceFile;  // --chrome-trace
  std::string summaryJsonFile;  // --summary-json
  std::string eventsTo;         // --events (only "-" : standard output)
  std::string runDir;           // --run-dir: keep the per-rank files here
  std::string dumpParams;       // --dump-params (tests)
  std::string mpirun = "mpirun";
  bool quiet = false;
  // Open MPI's monitoring counts the bytes each rank really sends (docs/trace-format.md,
  // "Bytes on the wire"); --no-wire-monitoring turns it off.
  bool wireMonitoring = true;
  // Which algorithms Open MPI runs the collectives with (docs/trace-format.md, "Bytes on
  // the wire"): "ring" (the default) asks coll/tuned for the ring all-reduce, all-gather
  // and reduce-scatter that the lessons' wire_bytes model; "open-mpi" leaves the choice
  // to Open MPI's own decision rules (by size and rank count). --collective-algorithms.
  std::string collectiveAlgorithms = "ring";
  bool force = false;           // --force: skip the pre-flight checks (memory, ranks per machine)
  bool checkOnly = false;       // --check: validate the job, launch nothing
  bool calibrate = false;       // --calibrate: print this machine's calibration as JSON (cached, else measured), launch no job
  bool recalibrate = false;     // --recalibrate: measure it again even when cached, then as --calibrate
  // The rank failure SHARDLAB_FAULT asks for (job/Faults.h), passed to the workers as
  // --fault; its straggler form is in job.straggler instead.
  std::optional<InjectedFailure> failure;
  // The rest of the environment, read here once (job/EnvSettings.h): the ranks' tuning and
  // test hooks, passed to each worker as its options; the pre-flight's stand-ins.
  Tuning tuning;
  TestHooks hooks;
  std::optional<std::string> namedWorker; // SHARDLAB_WORKER: the worker to launch instead of the one found
};

// Parses argv. On bad input returns nullopt and fills `errors` with one message per
// broken rule, each naming the option; `exitCode` is 0 for --help/--version.
std::optional<LaunchOptions> parseLaunchOptions(int argc, char** argv, std::vector<std::string>& errors,
                                                int& exitCode);

} // namespace shardlab
