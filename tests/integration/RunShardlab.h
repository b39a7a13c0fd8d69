// Runs the real shardlab-run (which runs the real mpirun) from a test and captures
// what it printed. SHARDLAB_RUN names the binary (set by CMake).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace shardlab::testing {

struct RunResult {
  int status = -1;       // exit status; 128 + signal when killed; -2 on timeout
  std::string out, err;
  double seconds = 0;
};

RunResult runShardlab(const std::vector<std::string>& args,
                      const std::vector<std::pair<std::string, std::string>>& env = {}, int timeoutSeconds = 120);
// Any program (argv[0] looked up in PATH), in its own process group, as runShardlab runs shardlab-run.
RunResult runProgram(const std::vector<std::string>& argv,
                     const std::vector<std::pair<std::string, std::string>>& env = {}, int timeoutSeconds = 120);
// The binary runShardlab runs (SHARDLAB_RUN).
std::string shardlabRunPath();

// A fresh directory under the test's temporary folder.
std::string freshDir(const std::string& name);

std::vector<float> readFloats(const std::string& path);
// max |a - b| / (1 + max |b|): fp32 closeness of two parameter vectors.
double relativeDifference(const std::vector<float>& a, const std::vector<float>& b);

} // namespace shardlab::testing
