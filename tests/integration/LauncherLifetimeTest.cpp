// The ranks never outlive shardlab-run: a closed terminal (SIGHUP), a stop (SIGTERM)
// or a SIGKILL of the launcher, which it cannot catch, ends mpirun and every rank. The
// job runs with the real mpirun; its processes are found by a mark in their environment
// (mpirun passes the launcher's environment on to the ranks), as a user would find them.
#include "RunShardlab.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

using namespace shardlab::testing;
namespace fs = std::filesystem;

namespace {

// Live processes whose environment holds `mark` (zombies have no environment to read).
std::vector<pid_t> processesMarked(const std::string& mark) {
  std::vector<pid_t> found;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "environ", std::ios::binary);
    std::string environ((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (environ.find(mark) != std::string::npos) found.push_back(std::stoi(name));
  }
  return found;
}

std::string commandLine(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (auto& c : s)
    if (c == '\0') c = ' ';
  return s;
}

// Step records in a rank file so far.
int stepsIn(const std::string& rankFile) {
  std::ifstream in(rankFile);
  std::string line;
  int steps = 0;
  while (std::getline(in, line))
    if (line.rfind("step ", 0) == 0) ++steps;
  return steps;
}

// Polls `done` every 100 ms until it holds or `guard` passes (a bound against hangs only).
template <class Done>
bool waitFor(Done&& done, std::chrono::seconds guard) {
  const auto until = std::chrono::steady_clock::now() + guard;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

struct LauncherSignal : ::testing::TestWithParam<int> {};

} // namespace

TEST_P(LauncherSignal, StopsMpirunAndEveryRank) {
  const int sig = GetParam();
  const auto dir = freshDir(std::string("lifetime-") + strsignal(sig));
  const std::string mark = "SHARDLAB_TEST_LIFETIME_MARK=" + std::to_string(getpid()) + "-" + std::to_string(sig);
  const pid_t launcher = fork();
  ASSERT_GE(launcher, 0);
  if (launcher == 0) {
    // Its own process group, as a terminal's job or an ssh session's command has.
    setpgid(0, 0);
    const int log = open((dir + "/launcher.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(log, 1);
    dup2(log, 2);
    putenv(const_cast<char*>(mark.c_str()));
    const std::string exe = shardlabRunPath();
    const std::string runDir = dir + "/run";
    execl(exe.c_str(), exe.c_str(), "--strategy", "ddp", "--ranks", "2", "--steps", "1000000", "--layers", "2",
          "--hidden", "16", "--vocab", "32", "--batch", "8", "-q", "--run-dir", runDir.c_str(), "--trace",
          (dir + "/t.trace").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Both ranks are training: mpirun and the ranks exist and carry the mark.
  const bool training = waitFor(
      [&] { return stepsIn(dir + "/run/rank-0.trace") >= 2 && stepsIn(dir + "/run/rank-1.trace") >= 2; },
      std::chrono::seconds(120));
  const auto running = processesMarked(mark);
  if (!training || running.size() < 3) {
    for (pid_t p : processesMarked(mark)) kill(p, SIGKILL);
    waitpid(launcher, nullptr, 0);
    std::ifstream log(dir + "/launcher.log");
    std::stringstream text;
    text << log.rdbuf();
    FAIL() << "the job did not start training (" << running.size() << " marked processes): " << text.str();
  }

  ASSERT_EQ(kill(launcher, sig), 0);
  int status = 0;
  waitpid(launcher, &status, 0);

  // Within seconds in practice; the bound only keeps a broken build from hanging the suite.
  const bool allGone = waitFor([&] { return processesMarked(mark).empty(); }, std::chrono::seconds(30));
  std::string left;
  for (pid_t p : processesMarked(mark)) {
    left += "\n  " + std::to_string(p) + ": " + commandLine(p);
    kill(p, SIGKILL);
  }
  EXPECT_TRUE(allGone) << "still running after the launcher got " << strsignal(sig) << ":" << left;
  if (sig != SIGKILL) {
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << "status " << status;
  }
}

INSTANTIATE_TEST_SUITE_P(Signals, LauncherSignal, ::testing::Values(SIGHUP, SIGTERM, SIGKILL),
                         [](const ::testing::TestParamInfo<int>& signal) {
                           return std::string(sigabbrev_np(signal.param));
                         });

// A host whose sshd accepts the connection and never answers (a hung machine, a
// firewall that swallows the session) made the launch wait for ever. Here it is a
// listener of this test on a loopback address that Open MPI does not take for this
// machine (127.0.0.2), reached through ssh's port option; nothing leaves the machine.
TEST(Launch, ASilentHostFailsNamingIt) {
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = 0;
  inet_pton(AF_INET, "127.0.0.2", &address.sin_addr);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0) << strerror(errno);
  ASSERT_EQ(listen(listener, 8), 0);
  socklen_t length = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const int port = ntohs(address.sin_port);
  // Accepts each connection and says nothing; the connections stay open until the end.
  std::vector<int> accepted;
  std::atomic<bool> stop{false};
  std::thread silent([&] {
    while (!stop) {
      pollfd p{listener, POLLIN, 0};
      if (poll(&p, 1, 100) > 0) accepted.push_back(accept(listener, nullptr, nullptr));
    }
  });
  const auto dir = freshDir("silent-host");
  std::ofstream(dir + "/hosts") << "127.0.0.2 slots=2\n";
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "2", "-q", "--hostfile", dir + "/hosts"},
                       {{"OMPI_MCA_plm_rsh_agent", "ssh -p " + std::to_string(port)}, {"XDG_CACHE_HOME", dir}}, 90);
  stop = true;
  silent.join();
  for (int fd : accepted) close(fd);
  close(listener);
  ASSERT_FALSE(accepted.empty()) << "ssh never came to the silent host: " << r.err;
  EXPECT_NE(r.status, -2) << "still waiting for the silent host after 90 s: " << r.err;
  EXPECT_NE(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("127.0.0.2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("timed out"), std::string::npos) << r.err;
}

// A host reached but never running its ranks (a remote shell that hangs before Open
// MPI's daemon starts, a daemon that cannot call back) kept the launch waiting for
// ever: ssh's timeouts do not apply once it has connected. Here the launch agent itself
// hangs; the launcher's deadline for the ranks' first records stops the job, naming the
// ranks and their host.
TEST(Launch, AHostThatNeverStartsItsRanksIsNamedAfterTheLaunchDeadline) {
  const auto dir = freshDir("hung-agent");
  const std::string agent = dir + "/hanging-agent";
  std::ofstream(agent) << "#!/bin/sh\nexec sleep 600\n";
  fs::permissions(agent, fs::perms::owner_all);
  std::ofstream(dir + "/hosts") << "127.0.0.2 slots=2\n";
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "2", "-q", "--hostfile", dir + "/hosts"},
                       {{"OMPI_MCA_plm_rsh_agent", agent}, {"XDG_CACHE_HOME", dir}}, 90);
  ASSERT_NE(r.status, -2) << "still waiting for the host after 90 s: " << r.err;
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("ranks 0, 1 did not start within 20 s of the launch (host 127.0.0.2 never ran them)"),
            std::string::npos)
      << r.err;
}

// Stopping a run replayed its whole trace first (three schedules of it: 8 s after a
// minute of a 2-rank run), so Stop got slower as the run grew and the app's SIGKILL, 3 s
// later, cut the launcher short and left its run folder. A stopped run is summarised as
// measured and not replayed; the summary says so.
TEST(Stop, AStoppedRunIsSummarisedWithoutItsReplay) {
  const auto dir = freshDir("stop-no-replay");
  const pid_t launcher = fork();
  ASSERT_GE(launcher, 0);
  if (launcher == 0) {
    setpgid(0, 0);
    const int log = open((dir + "/launcher.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(log, 1);
    dup2(log, 2);
    const std::string exe = shardlabRunPath();
    execl(exe.c_str(), exe.c_str(), "--strategy", "ddp", "--ranks", "2", "--steps", "1000000", "--layers", "2",
          "--hidden", "16", "--vocab", "32", "--batch", "8", "-q", "--run-dir", (dir + "/run").c_str(), "--summary-json",
          (dir + "/summary.json").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const bool training = waitFor([&] { return stepsIn(dir + "/run/rank-1.trace") >= 3; }, std::chrono::seconds(120));
  kill(launcher, SIGINT);
  int status = 0;
  waitpid(launcher, &status, 0);
  ASSERT_TRUE(training) << "the job did not start training";
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << "status " << status;
  std::ifstream in(dir + "/summary.json");
  const auto summary = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(summary.is_discarded());
  EXPECT_GE(summary["steps_completed"].get<int>(), 3) << summary.dump();
  ASSERT_TRUE(summary.contains("replay")) << summary.dump();
  EXPECT_NE(summary["replay"].value("not_replayed", "").find("stopped on request"), std::string::npos)
      << summary["replay"].dump();
  EXPECT_FALSE(summary["replay"].contains("note")) << "replayed all the same: " << summary["replay"].dump();
}

// Two runs given one --trace both exited 0, and the file held only the last one's lines.
// The second is refused by name before it starts anything while the first still writes.
TEST(Outputs, ATraceBeingWrittenByAnotherRunIsRefused) {
  const auto dir = freshDir("trace-taken");
  const std::string trace = dir + "/shared.trace";
  const pid_t first = fork();
  ASSERT_GE(first, 0);
  if (first == 0) {
    setpgid(0, 0);
    const int log = open((dir + "/first.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(log, 1);
    dup2(log, 2);
    const std::string exe = shardlabRunPath();
    execl(exe.c_str(), exe.c_str(), "--strategy", "ddp", "--ranks", "2", "--steps", "1000000", "--layers", "2",
          "--hidden", "16", "--vocab", "32", "--batch", "8", "-q", "--run-dir", (dir + "/run").c_str(), "--trace",
          trace.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  const bool training = waitFor([&] { return stepsIn(dir + "/run/rank-1.trace") >= 1; }, std::chrono::seconds(120));
  auto second = training ? runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "2", "-q", "--trace", trace}) : RunResult{};
  kill(first, SIGINT);
  int status = 0;
  waitpid(first, &status, 0);
  ASSERT_TRUE(training) << "the first run did not start training";
  EXPECT_EQ(second.status, 2) << second.err;
  EXPECT_NE(second.err.find("--trace: '" + trace + "' is being written by another shardlab-run"), std::string::npos)
      << second.err;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << "the first run, stopped: status " << status;
}

// Calibrations measured together measured each other's load, and the result stayed
// cached. A run that finds another measuring (here: the test holds the cache's lock)
// says so and waits; it measures once the lock is free.
TEST(Calibration, ARunWaitsForAnotherRunsCalibration) {
  const auto dir = freshDir("calibration-lock");
  fs::create_directories(dir + "/cache/shardlab");
  const int held = open((dir + "/cache/shardlab/calibration.json.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(held, 0);
  ASSERT_EQ(flock(held, LOCK_EX), 0);
  const pid_t run = fork();
  ASSERT_GE(run, 0);
  if (run == 0) {
    setpgid(0, 0);
    const int log = open((dir + "/run.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(log, 1);
    dup2(log, 2);
    setenv("XDG_CACHE_HOME", (dir + "/cache").c_str(), 1);
    const std::string exe = shardlabRunPath();
    execl(exe.c_str(), exe.c_str(), "--recalibrate", static_cast<char*>(nullptr));
    _exit(127);
  }
  auto logText = [&] {
    std::ifstream in(dir + "/run.log");
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const bool waiting = waitFor([&] { return logText().find("waiting for the calibration") != std::string::npos; },
                               std::chrono::seconds(60));
  // Still blocked on the lock: it has not measured or exited.
  const bool stillRunning = waitpid(run, nullptr, WNOHANG) == 0;
  close(held);
  int status = 0;
  if (!waiting) kill(run, SIGKILL);
  waitpid(run, &status, 0);
  ASSERT_TRUE(waiting) << logText();
  EXPECT_TRUE(stillRunning);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << logText();
  EXPECT_TRUE(fs::exists(dir + "/cache/shardlab/calibration.json")) << logText();
}
