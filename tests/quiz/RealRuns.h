// Real runs for the observation tests: each job runs once through the real
// shardlab-run (SHARDLAB_RUN, set by CMake) and mpirun, and its trace is shared by
// every test that asks for it (a static cache keeps the suite fast).
#pragma once

#include "trace/Report.h"
#include "trace/Trace.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <string>

namespace shardlab::quiz::test {

struct RealRun {
  int status = -1;            // shardlab-run's exit status
  std::string log;            // what it printed
  std::filesystem::path file; // the trace
  trace::Trace trace;
  trace::Summary summary;
  bool ok() const { return !trace.events.empty(); }
};

// A folder for this process's traces, removed when the process exits.
inline std::filesystem::path runsDir() {
  struct Dir {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("shardlab-quiz-runs-" + std::to_string(static_cast<long>(::getpid())));
    Dir() { std::filesystem::create_directories(path); }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
}

// Runs `shardlab-run ARGS --trace NAME.trace` once per name.
inline const RealRun& realRun(const std::string& name, const std::string& args) {
  static std::map<std::string, std::unique_ptr<RealRun>> cache;
  auto& slot = cache[name];
  if (slot) return *slot;
  slot = std::make_unique<RealRun>();
  const char* launcher = std::getenv("SHARDLAB_RUN");
  if (!launcher || !*launcher) {
    slot->log = "SHARDLAB_RUN is not set";
    return *slot;
  }
  slot->file = runsDir() / (name + ".trace");
  const auto logFile = runsDir() / (name + ".log");
  const std::string cmd = "timeout 180 '" + std::string(launcher) + "' " + args + " --device cpu -q --trace '" +
                          slot->file.string() + "' > '" + logFile.string() + "' 2>&1";
  const int rc = std::system(cmd.c_str());
  slot->status = WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
  std::ifstream in(logFile);
  std::stringstream ss;
  ss << in.rdbuf();
  slot->log = ss.str();
  if (std::filesystem::exists(slot->file)) {
    auto read = trace::readTraceFile(slot->file.string());
    slot->trace = std::move(read.trace);
    slot->summary = trace::summarize(slot->trace);
  }
  return *slot;
}

// The jobs the tests use: small, at most 4 ranks, a few steps.
inline const RealRun& fsdpRun() { return realRun("fsdp", "--strategy fsdp --ranks 4 --steps 2 --seed 1"); }
inline const RealRun& ddpRun() { return realRun("ddp", "--strategy ddp --ranks 4 --steps 2 --seed 1"); }
inline const RealRun& oomRun() {
  return realRun("oom", "--strategy ddp --ranks 4 --steps 2 --seed 1 --memory-budget 1.5MiB");
}
inline const RealRun& pipelineRun(int microbatches) {
  return microbatches == 1
             ? realRun("pp1", "--strategy pipeline --ranks 4 --steps 3 --seed 1 --schedule naive --microbatches 1")
             : realRun("pp" + std::to_string(microbatches), "--strategy pipeline --ranks 4 --steps 3 --seed 1 "
                                                            "--schedule gpipe --microbatches " +
                                                                std::to_string(microbatches));
}
// FSDP keeping the gathered parameters from forward to backward (one all-gather per unit).
inline const RealRun& fsdpGradOpRun() {
  return realRun("fsdp-grad-op", "--strategy fsdp --sharding grad-op --ranks 4 --steps 2 --seed 1");
}
// Without Open MPI's monitoring: the summaries have the ring model only.
inline const RealRun& ddpUnmonitoredRun() {
  return realRun("ddp-unmonitored", "--strategy ddp --ranks 4 --steps 2 --seed 1 --no-wire-monitoring");
}
inline const RealRun& fsdpUnmonitoredRun(bool gradOp) {
  return gradOp ? realRun("fsdp-grad-op-unmonitored",
                          "--strategy fsdp --sharding grad-op --ranks 4 --steps 2 --seed 1 --no-wire-monitoring")
                : realRun("fsdp-unmonitored", "--strategy fsdp --ranks 4 --steps 2 --seed 1 --no-wire-monitoring");
}
inline const RealRun& tpRun() { return realRun("tp", "--strategy tp --ranks 2 --steps 2 --seed 1"); }

} // namespace shardlab::quiz::test

// A run that must work (DDP, FSDP): fail with its log otherwise.
#define REQUIRE_RUN(RUN_)                                                                        \
  do {                                                                                          \
    if (!std::getenv("SHARDLAB_RUN")) GTEST_SKIP() << "SHARDLAB_RUN not set";                  \
    ASSERT_TRUE((RUN_).ok()) << "shardlab-run exit " << (RUN_).status << ":\n" << (RUN_).log;    \
  } while (0)
// A strategy still being built (pipeline, tp): skip with the reason when it fails.
#define REQUIRE_RUN_OR_SKIP(RUN_)                                                                \
  do {                                                                                          \
    if (!std::getenv("SHARDLAB_RUN")) GTEST_SKIP() << "SHARDLAB_RUN not set";                  \
    if ((RUN_).status != 0 || !(RUN_).ok())                                                     \
      GTEST_SKIP() << "shardlab-run exit " << (RUN_).status << ": " << (RUN_).log;              \
  } while (0)
