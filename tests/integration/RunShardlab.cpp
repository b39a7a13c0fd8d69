#include "RunShardlab.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace shardlab::testing {

std::string shardlabRunPath() {
  const char* exe = std::getenv("SHARDLAB_RUN");
  if (!exe) throw std::runtime_error("SHARDLAB_RUN is not set");
  return exe;
}

RunResult runShardlab(const std::vector<std::string>& args, const std::vector<std::pair<std::string, std::string>>& env,
                      int timeoutSeconds) {
  std::vector<std::string> argv{shardlabRunPath()};
  argv.insert(argv.end(), args.begin(), args.end());
  return runProgram(argv, env, timeoutSeconds);
}

RunResult runProgram(const std::vector<std::string>& command,
                     const std::vector<std::pair<std::string, std::string>>& env, int timeoutSeconds) {
  if (command.empty()) throw std::runtime_error("runProgram: no program");
  int outPipe[2], errPipe[2];
  if (pipe(outPipe) != 0 || pipe(errPipe) != 0) throw std::runtime_error("pipe failed");
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(outPipe[1], 1);
    dup2(errPipe[1], 2);
    close(outPipe[0]);
    close(errPipe[0]);
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> argv;
    for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  close(outPipe[1]);
  close(errPipe[1]);
  RunResult r;
  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  int open = 2;
  while (open > 0) {
    const auto elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed > std::chrono::seconds(timeoutSeconds)) {
      kill(-pid, SIGKILL);
      break;
    }
    if (poll(fds, 2, 100) <= 0) continue;
    for (auto& f : fds) {
      if (f.fd < 0 || !(f.revents & (POLLIN | POLLHUP))) continue;
      char buf[8192];
      const ssize_t n = read(f.fd, buf, sizeof buf);
      if (n <= 0) {
        close(f.fd);
        f.fd = -1;
        --open;
      } else {
        (f.fd == outPipe[0] ? r.out : r.err).append(buf, static_cast<std::size_t>(n));
      }
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  for (auto& f : fds)
    if (f.fd >= 0) close(f.fd);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.seconds > timeoutSeconds) r.status = -2;
  else r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::string freshDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("shardlab-test-" + std::to_string(getpid())) / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::vector<float> readFloats(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<float> v(bytes.size() / sizeof(float));
  std::copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(v.size() * sizeof(float)),
            reinterpret_cast<char*>(v.data()));
  return v;
}

double relativeDifference(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size() || a.empty()) return INFINITY;
  double maxDiff = 0, maxRef = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    maxDiff = std::max(maxDiff, static_cast<double>(std::fabs(a[i] - b[i])));
    maxRef = std::max(maxRef, static_cast<double>(std::fabs(b[i])));
  }
  return maxDiff / (1.0 + maxRef);
}

} // namespace shardlab::testing
