// shardlab-worker: one rank of a ShardLab job, started by mpirun (through
// shardlab-run). Reads the job, trains, and records every event into
// RUN_DIR/rank-R.trace as it happens.
#include "comm/CommStream.h"
#include "comm/FlightRecorder.h"
#include "comm/MpiCheck.h"
#include "core/Clock.h"
#include "core/Data.h"
#include "core/Memory.h"
#include "core/Recorder.h"
#include "job/BoundedFile.h"
#include "job/EnvSettings.h"
#include "job/ExitCodes.h"
#include "job/Faults.h"
#include "job/JobConfig.h"
#include "strategies/Strategy.h"
#include "worker/WorkerSetup.h"

#include <CLI/CLI.hpp>

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace shardlab;

namespace {

// Exit codes the launcher reads (job/ExitCodes.h, docs/architecture.md "Failures").
constexpr int kExitOutOfMemory = code(WorkerExit::OutOfMemory);
constexpr int kExitFailure = code(WorkerExit::Failure);

[[noreturn]] void abortJob(Recorder& recorder, int code) {
  recorder.flush();
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);
}

// "all_gather of block3 in step 4", "recv from rank 1 of block0 in step 2 (micro-batch 1)"
std::string describeCall(const trace::Event& c, const std::vector<std::string>& units) {
  std::string s(trace::toString(c.kind));
  if (c.kind == trace::Kind::Send || c.kind == trace::Kind::Recv)
    s += (c.kind == trace::Kind::Recv ? " from rank " : " to rank ") + std::to_string(c.peer);
  if (c.unit >= 0 && c.unit < static_cast<int>(units.size())) s += " of " + units[static_cast<std::size_t>(c.unit)];
  if (c.step >= 0) s += " in step " + std::to_string(c.step);
  if (c.micro >= 0) s += " (micro-batch " + std::to_string(c.micro) + ")";
  return s;
}

} // namespace

int main(int argc, char** argv) {
  // A rank never outlives the process that started it: mpirun on the launcher's machine,
  // Open MPI's orted on another host. When that one dies (killed, or its ssh session
  // dropped), nothing is left to collect this rank's trace or stop it, so it goes too.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() == 1) return kExitFailure; // it died before the line above
  CLI::App cli{"shardlab-worker: one rank of a ShardLab job (started by shardlab-run through mpirun)"};
  std::string jobFile, runDir, dumpParams;
  cli.add_option("--job", jobFile, "job configuration (JSON)")->required();
  cli.add_option("--run-dir", runDir, "where rank-R.trace is written")->required();
  cli.add_option("--dump-params", dumpParams, "rank 0 writes the final full parameters here (float32)");
  std::string faultText;
  cli.add_option("--fault", faultText, "RANK:STEP:kill|segv|exit|hang: that rank fails at the start of that step "
                                      "(tests; the launcher passes SHARDLAB_FAULT's failure here)");
  // What the launcher read from its environment (job/EnvSettings.h); a rank never reads its own.
  WorkerSettingOptions settingOptions;
  cli.add_option("--comm-spin-us", settingOptions.commSpinUs,
                 "the communication stream's hand-off poll bound in us, 0-10000 (SHARDLAB_COMM_SPIN_US)");
  cli.add_flag("--no-bind-ranks", settingOptions.noBindRanks, "leave the ranks unbound (SHARDLAB_BIND_RANKS=0)");
  cli.add_option("--blas-threads", settingOptions.blasThreads, "OpenBLAS threads of a CPU rank (SHARDLAB_BLAS_THREADS)");
  cli.add_option("--gpu-timeout-s", settingOptions.gpuTimeoutS,
                 "seconds a GPU operation may take before the rank reports it hung (SHARDLAB_GPU_TIMEOUT_S)");
  cli.add_option("--test-clock-shift-ns", settingOptions.testClockShiftNs,
                 "RANK:NS: that rank's clock reads NS ahead (tests; SHARDLAB_TEST_CLOCK_SHIFT_NS)");
  cli.add_option("--test-comm-delay-us", settingOptions.testCommDelayUs,
                 "the NCCL transport's delay after its wait (GPU tests; SHARDLAB_TEST_COMM_DELAY_US)");
  CLI11_PARSE(cli, argc, argv);
  std::optional<InjectedFailure> failure;
  std::vector<std::string> optionErrors;
  if (!faultText.empty()) {
    std::string error;
    failure = parseInjectedFailure(faultText, error);
    if (!failure) optionErrors.push_back(error);
  }
  Tuning tuning;
  TestHooks hooks;
  parseWorkerSettings(settingOptions, tuning, hooks, optionErrors);
  if (!optionErrors.empty()) {
    for (const auto& e : optionErrors) std::fprintf(stderr, "shardlab-worker: error: %s\n", e.c_str());
    return code(WorkerExit::InvalidJob);
  }

  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (provided < MPI_THREAD_MULTIPLE) {
    std::fprintf(stderr, "rank %d: this Open MPI does not support MPI_THREAD_MULTIPLE, which the communication thread needs\n", rank);
    MPI_Abort(MPI_COMM_WORLD, kExitFailure);
  }

  JobConfig job;
  {
    FileProblem unreadable;
    const auto text = readBoundedFile(jobFile, kSpecFileCap, unreadable);
    const nlohmann::json j = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
    std::vector<std::string> errors;
    if (!text) {
      errors.push_back(jobFile + " " + unreadable.text);
    } else if (!j.is_discarded()) {
      std::vector<JobIssue> issues;
      job = JobConfig::fromJson(j, issues);
      if (issues.empty()) issues = job.validate(JobConfig::HostfileCheck::Skip);
      for (const auto& i : issues) errors.push_back(i.message());
    } else {
      errors.push_back(jobFile + ": malformed JSON");
    }
    if (!errors.empty()) {
      if (rank == 0) for (const auto& e : errors) std::fprintf(stderr, "invalid job: %s\n", e.c_str());
      MPI_Abort(MPI_COMM_WORLD, code(WorkerExit::InvalidJob));
    }
  }

  const HandOffSpin spin = handOffSpinOnThisNode(MPI_COMM_WORLD, tuning.commSpin);

  std::FILE* traceFile = nullptr;
  const std::string rankFile = runDir + "/rank-" + std::to_string(rank) + ".trace";
  if (job.trace) {
    traceFile = std::fopen(rankFile.c_str(), "w");
    if (!traceFile) {
      std::fprintf(stderr, "rank %d: cannot write %s: %s\n", rank, rankFile.c_str(), std::strerror(errno));
      MPI_Abort(MPI_COMM_WORLD, kExitFailure);
    }
  }
  Recorder recorder(traceFile, rank, job.unitNames());
  WorkerSetup setup;
  try {
    setup = prepareRank(job, recorder, tuning, hooks);
    recordDeviceMemory(*setup.device, recorder);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d failed to set up its device (%s): %s\n", rank, std::string(name(job.device)).c_str(), e.what());
    abortJob(recorder, kExitFailure);
  }

  // A straggler: the job's (the launcher puts SHARDLAB_FAULT's slow form there).
  if (job.straggler && job.straggler->rank == rank) recorder.setSlowdown(job.straggler->factor, job.straggler->fromStep);

  {
    MemoryTracker memory(*setup.device, recorder, job.memoryBudget, job.unitNames());
    // The hang watchdog: a call past collective_timeout dumps the flight recorder, then
    // the rank records why and stops the job. The grace (1 s) lets the other waiting ranks'
    // watchdogs write theirs before MPI_Abort takes them down.
    FlightRecorder flight(recorder, job.collectiveTimeout, [&](const trace::Event& stuck) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", job.collectiveTimeout);
      const std::string message = "collective timeout: " + describeCall(stuck, job.unitNames()) +
                                  " has not finished after " + seconds +
                                  " s (collective_timeout); its flight recorder is in the trace";
      std::fprintf(stderr, "rank %d: %s\n", rank, message.c_str());
      recorder.failure(message);
      std::this_thread::sleep_for(std::chrono::seconds(1));
      abortJob(recorder, code(WorkerExit::Hang));
    });
    CommStream comm(MPI_COMM_WORLD, recorder, std::move(setup.transport), spin);
    comm.setFlightRecorder(&flight);
    StrategyContext ctx{job, job.shape(), *setup.device, memory, recorder, comm,
                        rank, size};
    try {
      auto strategy = makeStrategy(ctx);
      strategy->setup();
      SyntheticLanguage data(job.vocab, job.seed, job.tokensPerRow());
      MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); // every rank starts step 0 together
      for (int step = 0; step < job.steps; ++step) {
        if (failure) injectFault(*failure, rank, step);
        const auto result = strategy->step(step, data.globalBatch(step, job.batch));
        setup.device->synchronize();
        // Every operation of the step has finished and none failed: on a GPU rank a
        // failure after the step's last wait() surfaces only here (wait() does not block the host).
        comm.drain();
        if (OpTimer* timer = recorder.opTimer()) timer->drain(); // GPU ranks: the step's ops, from their events
        recordDeviceMemory(*setup.device, recorder);
        // A strategy counts the rows of the batch it computed the loss of; a GPT's row is a sequence.
        recorder.stepEnd(step, result.lossSum, result.tokens * job.tokensPerRow());
        // A rank file that cannot be written (a full disk) loses the run: stop here.
        if (const int error = recorder.writeError())
          throw std::runtime_error("cannot write " + rankFile + ": " + std::strerror(error));
      }
      if (!dumpParams.empty()) {
        const auto params = strategy->fullParameters();
        if (rank == 0) {
          std::FILE* out = std::fopen(dumpParams.c_str(), "wb");
          const bool written = out && std::fwrite(params.data(), sizeof(float), params.size(), out) == params.size();
          if (!out || std::fclose(out) != 0 || !written)
            throw std::runtime_error("--dump-params: cannot write " + dumpParams + ": " + std::strerror(errno));
        }
      }
      setup.device->synchronize();
      comm.drain(); // fullParameters' collectives too: nothing failed before the trace ends
      if (OpTimer* timer = recorder.opTimer()) timer->drain(); // record the last ops before the trace ends
      recorder.setOpTimer(nullptr);
    } catch (const OutOfMemory& e) {
      std::fprintf(stderr, "%s\n", e.what());
      abortJob(recorder, kExitOutOfMemory);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rank %d failed: %s\n", rank, e.what());
      recorder.failure(e.what());
      abortJob(recorder, kExitFailure);
    }
  }
  recorder.end();
  if (traceFile) std::fclose(traceFile);
  MPI_Finalize();
  return 0;
}
