// shardlab-run: starts a ShardLab job under mpirun, streams and merges every rank's
// events, and prints the run's summary. This is what the app runs, and what a
// learner can copy to a cluster.
#include "core/Cpus.h"
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
#include "trace/Report.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <sched.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
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
#include <sstream>
#include <optional>
#include <stdexcept>

using namespace shardlab;
namespace fs = std::filesystem;

namespace {

constexpr int kExitInvalid = code(LauncherExit::InvalidJob);
constexpr int kExitRankFailed = code(LauncherExit::RankFailed);
constexpr int kExitMissingTool = code(LauncherExit::MissingTool);
constexpr int kExitInterrupted = code(LauncherExit::Interrupted);
constexpr int kExitOutputFailed = code(LauncherExit::OutputFailed);

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
// such as 1MiB, TestHooks::freeMemory) stands for it.
std::int64_t availableMemory(const TestHooks& hooks) {
  if (hooks.freeMemory) return *hooks.freeMemory;
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

std::string findWorker(const LaunchOptions& options) {
  if (options.namedWorker) return *options.namedWorker;
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

// Removes every rank-R.trace of `dir`; the file and the reason when one cannot be removed.
std::optional<std::string> removeRankFiles(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool rankFile = name.rfind("rank-", 0) == 0 && name.size() > 11 && name.ends_with(".trace") &&
                          name.find_first_not_of("0123456789", 5) == name.size() - 6;
    if (!rankFile) continue;
    std::error_code removeError;
    if (!fs::remove(entry.path(), removeError) && removeError)
      return "'" + entry.path().string() + "': " + removeError.message();
  }
  if (ec) return "files in '" + dir + "': " + ec.message();
  return std::nullopt;
}

// An output file of the run (--trace, --summary-json, --chrome-trace, --dump-params).
// Each is opened before anything runs, so that a path that cannot be written (a missing
// folder, a read-only mount) is refused with exit 2 before a rank starts; every write
// and the close are checked, so that a full disk ends the run in an error naming it.
struct OutputFile {
  std::string option, path;
  std::FILE* file = nullptr;
  int error = 0; // errno of the first failed write or close

  std::string failure() const {
    return option + ": cannot write '" + path + "': " + std::strerror(error);
  }
  void write(std::string_view text) {
    if (!file || error) return;
    if (std::fwrite(text.data(), 1, text.size(), file) != text.size()) error = errno ? errno : EIO;
  }
  // Closes the file; false when a byte of it did not reach the disk.
  bool close(int writerError = 0) {
    if (!file) return error == 0;
    if (writerError && !error) error = writerError;
    if (std::fflush(file) != 0 && !error) error = errno ? errno : EIO;
    if (std::fclose(file) != 0 && !error) error = errno ? errno : EIO;
    file = nullptr;
    return error == 0;
  }
};

// Opens each output given; the first that cannot be opened, or two options naming one
// file (the second would overwrite the first, or an output the job's --spec or
// --hostfile, `inputs`), as the error to refuse the job with.
std::optional<std::string> openOutputs(std::vector<OutputFile>& outputs,
                                       const std::vector<std::pair<std::string, std::string>>& inputs) {
  std::vector<std::pair<fs::path, std::string>> seen;
  for (const auto& [option, path] : inputs) {
    std::error_code ec;
    const fs::path same = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (!path.empty() && !ec) seen.emplace_back(same, option);
  }
  for (auto& o : outputs) {
    std::error_code ec;
    // Absolute first: a relative path that does not exist yet stays relative under
    // weakly_canonical, and would not equal itself once the first option created it.
    const fs::path same = fs::weakly_canonical(fs::absolute(o.path, ec), ec);
    for (const auto& [path, option] : seen)
      if (!ec && path == same) return o.option + ": '" + o.path + "' is also the file of " + option;
    seen.emplace_back(same, o.option);
    struct stat st {};
    if (::stat(o.path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
      return o.option + ": '" + o.path + "' is a directory";
    // Opened without truncating, then locked: a second run naming the file of a run still
    // writing it is refused, instead of both cutting it and the last one's lines winning.
    const int fd = ::open(o.path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return o.option + ": cannot write '" + o.path + "': " + std::strerror(errno);
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      ::close(fd);
      if (error == EWOULDBLOCK) return o.option + ": '" + o.path + "' is being written by another shardlab-run";
      return o.option + ": cannot lock '" + o.path + "': " + std::strerror(error);
    }
    struct stat opened {};
    if (::fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) && ::ftruncate(fd, 0) != 0) {
      const int error = errno;
      ::close(fd);
      return o.option + ": cannot write '" + o.path + "': " + std::strerror(error);
    }
    o.file = ::fdopen(fd, "w");
    if (!o.file) {
      const int error = errno;
      ::close(fd);
      return o.option + ": cannot write '" + o.path + "': " + std::strerror(error);
    }
  }
  return std::nullopt;
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

// The host rank `r` ran on (its rank record), or where Open MPI placed it (`placed`,
// hostsBySlot); empty when neither says.
std::string rankHost(const trace::Trace& merged, int r, const std::vector<std::string>& placed) {
  if (const trace::RankInfo* info = merged.rankInfo(r); info && info->meta.is_object())
    if (const auto host = info->meta.find("host"); host != info->meta.end() && host->is_string()) return *host;
  return static_cast<std::size_t>(r) < placed.size() ? placed[static_cast<std::size_t>(r)] : std::string();
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
  // Pre-flight (before calibration or mpirun, so a job that cannot fit is refused in
  // well under a second): CPU ranks' estimated memory against this machine's free
  // memory, and the ranks against its cores; GPU ranks' against each GPU's free memory
  // (not against host memory). --force skips it.
  if (!options.force) {
    const DeviceKind device = options.job.device == DeviceKind::Auto ? chooseDevice(options.job).device : options.job.device;
    std::optional<std::string> why;
    if (device == DeviceKind::Cuda || device == DeviceKind::CudaMpiStaged)
      why = gpuPreflightRefusal(options.job, visibleGpuMemory(options.hooks), !options.job.hostfile.empty());
    else
      why = preflightRefusal(options.job, {availableMemory(options.hooks), usableCpuCount(), !options.job.hostfile.empty()});
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
  const std::string worker = findWorker(options);
  // A worker named by hand that is not there fails here, by name, not in mpirun.
  if (const auto& named = options.namedWorker; named && access(worker.c_str(), X_OK) != 0) {
    std::fprintf(stderr,
                 "shardlab-run: error: SHARDLAB_WORKER names '%s', which is not an executable file "
                 "(build the target shardlab-worker, or point SHARDLAB_WORKER at it)\n", named->c_str());
    return kExitMissingTool;
  }
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
  const DeviceChoice device = chooseDevice(options.job);
  if (!device.error.empty()) {
    std::fprintf(stderr, "shardlab-run: error: --device: %s\n", device.error.c_str());
    return kExitInvalid;
  }
  options.job.device = device.device;
  std::fprintf(stderr, "shardlab-run: device %s: %s\n", std::string(name(device.device)).c_str(), device.reason.c_str());
  // CPU ranks on this machine share its cores; GPU ranks are timed on the device.
  if (device.device == DeviceKind::Cpu && options.job.hostfile.empty()) warnIfCoresAreOutnumbered(options.job.ranks);

  // The outputs, before the calibration's probe jobs and the job's ranks start.
  std::vector<OutputFile> outputs;
  if (!options.traceFile.empty()) outputs.push_back({"--trace", options.traceFile});
  if (!options.summaryJsonFile.empty()) outputs.push_back({"--summary-json", options.summaryJsonFile});
  if (!options.chromeTraceFile.empty()) outputs.push_back({"--chrome-trace", options.chromeTraceFile});
  if (!options.dumpParams.empty()) outputs.push_back({"--dump-params", options.dumpParams});
  if (const auto why = openOutputs(outputs, {{"--spec", options.specFile}, {"--hostfile", options.job.hostfile}})) {
    std::fprintf(stderr, "shardlab-run: error: %s\n", why->c_str());
    return kExitInvalid;
  }
  auto output = [&](std::string_view option) -> OutputFile* {
    for (auto& o : outputs)
      if (o.option == option) return &o;
    return nullptr;
  };
  // Rank 0 writes the parameters itself (and checks its write): here only whether it can.
  if (OutputFile* params = output("--dump-params")) params->close();

  // What the machine can do, measured once per machine and build: the job record keeps
  // it, so every trace says what its lesson was sized for.
  std::string calibrationError;
  const auto calibration = machineCalibration(options, worker, calibrationError);
  if (!calibration)
    std::fprintf(stderr, "shardlab-run: warning: no calibration recorded: %s\n", calibrationError.c_str());

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
    // A run directory used before holds the previous run's rank files: followed, they
    // would become this run's trace (and the ranks' own lines lost behind them).
    if (auto stale = removeRankFiles(runDir)) {
      std::fprintf(stderr, "shardlab-run: error: --run-dir: cannot remove the previous run's %s\n", stale->c_str());
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
    OutputFile jobFile{"the run directory", runDir + "/job.json"};
    jobFile.file = std::fopen(jobFile.path.c_str(), "w");
    if (!jobFile.file) jobFile.error = errno;
    jobFile.write(options.job.toJson().dump(2) + "\n");
    if (!jobFile.close()) {
      std::fprintf(stderr, "shardlab-run: error: %s\n", jobFile.failure().c_str());
      return kExitOutputFailed;
    }
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
  OutputFile* const traceFile = output("--trace");
  trace::TraceWriter traceOut(traceFile ? traceFile->file : stdout);
  trace::TraceWriter eventsOut(stdout);
  const bool streamEvents = options.eventsTo == "-";
  // A write that fails (a full disk, a reader of --events - gone) ends the job: what it
  // would still run could not be recorded. Said once, at once.
  bool outputFailed = false;
  auto checkWrites = [&] {
    if (outputFailed) return;
    if (traceFile && traceOut.error()) {
      traceFile->error = traceOut.error();
      std::fprintf(stderr, "shardlab-run: error: %s; stopping the job\n", traceFile->failure().c_str());
    } else if (streamEvents && eventsOut.error()) {
      std::fprintf(stderr, "shardlab-run: error: --events -: cannot write standard output: %s; stopping the job\n",
                   std::strerror(eventsOut.error()));
    } else {
      return;
    }
    outputFailed = true;
    requestStop();
  };
  auto emit = [&](std::string_view line) {
    if (auto err = parser.parseLine(line))
      std::fprintf(stderr, "shardlab-run: warning: damaged trace line skipped: %s\n", err->c_str());
    if (traceFile) traceOut.writeLine(line);
    if (streamEvents) eventsOut.writeLine(line);
    checkWrites();
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
  // A lost host's ranks say nothing, and mpirun names only the host: each of its ranks
  // fails by name, with that host, in the trace and in the verdict.
  if (!outcome.lostHosts.empty()) {
    const auto placed = hostsBySlot(options.job.hostfile, options.job.ranks);
    for (int r = 0; r < options.job.ranks; ++r) {
      const std::string host = rankHost(merged, r, placed);
      const bool lost = std::find(outcome.lostHosts.begin(), outcome.lostHosts.end(), host) != outcome.lostHosts.end();
      const bool named = std::any_of(outcome.failures.begin(), outcome.failures.end(),
                                     [r](const RankFailure& f) { return f.rank == r; });
      if (lost && !named)
        outcome.failures.push_back({r, "lost with its host " + host + " (mpirun lost contact with its Open MPI daemon)"});
    }
  }
  recordSilentFailures(outcome.failures, merged, emit);
  if (traceFile) {
    traceOut.flush();
    traceFile->close(traceOut.error());
  }
  if (streamEvents) eventsOut.flush();

  // A run stopped on request is not replayed: the replay schedules the whole trace three
  // times (seconds per minute of run), and a Stop should end the run at once; the trace
  // kept can be replayed afterwards.
  trace::Summary summary = outcome.interrupted ? trace::summarizeMeasured(merged) : trace::summarize(merged);
  if (outcome.interrupted)
    summary.replay.notReplayed = "the run was stopped on request; shardlab-replay replays its trace";
  if (!options.quiet) std::fprintf(human, "%s", summary.toTable().c_str());
  if (OutputFile* out = output("--summary-json")) {
    out->write(summary.toJson().dump(2) + "\n");
    out->close();
  }
  if (OutputFile* out = output("--chrome-trace")) {
    std::ostringstream chrome;
    trace::writeChromeTrace(merged, chrome);
    out->write(chrome.str());
    out->close();
  }
  // An output that did not get all its bytes: the run's record is not whole.
  bool outputsWhole = !(streamEvents && eventsOut.error());
  for (const auto& o : outputs)
    if (o.error) {
      std::fprintf(stderr, "shardlab-run: error: %s\n", o.failure().c_str());
      outputsWhole = false;
    }
  if (!outputsWhole) return kExitOutputFailed;

  // Failures: what the ranks recorded first, then what mpirun saw.
  std::map<int, std::string> failed;
  for (const auto& r : summary.ranksDetail)
    if (r.failure) failed[r.rank] = *r.failure;
  for (const auto& f : outcome.failures)
    if (!failed.count(f.rank) && f.reason.rfind("stopped the job", 0) != 0) failed[f.rank] = f.reason;
  const bool ok = outcome.mpirunStatus == 0 && failed.empty() && !outcome.interrupted;

  // Where what the ranks recorded went: said after a stop or a failure.
  const std::string traceKept = !options.traceFile.empty() ? "partial trace kept in " + options.traceFile
                                : streamEvents           ? std::string("partial trace sent to standard output")
                                : keepRunDir             ? "the ranks' partial traces kept in " + runDir
                                                         : std::string("no trace kept (--trace FILE keeps one)");
  const bool anyRankStarted = std::any_of(merged.ranks.begin(), merged.ranks.end(),
                                          [](const trace::RankInfo& r) { return !r.meta.is_null(); });
  if (outcome.interrupted) {
    std::fprintf(stderr, "shardlab-run: stopped on request after %d of %d steps; %s\n", summary.stepsCompleted,
                 options.job.steps, traceKept.c_str());
    return kExitInterrupted;
  }
  if (!outcome.unstartedRanks.empty()) {
    const auto placed = hostsBySlot(options.job.hostfile, options.job.ranks);
    std::string ranks, hosts;
    for (int r : outcome.unstartedRanks) {
      ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
      const std::string host = rankHost(merged, r, placed);
      if (!host.empty() && hosts.find(host) == std::string::npos) hosts += (hosts.empty() ? "" : ", ") + host;
    }
    std::string message = std::string(outcome.unstartedRanks.size() == 1 ? "rank " : "ranks ") + ranks +
                          " did not start within " + std::to_string(outcome.launchDeadline.count()) + " s of the launch";
    if (!hosts.empty()) message += " (host " + hosts + " never ran " + (outcome.unstartedRanks.size() == 1 ? "it)" : "them)");
    message += "; the job was stopped";
    if (!options.job.hostfile.empty())
      message += ": check that each host of " + options.job.hostfile + " is up and starts Open MPI's orted over ssh";
    std::fprintf(stderr, "shardlab-run: error: %s\n", message.c_str());
    return kExitRankFailed;
  }
  if (!ok) {
    // A hang: the waiting ranks' flight recorders say who never came.
    if (const auto hang = trace::hangReport(merged)) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", options.job.collectiveTimeout);
      std::fprintf(stderr, "shardlab-run: hang after %s s (--collective-timeout): %s\n", seconds, hang->message.c_str());
    }
    for (const auto& [rank, reason] : failed) std::fprintf(stderr, "shardlab-run: rank %d failed: %s\n", rank, reason.c_str());
    if (!anyRankStarted) {
      std::fprintf(stderr, "shardlab-run: no rank started: mpirun exited with status %d (its own words are above)\n",
                   outcome.mpirunStatus);
      return kExitRankFailed;
    }
    if (failed.empty())
      std::fprintf(stderr, "shardlab-run: mpirun exited with status %d\n", outcome.mpirunStatus);
    std::fprintf(stderr, "shardlab-run: the other ranks were stopped after %d of %d steps; %s\n", summary.stepsCompleted,
                 options.job.steps, traceKept.c_str());
    return kExitRankFailed;
  }
  return 0;
}
