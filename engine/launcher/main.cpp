// shardlab-run: starts a ShardLab job under mpirun, streams and merges every rank's
// events, and prints the run's summary. This is what the app runs, and what a
// learner can copy to a cluster.
#include "core/Cpus.h"
#include "job/CommSpinSetting.h"
#include "job/ExitCodes.h"
#include "job/MemoryEstimate.h"
#include "job/Version.h"
#include "launcher/CalibrationProbe.h"
#include "launcher/DeviceChoice.h"
#include "launcher/GpuMemory.h"
#include "launcher/LaunchOptions.h"
#include "launcher/MpiJob.h"
#include "trace/ChromeTrace.h"
#include "trace/HangReport.h"
#include "trace/Summary.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

using namespace shardlab;
namespace fs = std::filesystem;

namespace {

constexpr int kExitInvalid = code(LauncherExit::InvalidJob);
constexpr int kExitRankFailed = code(LauncherExit::RankFailed);
constexpr int kExitMissingTool = code(LauncherExit::MissingTool);
constexpr int kExitInterrupted = code(LauncherExit::Interrupted);

// Each rank runs a compute thread and, when there is someone to talk to, its
// communication thread, which Open MPI's shared-memory transport keeps busy polling
// while a collective runs: so 1 thread for a single rank, 2 per rank otherwise.
// Beyond the cores, ranks that are ready wait for one, and an op's wall time includes
// that wait (the summary's core_wait_s measures it).
void warnIfCoresAreOutnumbered(int ranks) {
  const int cores = usableCpuCount();
  const int threads = ranks == 1 ? 1 : 2 * ranks;
  if (threads <= cores) return;
  std::fprintf(stderr,
               "shardlab-run: warning: %d ranks on %d %s: ranks will wait for a core, so timings of overlapping work are "
               "distorted (%d threads: a compute and a communication thread per rank)\n",
               ranks, cores, cores == 1 ? "core" : "cores", threads);
}

// MemAvailable of /proc/meminfo in bytes: what can be allocated without swapping; 0
// when unknown (then memory is not checked). Test hook: SHARDLAB_FREE_MEMORY (a size
// such as 1MiB) stands for it.
std::int64_t availableMemory() {
  if (const char* fake = std::getenv("SHARDLAB_FREE_MEMORY"))
    if (auto bytes = parseBytes(fake)) return *bytes;
  std::ifstream in("/proc/meminfo");
  std::string key;
  long long kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return static_cast<std::int64_t>(kib) * 1024;
  }
  return 0;
}

std::string findOnPath(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::string p = path;
  std::size_t start = 0;
  while (start <= p.size()) {
    auto end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string candidate = p.substr(start, end - start) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return "";
}

std::string findWorker() {
  if (const char* w = std::getenv("SHARDLAB_WORKER")) return w;
  std::error_code ec;
  auto self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto candidate = self.parent_path() / "shardlab-worker";
    if (fs::exists(candidate)) return candidate.string();
  }
  return findOnPath("shardlab-worker");
}

std::string joinCommand(const std::vector<std::string>& c) {
  std::string s;
  for (const auto& a : c) {
    if (!s.empty()) s += ' ';
    const bool quote = a.find_first_of(" \t'\"$") != std::string::npos;
    s += quote ? "'" + a + "'" : a;
  }
  return s;
}

std::string isoNow() {
  char buf[32];
  std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

// A rank killed by a signal, or exiting on its own, writes nothing about it: only
// mpirun saw it. Its failure goes into the trace as mpirun reported it (a `fail` record
// at the rank's last recorded instant: it died after that), so that the trace alone
// says which rank failed and why (the app shows it, docs/trace-format.md). Ranks that
// recorded their own failure, and those mpirun says stopped the job (MPI_Abort after
// such a record), are left as they are.
template <class Emit>
void recordSilentFailures(const std::vector<RankFailure>& failures, const trace::Trace& merged, Emit&& emit) {
  for (const auto& f : failures) {
    if (f.rank < 0 || f.reason.rfind("stopped the job", 0) == 0) continue;
    bool recorded = false;
    std::int64_t last = -1, latest = 0;
    for (const auto& e : merged.events) {
      latest = std::max(latest, e.t1);
      if (e.rank != f.rank) continue;
      last = std::max(last, e.t1);
      recorded = recorded || e.record == trace::Record::Failure || e.record == trace::Record::OutOfMemory;
    }
    if (recorded) continue;
    emit("fail " + std::to_string(f.rank) + " " + std::to_string(last >= 0 ? last : latest) + " " +
         nlohmann::json(f.reason).dump());
  }
}

} // namespace

int main(int argc, char** argv) {
  installStopHandlers();
  std::vector<std::string> errors;
  int exitCode = 0;
  auto parsed = parseLaunchOptions(argc, argv, errors, exitCode);
  if (!parsed) {
    for (const auto& e : errors) std::fprintf(stderr, "shardlab-run: error: %s\n", e.c_str());
    return exitCode;
  }
  LaunchOptions& options = *parsed;
  if (options.checkOnly) {
    std::printf("shardlab-run: the job is valid: %s\n", options.job.toJson().dump().c_str());
    return code(LauncherExit::Done);
  }
  try {
    commSpinFromEnvironment(); // the ranks read it; a bad value is refused here, before any launch
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "shardlab-run: error: %s\n", e.what());
    return kExitInvalid;
  }
  // Pre-flight (before calibration or mpirun, so a job that cannot fit is refused in
  // well under a second): CPU ranks' estimated memory against this machine's free
  // memory, and the ranks against its cores; GPU ranks' against each GPU's free memory
  // (not against host memory). --force skips it.
  if (!options.force) {
    const DeviceKind device = options.job.device == DeviceKind::Auto ? chooseDevice(options.job).device : options.job.device;
    std::optional<std::string> why;
    if (device == DeviceKind::Cuda || device == DeviceKind::CudaMpiStaged)
      why = gpuPreflightRefusal(options.job, visibleGpuMemory(), !options.job.hostfile.empty());
    else
      why = preflightRefusal(options.job, {availableMemory(), usableCpuCount(), !options.job.hostfile.empty()});
    if (why) {
      std::fprintf(stderr, "shardlab-run: error: %s\n", why->c_str());
      return kExitInvalid;
    }
  }
  // With --events -, standard output carries the trace: human text goes to stderr.
  std::FILE* human = options.eventsTo == "-" ? stderr : stdout;

  const std::string mpirun = findOnPath(options.mpirun);
  if (mpirun.empty()) {
    std::fprintf(stderr,
                 "shardlab-run: error: '%s' not found: ShardLab runs its ranks with Open MPI's mpirun "
                 "(Debian/Ubuntu: sudo apt-get install openmpi-bin)\n",
                 options.mpirun.c_str());
    return kExitMissingTool;
  }
  options.mpirun = mpirun;
  const std::string worker = findWorker();
  if (worker.empty()) {
    std::fprintf(stderr,
                 "shardlab-run: error: shardlab-worker not found next to shardlab-run or on PATH "
                 "(build the target shardlab-worker, or set SHARDLAB_WORKER)\n");
    return kExitMissingTool;
  }

  if (options.calibrate || options.recalibrate) {
    std::string error;
    const auto calibration =
        options.recalibrate ? measureCalibration(options, worker, error) : machineCalibration(options, worker, error);
    if (!calibration) {
      std::fprintf(stderr, "shardlab-run: error: calibration: %s\n", error.c_str());
      return kExitRankFailed;
    }
    std::printf("%s\n", calibration->toJson().dump(2).c_str());
    return code(LauncherExit::Done);
  }
  // What the machine can do, measured once per machine and build: the job record keeps
  // it, so every trace says what its lesson was sized for.
  std::string calibrationError;
  const auto calibration = machineCalibration(options, worker, calibrationError);
  if (!calibration)
    std::fprintf(stderr, "shardlab-run: warning: no calibration recorded: %s\n", calibrationError.c_str());

  const DeviceChoice device = chooseDevice(options.job);
  if (!device.error.empty()) {
    std::fprintf(stderr, "shardlab-run: error: --device: %s\n", device.error.c_str());
    return kExitInvalid;
  }
  options.job.device = device.device;
  std::fprintf(stderr, "shardlab-run: device %s: %s\n", std::string(name(device.device)).c_str(), device.reason.c_str());
  // CPU ranks on this machine share its cores; GPU ranks are timed on the device.
  if (device.device == DeviceKind::Cpu && options.job.hostfile.empty()) warnIfCoresAreOutnumbered(options.job.ranks);

  // The ranks write their traces into the run directory; the launcher follows them.
  const bool keepRunDir = !options.runDir.empty();
  std::string runDir = options.runDir;
  if (keepRunDir) {
    std::error_code ec;
    fs::create_directories(runDir, ec);
    if (ec) {
      std::fprintf(stderr, "shardlab-run: error: --run-dir: cannot create '%s': %s\n", runDir.c_str(), ec.message().c_str());
      return kExitInvalid;
    }
  } else {
    // Ranks on other machines read job.json and write their traces here, so with a
    // hostfile it goes where a lab room's machines all see the same path: the user's
    // (shared) home, beside the calibration cache, rather than this machine's /tmp.
    const fs::path base = options.job.hostfile.empty() ? fs::temp_directory_path()
                                                       : calibrationCachePath().parent_path() / "runs";
    std::error_code ec;
    fs::create_directories(base, ec);
    std::string tmpl = (base / "shardlab-run-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) {
      std::fprintf(stderr, "shardlab-run: error: cannot create a run directory in '%s': %s\n", base.c_str(),
                   std::strerror(errno));
      return kExitInvalid;
    }
    runDir = tmpl;
    if (!options.job.hostfile.empty())
      std::fprintf(stderr,
                   "shardlab-run: the ranks write into %s: every machine of the hostfile must see it at this path "
                   "(a shared home); --run-dir DIR chooses another\n",
                   runDir.c_str());
  }
  // A run directory the launcher made is its own to remove, whatever the outcome: the
  // merged trace has gone to --trace or standard output, and each stopped or failed run
  // would otherwise leave its per-rank files behind. --run-dir DIR keeps them.
  struct RemoveTemporaryRunDir {
    std::string dir;
    ~RemoveTemporaryRunDir() {
      std::error_code ec;
      if (!dir.empty()) fs::remove_all(dir, ec);
    }
  } const removeRunDir{keepRunDir ? std::string() : runDir};
  {
    std::ofstream jobOut(runDir + "/job.json");
    jobOut << options.job.toJson().dump(2) << "\n";
  }

  MpiJob job(options, worker, runDir);
  const auto command = job.command();
  nlohmann::json jobRecord = options.job.toJson();
  jobRecord["model"] = options.job.modelJson();
  jobRecord["device_reason"] = device.reason;
  jobRecord["calibration"] = calibration ? calibration->toJson() : nlohmann::json();
  jobRecord["command"] = joinCommand(command);
  // Which algorithms Open MPI ran the collectives with: docs/trace-format.md, "Bytes on the wire".
  {
    nlohmann::json parameters = nlohmann::json::object();
    for (const auto& [name, value] : job.collectiveAlgorithmParameters()) parameters[name] = value;
    jobRecord["collective_algorithms"] = {{"choice", options.collectiveAlgorithms}, {"mca", parameters}};
  }
  jobRecord["shardlab_version"] = kVersion;
  jobRecord["started_at"] = isoNow();

  trace::Trace merged;
  trace::TraceParser parser(merged);
  std::FILE* traceFile = nullptr;
  if (!options.traceFile.empty()) {
    traceFile = std::fopen(options.traceFile.c_str(), "w");
    if (!traceFile) {
      std::fprintf(stderr, "shardlab-run: error: --trace: cannot write '%s'\n", options.traceFile.c_str());
      return kExitInvalid;
    }
  }
  trace::TraceWriter traceOut(traceFile ? traceFile : stdout);
  trace::TraceWriter eventsOut(stdout);
  const bool streamEvents = options.eventsTo == "-";
  auto emit = [&](std::string_view line) {
    if (auto err = parser.parseLine(line))
      std::fprintf(stderr, "shardlab-run: warning: damaged trace line skipped: %s\n", err->c_str());
    if (traceFile) traceOut.writeLine(line);
    if (streamEvents) eventsOut.writeLine(line);
  };
  const std::string header = std::string(trace::kMagic) + " " + std::to_string(trace::kFormatVersion);
  emit(header);
  emit("job " + jobRecord.dump());
  if (streamEvents) eventsOut.flush();

  std::fprintf(stderr, "shardlab-run: %s\n", joinCommand(command).c_str());
  JobOutcome outcome;
  try {
    outcome = job.run([&](std::string_view line) {
      emit(line);
      if (streamEvents) eventsOut.flush();
    });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "shardlab-run: error: %s\n", e.what());
    return kExitMissingTool;
  }
  recordSilentFailures(outcome.failures, merged, emit);
  if (traceFile) {
    traceOut.flush();
    std::fclose(traceFile);
  }
  if (streamEvents) eventsOut.flush();

  const trace::Summary summary = trace::summarize(merged);
  if (!options.quiet) std::fprintf(human, "%s", summary.toTable().c_str());
  if (!options.summaryJsonFile.empty()) {
    std::ofstream out(options.summaryJsonFile);
    out << summary.toJson().dump(2) << "\n";
  }
  if (!options.chromeTraceFile.empty()) {
    std::ofstream out(options.chromeTraceFile);
    trace::writeChromeTrace(merged, out);
  }

  // Failures: what the ranks recorded first, then what mpirun saw.
  std::map<int, std::string> failed;
  for (const auto& r : summary.ranksDetail)
    if (r.failure) failed[r.rank] = *r.failure;
  for (const auto& f : outcome.failures)
    if (!failed.count(f.rank) && f.reason.rfind("stopped the job", 0) != 0) failed[f.rank] = f.reason;
  const bool ok = outcome.mpirunStatus == 0 && failed.empty() && !outcome.interrupted;

  if (outcome.interrupted) {
    std::fprintf(stderr, "shardlab-run: stopped on request after %d of %d steps; the partial trace is kept %s%s\n",
                 summary.stepsCompleted, options.job.steps, options.traceFile.empty() ? "on standard output" : "in ",
                 options.traceFile.c_str());
    return kExitInterrupted;
  }
  if (!ok) {
    // A hang: the waiting ranks' flight recorders say who never came.
    if (const auto hang = trace::hangReport(merged)) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", options.job.collectiveTimeout);
      std::fprintf(stderr, "shardlab-run: hang after %s s (--collective-timeout): %s\n", seconds, hang->message.c_str());
    }
    for (const auto& [rank, reason] : failed) std::fprintf(stderr, "shardlab-run: rank %d failed: %s\n", rank, reason.c_str());
    if (failed.empty())
      std::fprintf(stderr, "shardlab-run: mpirun exited with status %d\n", outcome.mpirunStatus);
    std::fprintf(stderr, "shardlab-run: the other ranks were stopped after %d of %d steps; partial trace kept %s\n",
                 summary.stepsCompleted, options.job.steps,
                 !options.traceFile.empty() ? ("in " + options.traceFile).c_str()
                 : keepRunDir               ? ("in " + runDir).c_str()
                                            : "on standard output");
    return kExitRankFailed;
  }
  return 0;
}
