#include "launcher/MpiJob.h"

#include "core/Cpus.h"
#include "job/BoundedFile.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

namespace shardlab {
namespace {

volatile sig_atomic_t stopRequested = 0;
void onStopSignal(int) { stopRequested = 1; }

using Clock = std::chrono::steady_clock;

// Follows one rank's trace file as the rank writes it.
class RankFileTail {
public:
  explicit RankFileTail(std::string path) : path_(std::move(path)) {}
  void poll(const std::function<void(std::string_view)>& onLine, bool& sawFailure) {
    if (fd_ < 0) {
      fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
      if (fd_ < 0) return;
    }
    char buf[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      pending_.append(buf, static_cast<std::size_t>(n));
    }
    std::size_t start = 0;
    for (;;) {
      const auto nl = pending_.find('\n', start);
      if (nl == std::string::npos) break;
      std::string_view line(pending_.data() + start, nl - start);
      start = nl + 1;
      if (line.empty() || line.rfind("shardlab-trace", 0) == 0) continue;
      if (line.rfind("oom ", 0) == 0 || line.rfind("fail ", 0) == 0) sawFailure = true;
      onLine(line);
    }
    pending_.erase(0, start);
  }
  // The rank has opened its trace file: it started (MPI_Init returned on its host).
  bool opened() const { return fd_ >= 0; }
  ~RankFileTail() {
    if (fd_ >= 0) ::close(fd_);
  }
  RankFileTail(RankFileTail&& o) noexcept : path_(std::move(o.path_)), fd_(o.fd_), pending_(std::move(o.pending_)) {
    o.fd_ = -1;
  }

private:
  std::string path_;
  int fd_ = -1;
  std::string pending_;
};

bool runningAsRoot() { return ::geteuid() == 0; }

} // namespace

void requestStop() { stopRequested = 1; }

void installStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  // A closed terminal or a dropped ssh session: stop the job as on SIGTERM. mpirun runs
  // in its own process group, so the hang-up never reaches it or the ranks directly.
  sigaction(SIGHUP, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

std::vector<RankFailure> parseMpirunFailures(const std::string& out) {
  std::map<int, std::string> byRank;
  std::smatch m;
  // "mpirun noticed that process rank 2 with PID 123 on node x exited on signal 9 (Killed)."
  static const std::regex signalled(R"(process rank (\d+) with PID \d+ on node \S+ exited on signal (\d+)(?: \(([^)]+)\))?)");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), signalled); it != std::sregex_iterator(); ++it) {
    m = *it;
    byRank.emplace(std::stoi(m[1]), "killed by signal " + m[2].str() + (m[3].matched ? " (" + m[3].str() + ")" : ""));
  }
  // "MPI_ABORT was invoked on rank 1 in communicator MPI_COMM_WORLD with errorcode 3."
  static const std::regex aborted(R"(MPI_ABORT was invoked on rank (\d+) in communicator \S+\s+with errorcode (\d+))");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), aborted); it != std::sregex_iterator(); ++it) {
    m = *it;
    byRank.emplace(std::stoi(m[1]), "stopped the job (MPI_Abort, error code " + m[2].str() + ")");
  }
  // "Process name: [[1234,1],2]\n  Exit code:    7"
  static const std::regex exited(R"(Process name:\s*\[\[\d+,\d+\],(\d+)\]\s*Exit code:\s*(\d+))");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), exited); it != std::sregex_iterator(); ++it) {
    m = *it;
    byRank.emplace(std::stoi(m[1]), "exited with status " + m[2].str());
  }
  std::vector<RankFailure> failures;
  for (auto& [rank, reason] : byRank) failures.push_back({rank, reason});
  return failures;
}

std::vector<std::string> parseLostHosts(const std::string& out) {
  std::vector<std::string> hosts;
  static const std::regex lost(R"(Remote daemon:\s*\[\[\d+,\d+\],\d+\] on node (\S+))");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), lost); it != std::sregex_iterator(); ++it) {
    const std::string host = (*it)[1].str();
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) hosts.push_back(host);
  }
  return hosts;
}

std::vector<std::string> hostsBySlot(const std::string& hostfile, int ranks) {
  FileProblem problem;
  const auto text = readBoundedFile(hostfile, kHostfileCap, problem);
  if (!text) return {};
  std::vector<std::string> placed;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line) && static_cast<int>(placed.size()) < ranks) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string host, word;
    if (!(words >> host)) continue;
    int slots = -1;
    while (words >> word)
      if (word.rfind("slots=", 0) == 0) {
        try {
          slots = std::stoi(word.substr(6));
        } catch (const std::exception&) {
          return {};
        }
      }
    if (slots < 0) return {};
    for (int s = 0; s < slots && static_cast<int>(placed.size()) < ranks; ++s) placed.push_back(host);
  }
  if (static_cast<int>(placed.size()) < ranks) return {};
  return placed;
}

std::chrono::seconds launchDeadline(bool withHostfile) {
  return withHostfile ? std::chrono::seconds(20) : std::chrono::seconds(60);
}

namespace {

// --collective-algorithms ring: the ring for the three collectives whose bytes the
// lessons model (2(N−1)/N·B for all-reduce, (N−1)/N·B for all-gather and
// reduce-scatter). The ids are Open MPI 4.1's (`ompi_info --param coll tuned --level 9`):
// all-reduce 4 "ring", all-gather 4 "ring", reduce-scatter 3 "ring"; forced algorithms
// apply only with dynamic rules on, and every other collective keeps Open MPI's fixed
// decision. The transport calls MPI_Reduce_scatter (reduce_scatter_block has no ring).
constexpr std::pair<const char*, const char*> kRingParameters[] = {
    {"coll_tuned_use_dynamic_rules", "1"},
    {"coll_tuned_allreduce_algorithm", "4"},
    {"coll_tuned_allgather_algorithm", "4"},
    {"coll_tuned_reduce_scatter_algorithm", "3"},
};

// What ssh gets for each host of a hostfile (MpiJob::command).
constexpr const char* kSshOptions = "-o ConnectTimeout=10 -o BatchMode=yes -o ServerAliveInterval=5 -o ServerAliveCountMax=3";

} // namespace

MpiJob::MpiJob(const LaunchOptions& options, std::string workerPath, std::string runDir)
    : options_(options), worker_(std::move(workerPath)), runDir_(std::move(runDir)) {}

std::vector<std::string> MpiJob::command() const {
  std::vector<std::string> c{options_.mpirun, "-np", std::to_string(options_.job.ranks)};
  if (runningAsRoot()) c.push_back("--allow-run-as-root");
  if (!options_.job.hostfile.empty()) {
    c.insert(c.end(), {"--hostfile", options_.job.hostfile});
    // ssh waits for an unreachable host for minutes (a dropped SYN: 2 min), and for one
    // whose sshd accepts and never answers, for ever: give up after 10 s, naming it
    // ("ssh: connect to host H port 22: Connection timed out"), never ask for a password
    // nobody can type, and notice a host lost mid-run. Only where the agent is ssh and the
    // user has not set its arguments (OMPI_MCA_plm_rsh_args).
    const char* agent = std::getenv("OMPI_MCA_plm_rsh_agent");
    const bool sshAgent = !agent || std::string_view(agent).rfind("ssh", 0) == 0;
    if (sshAgent && !std::getenv("OMPI_MCA_plm_rsh_args"))
      c.insert(c.end(), {"--mca", "plm_rsh_args", kSshOptions});
  } else {
    // This machine's slots are its hardware threads, as usableCpuCount counts them: by
    // default Open MPI counts physical cores, and would refuse 4 ranks on a laptop with
    // 2 cores of 2 threads each although they fit.
    c.push_back("--use-hwthread-cpus");
    if (options_.job.ranks > usableCpuCount()) c.push_back("--oversubscribe");
  }
  // Unbound: binding 4 ranks to 2 cores would serialise them. Where the ranks fit the
  // cores, each worker binds itself to cores of its own (engine/comm/CorePlacement.h).
  c.insert(c.end(), {"--bind-to", "none"});
  // Containers often forbid the cross-memory attach the shared-memory transport tries first.
  if (!std::getenv("OMPI_MCA_btl_vader_single_copy_mechanism"))
    c.insert(c.end(), {"--mca", "btl_vader_single_copy_mechanism", "none"});
  // Open MPI's monitoring, so that each rank can read the bytes it really sent
  // (engine/comm/WireMonitor.h). 2: a collective's internal messages are counted apart
  // from point-to-point ones. NCCL ranks send nothing through Open MPI's pml; a value the
  // user set in the environment wins.
  if (options_.wireMonitoring && options_.job.device != DeviceKind::Cuda &&
      !std::getenv("OMPI_MCA_pml_monitoring_enable"))
    c.insert(c.end(), {"--mca", "pml_monitoring_enable", "2"});
  // The collectives' algorithms (kRingParameters); a value the user set in the
  // environment (OMPI_MCA_coll_tuned_…) wins, as mpirun passes it on itself.
  if (options_.collectiveAlgorithms == "ring" && options_.job.device != DeviceKind::Cuda)
    for (const auto& [name, value] : kRingParameters)
      if (!std::getenv(("OMPI_MCA_" + std::string(name)).c_str())) c.insert(c.end(), {"--mca", name, value});
  // OpenBLAS's own variables, for ranks on other hosts; ShardLab's settings go as options.
  for (const char* var : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"})
    if (std::getenv(var)) c.insert(c.end(), {"-x", var});
  c.insert(c.end(), {worker_, "--job", runDir_ + "/job.json", "--run-dir", runDir_});
  for (auto& a : workerArguments(options_.tuning, options_.hooks)) c.push_back(std::move(a));
  if (!options_.dumpParams.empty()) c.insert(c.end(), {"--dump-params", options_.dumpParams});
  if (options_.failure) c.insert(c.end(), {"--fault", options_.failure->toString()});
  return c;
}

std::vector<std::pair<std::string, std::string>> MpiJob::collectiveAlgorithmParameters() const {
  std::vector<std::pair<std::string, std::string>> out;
  if (options_.job.device == DeviceKind::Cuda) return out; // NCCL: Open MPI runs no collective of the job
  const bool ring = options_.collectiveAlgorithms == "ring";
  auto add = [&](const std::string& name, const char* ours) {
    if (const char* env = std::getenv(("OMPI_MCA_" + name).c_str())) out.emplace_back(name, env);
    else if (ours) out.emplace_back(name, ours);
  };
  for (const auto& [name, value] : kRingParameters) add(name, ring ? value : nullptr);
  return out;
}

JobOutcome MpiJob::run(const std::function<void(std::string_view)>& onLine) {
  JobOutcome outcome;
  const auto argv = command();
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC) != 0) throw std::runtime_error("pipe: " + std::string(std::strerror(errno)));

  const pid_t launcher = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork: " + std::string(std::strerror(errno)));
  if (pid == 0) {
    ::setpgid(0, 0); // its own group, so the whole job can be stopped at once
    // However the launcher ends (SIGKILL too, which it cannot catch), mpirun gets SIGTERM
    // and stops every rank it started, on every host: in its own process group it would
    // otherwise run the whole job on. If the launcher died before this line, stop now.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != launcher) ::_exit(127);
    ::dup2(pipeFds[1], STDOUT_FILENO);
    ::dup2(pipeFds[1], STDERR_FILENO);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "cannot start %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  ::close(pipeFds[1]);
  ::fcntl(pipeFds[0], F_SETFL, O_NONBLOCK);

  std::vector<RankFileTail> tails;
  for (int r = 0; r < options_.job.ranks; ++r) tails.emplace_back(runDir_ + "/rank-" + std::to_string(r) + ".trace");

  bool sawFailure = false, exited = false;
  // Ranks that write no trace file cannot be seen starting: no deadline for them.
  bool allStarted = !options_.job.trace;
  const auto launchedAt = Clock::now();
  const auto deadline = launchDeadline(!options_.job.hostfile.empty());
  int status = 0;
  Clock::time_point failureSeen{}, termSent{};
  bool termed = false, killed = false;
  // After a failure mpirun stops the other ranks itself; give it this long.
  constexpr auto kGrace = std::chrono::seconds(4);
  constexpr auto kKillAfter = std::chrono::seconds(2);

  auto drainPipe = [&] {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(pipeFds[0], buf, sizeof buf);
      if (n <= 0) break;
      outcome.mpirunOutput.append(buf, static_cast<std::size_t>(n));
      // mpirun's own words reach the user even with --quiet: they explain failures.
      (void)!::write(STDERR_FILENO, buf, static_cast<std::size_t>(n));
      if (outcome.mpirunOutput.size() > (1u << 16)) outcome.mpirunOutput.erase(0, outcome.mpirunOutput.size() - (1u << 16));
      if (outcome.mpirunOutput.find("exited on signal") != std::string::npos ||
          outcome.mpirunOutput.find("MPI_ABORT was invoked") != std::string::npos)
        sawFailure = true;
    }
  };

  while (!exited) {
    pollfd pfd{pipeFds[0], POLLIN, 0};
    ::poll(&pfd, 1, 20);
    drainPipe();
    for (auto& t : tails) t.poll(onLine, sawFailure);

    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      exited = true;
      break;
    }
    const auto now = Clock::now();
    if (stopRequested && !termed) {
      outcome.interrupted = true;
      ::kill(-pid, SIGTERM);
      termed = true;
      termSent = now;
    }
    if (!allStarted) {
      allStarted = std::all_of(tails.begin(), tails.end(), [](const RankFileTail& t) { return t.opened(); });
      if (!allStarted && !termed && !sawFailure && now - launchedAt > deadline) {
        for (int r = 0; r < options_.job.ranks; ++r)
          if (!tails[static_cast<std::size_t>(r)].opened()) outcome.unstartedRanks.push_back(r);
        outcome.launchDeadline = deadline;
        ::kill(-pid, SIGTERM);
        termed = true;
        termSent = now;
      }
    }
    if (sawFailure && failureSeen == Clock::time_point{}) failureSeen = now;
    if (!termed && failureSeen != Clock::time_point{} && now - failureSeen > kGrace) {
      outcome.forcedStop = true;
      ::kill(-pid, SIGTERM);
      termed = true;
      termSent = now;
    }
    if (termed && !killed && now - termSent > kKillAfter) {
      ::kill(-pid, SIGKILL);
      killed = true;
    }
  }
  // Whatever the ranks wrote last, and the rest of mpirun's output.
  drainPipe();
  for (auto& t : tails) t.poll(onLine, sawFailure);
  ::close(pipeFds[0]);
  if (killed) ::kill(-pid, SIGKILL); // stragglers of the group

  outcome.mpirunStatus = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  outcome.failures = parseMpirunFailures(outcome.mpirunOutput);
  outcome.lostHosts = parseLostHosts(outcome.mpirunOutput);
  return outcome;
}

} // namespace shardlab
