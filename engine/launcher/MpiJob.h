// Runs a job under the real Open MPI launcher and follows it: `mpirun -np N
// shardlab-worker ...` in its own process group, each rank's trace file tailed as it
// grows, mpirun's own output kept to tell which rank failed and why. When a rank
// fails, mpirun stops the others; if it has not within a few seconds, this stops it.
#pragma once

#include "launcher/LaunchOptions.h"

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardlab {

struct RankFailure {
  int rank = -1;
  std::string reason; // "out of memory ...", "killed by signal 9 (Killed)", "exited with status 7", ...
};

struct JobOutcome {
  int mpirunStatus = 0;     // mpirun's exit status (128 + signal when killed)
  bool interrupted = false; // the launcher was asked to stop (SIGINT/SIGTERM)
  bool forcedStop = false;  // mpirun had to be stopped by us after a failure
  std::vector<RankFailure> failures;
  std::string mpirunOutput; // what mpirun printed (last 64 KiB)
  // Ranks that had not started (no trace file of theirs) when the launch deadline passed:
  // mpirun was stopped. Their host never ran them (a shell that hangs, a daemon that
  // cannot reach back); ssh's own timeouts name an unreachable host before this.
  std::vector<int> unstartedRanks;
  std::chrono::seconds launchDeadline{0};
  // Hosts whose Open MPI daemon mpirun lost during the run (the machine or its network
  // went down, or the daemon died): every rank there is gone with it.
  std::vector<std::string> lostHosts;
};

class MpiJob {
public:
  MpiJob(const LaunchOptions& options, std::string workerPath, std::string runDir);
  std::vector<std::string> command() const;
  // The coll/tuned MCA parameters that fix the collectives' algorithms, as the job runs
  // with them (name, value): those command() passes for --collective-algorithms ring,
  // and any OMPI_MCA_coll_tuned_* of the environment, which win. Empty when Open MPI
  // chooses (open-mpi, NCCL ranks). For the job record.
  std::vector<std::pair<std::string, std::string>> collectiveAlgorithmParameters() const;
  // Runs the job to its end; `onLine` receives every record line of every rank's
  // trace (without the per-file header) as soon as the line is complete.
  JobOutcome run(const std::function<void(std::string_view)>& onLine);

private:
  const LaunchOptions& options_;
  std::string worker_, runDir_;
};

// Installs SIGINT/SIGTERM/SIGHUP handlers that ask a running MpiJob to stop cleanly.
void installStopHandlers();
// Asks a running MpiJob to stop, as those signals do (the launcher: an output failed).
void requestStop();

// Parses what Open MPI's mpirun prints about failed processes.
std::vector<RankFailure> parseMpirunFailures(const std::string& output);
// The hosts mpirun says it lost ("Remote daemon: [[1234,0],1] on node b"), each once.
std::vector<std::string> parseLostHosts(const std::string& output);
// The host of each rank as Open MPI places ranks over `hostfile` by default (by slot:
// the first host's slots take the first ranks); empty when a line gives no slots (Open
// MPI then counts that host's cores, which only that host knows) or the ranks
// outnumber the slots.
std::vector<std::string> hostsBySlot(const std::string& hostfile, int ranks);
// How long every rank has to open its trace file after mpirun starts: with a hostfile
// 20 s (ssh gives up on an unreachable host after 10 s, kSshOptions), on this machine
// alone 60 s (only a machine under heavy load starts ranks that slowly).
std::chrono::seconds launchDeadline(bool withHostfile);

} // namespace shardlab
