#include "launcher/CalibrationProbe.h"

#include "core/Cpus.h"
#include "job/BoundedFile.h"
#include "job/Version.h"
#include "launcher/MpiJob.h"
#include "trace/TraceReader.h"

#ifdef SHARDLAB_HAVE_CUDA
#include "cuda/CudaDevice.h"
#endif

#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <tuple>
#include <vector>

namespace shardlab {

namespace fs = std::filesystem;

namespace {

int usableGpus() {
#ifdef SHARDLAB_HAVE_CUDA
  return cudaDeviceCount();
#else
  return 0;
#endif
}

double seconds(std::int64_t t0, std::int64_t t1) { return static_cast<double>(t1 - t0) * 1e-9; }

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// Runs one probe job and returns its trace; empty `error` on success.
trace::Trace runProbe(const LaunchOptions& base, const JobConfig& job, const std::string& worker, std::string& error) {
  LaunchOptions options = base;
  options.job = job;
  options.dumpParams.clear();
  options.job.hostfile.clear();  // this machine is what is calibrated
  options.failure.reset();       // a fault asked for the job (tests: SHARDLAB_FAULT) is not the probe's
  std::string dir = (fs::temp_directory_path() / "shardlab-calibrate-XXXXXX").string();
  if (!mkdtemp(dir.data())) {
    error = "cannot create a temporary directory";
    return {};
  }
  {
    std::ofstream out(dir + "/job.json");
    out << job.toJson().dump() << "\n";
  }
  trace::Trace trace;
  trace::TraceParser parser(trace);
  parser.parseLine(std::string(trace::kMagic) + " " + std::to_string(trace::kFormatVersion));
  parser.parseLine("job " + job.toJson().dump());
  MpiJob mpi(options, worker, dir);
  const JobOutcome outcome = mpi.run([&](std::string_view line) { parser.parseLine(line); });
  if (outcome.mpirunStatus != 0 || outcome.interrupted)
    error = "probe job (" + std::string(name(job.strategy)) + ") failed: mpirun exited with status " +
            std::to_string(outcome.mpirunStatus);
  fs::remove_all(dir);
  return trace;
}

} // namespace

std::string calibrationKey(const std::string& workerPath) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::error_code ec;
  const auto size = fs::file_size(workerPath, ec);
  const auto time = fs::last_write_time(workerPath, ec).time_since_epoch().count();
  return std::string(host) + " " + kVersion + " " + std::to_string(size) + " " + std::to_string(time);
}

fs::path calibrationCachePath() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "shardlab" / "calibration.json";
  const char* home = std::getenv("HOME");
  return fs::path(home && *home ? home : "/tmp") / ".cache" / "shardlab" / "calibration.json";
}

std::optional<Calibration> readCachedCalibration(const fs::path& file, const std::string& key) {
  // Whatever is there (a directory, a huge or truncated file, another type) is measured again.
  std::string unreadable;
  auto c = Calibration::readFile(file.string(), unreadable);
  if (!c || c->key != key) return std::nullopt;
  return c;
}

namespace {

// One calibration at a time per cache: runs measuring together measured each other's load
// (GEMM 7-11 GFLOP/s against 14 alone, hand-offs 7 times slower), and that stayed cached.
// Held (flock on calibration.json.lock) while measuring; a second run waits, saying so.
// Where the lock file cannot be made (a read-only cache), runs measure unlocked.
class CalibrationLock {
public:
  CalibrationLock() {
    const fs::path lock = calibrationCachePath().string() + ".lock";
    std::error_code ec;
    fs::create_directories(lock.parent_path(), ec);
    fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) return;
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    std::fprintf(stderr, "shardlab-run: waiting for the calibration another shardlab-run is measuring (%s)\n",
                 lock.c_str());
    while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~CalibrationLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  CalibrationLock(const CalibrationLock&) = delete;
  CalibrationLock& operator=(const CalibrationLock&) = delete;

private:
  int fd_ = -1;
};

std::optional<Calibration> measureUnlocked(const LaunchOptions& options, const std::string& workerPath,
                                           std::string& error);

} // namespace

std::optional<Calibration> measureCalibration(const LaunchOptions& options, const std::string& workerPath,
                                              std::string& error) {
  const CalibrationLock lock;
  return measureUnlocked(options, workerPath, error);
}

namespace {

std::optional<Calibration> measureUnlocked(const LaunchOptions& options, const std::string& workerPath,
                                           std::string& error) {
  const auto started = std::chrono::steady_clock::now();
  Calibration c;
  c.cores = usableCpuCount();
  c.gpus = usableGpus();
  c.key = calibrationKey(workerPath);

  // Hand-offs and matrix multiplies: 2 stages, 8 micro-batches of 32 tokens, hidden 256.
  JobConfig pipe;
  pipe.strategy = StrategyKind::Pipeline;
  pipe.schedule = Schedule::GPipe;
  pipe.ranks = c.probeRanks;
  pipe.layers = 2;
  pipe.hidden = 256;
  pipe.batch = 256;
  pipe.microbatches = 8;
  pipe.steps = 2;
  pipe.device = DeviceKind::Cpu;
  const trace::Trace pipeTrace = runProbe(options, pipe, workerPath, error);
  if (!error.empty()) return std::nullopt;

  std::vector<double> flopsPerSecond, latencies;
  // send (rank, step, micro, kind of what follows) -> its start; a recv completes the hand-off.
  std::map<std::tuple<int, int, int, int>, std::int64_t> sendStart;
  for (const auto& e : pipeTrace.events) {
    if (e.record == trace::Record::Op && e.kind == trace::Kind::Forward && e.unit >= 0 &&
        pipeTrace.units[static_cast<std::size_t>(e.unit)].rfind("block", 0) == 0 && e.t1 > e.t0) {
      // A block's forward: H -> 4H -> H on batch/microbatches rows, 2 flops per multiply-add.
      const double rows = static_cast<double>(pipe.batch) / pipe.microbatches;
      flopsPerSecond.push_back(16.0 * rows * pipe.hidden * pipe.hidden / seconds(e.t0, e.t1));
    }
    if (e.record == trace::Record::Collective && e.kind == trace::Kind::Send)
      sendStart[{e.peer, e.step, e.micro, e.rows}] = e.t0;
  }
  for (const auto& e : pipeTrace.events) {
    if (e.record != trace::Record::Collective || e.kind != trace::Kind::Recv) continue;
    auto it = sendStart.find({e.rank, e.step, e.micro, e.rows});
    if (it == sendStart.end()) continue;
    const std::int64_t from = std::max(it->second, e.t0);
    if (e.t1 > from) latencies.push_back(seconds(from, e.t1));
  }

  // All-gathers: FSDP on 2 ranks, blocks of hidden 256 (a 2 MiB gathered buffer).
  JobConfig fsdp;
  fsdp.strategy = StrategyKind::Fsdp;
  fsdp.ranks = c.probeRanks;
  fsdp.layers = 2;
  fsdp.hidden = 256;
  fsdp.batch = 16;
  fsdp.steps = 1;
  fsdp.forwardPrefetch = false;
  fsdp.backwardPrefetch = BackwardPrefetch::None;
  fsdp.device = DeviceKind::Cpu;
  const trace::Trace fsdpTrace = runProbe(options, fsdp, workerPath, error);
  if (!error.empty()) return std::nullopt;
  std::vector<double> bandwidths;
  for (const auto& e : fsdpTrace.events) {
    if (e.record != trace::Record::Collective || e.kind != trace::Kind::AllGather || e.t1 <= e.t0) continue;
    const double sentPerRank = static_cast<double>(e.bytes) * (fsdp.ranks - 1) / fsdp.ranks;
    bandwidths.push_back(sentPerRank / seconds(e.t0, e.t1));
  }

  c.gemmFlopsPerSecond = median(flopsPerSecond);
  c.handoffLatencySeconds = median(latencies);
  c.collectiveBytesPerSecond = median(bandwidths);
  c.probeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (c.gemmFlopsPerSecond <= 0 || c.handoffLatencySeconds <= 0 || c.collectiveBytesPerSecond <= 0) {
    error = "the probe jobs recorded no usable forward, hand-off or all-gather";
    return std::nullopt;
  }
  const fs::path cache = calibrationCachePath();
  std::error_code ec;
  fs::create_directories(cache.parent_path(), ec);
  const fs::path tmp = cache.string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    out << c.toJson().dump(2) << "\n";
  }
  fs::rename(tmp, cache, ec);  // a machine without a writable cache measures again next time
  if (ec) fs::remove(tmp, ec);
  return c;
}

} // namespace

std::optional<Calibration> machineCalibration(const LaunchOptions& options, const std::string& workerPath,
                                              std::string& error) {
  if (auto cached = readCachedCalibration(calibrationCachePath(), calibrationKey(workerPath))) return cached;
  const CalibrationLock lock;
  // The run that held the lock may just have measured it.
  if (auto cached = readCachedCalibration(calibrationCachePath(), calibrationKey(workerPath))) return cached;
  return measureUnlocked(options, workerPath, error);
}

} // namespace shardlab
