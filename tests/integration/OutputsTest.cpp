// What shardlab-run writes is this run's, and whole: a reused run directory gives the new
// run's trace; an output that cannot be written is refused before any rank starts, and a
// write that fails during the run (a full disk) ends in a non-zero exit naming the file.
#include "RunShardlab.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace shardlab;
using namespace shardlab::testing;
namespace fs = std::filesystem;

namespace {
const std::vector<std::string> kTinyJob{"--strategy", "ddp", "--ranks", "2", "--layers", "2", "--hidden", "16",
                                        "--vocab", "32", "--batch", "8", "-q"};
std::vector<std::string> tinyJob(std::vector<std::string> more) {
  auto args = kTinyJob;
  args.insert(args.end(), more.begin(), more.end());
  return args;
}
} // namespace

TEST(RunDir, AReusedRunDirectoryGivesTheNewRunsTrace) {
  const auto dir = freshDir("reused-run-dir");
  auto first = runShardlab(tinyJob({"--steps", "5", "--run-dir", dir + "/run", "--trace", dir + "/a.trace"}));
  ASSERT_EQ(first.status, 0) << first.err;
  auto second = runShardlab(tinyJob({"--steps", "2", "--run-dir", dir + "/run", "--trace", dir + "/b.trace"}));
  ASSERT_EQ(second.status, 0) << second.err;
  const auto read = trace::readTraceFile(dir + "/b.trace");
  ASSERT_FALSE(read.error) << read.error->message;
  const auto summary = trace::summarize(read.trace);
  EXPECT_EQ(summary.stepsCompleted, 2);
  int stepRecords = 0;
  for (const auto& e : read.trace.events) stepRecords += e.record == trace::Record::Step;
  EXPECT_EQ(stepRecords, 2 * 2) << "one step record per rank and step of the second run";
}

TEST(Outputs, ASummaryIntoAMissingFolderIsRefusedBeforeAnyRankStarts) {
  const auto dir = freshDir("missing-folder");
  auto r = runShardlab(tinyJob({"--steps", "1", "--summary-json", dir + "/no/such/folder/s.json"}));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--summary-json: cannot write '" + dir + "/no/such/folder/s.json': No such file or directory"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("mpirun -np"), std::string::npos) << "no rank may start: " << r.err;
  auto params = runShardlab(tinyJob({"--steps", "1", "--dump-params", dir + "/no/p.bin"}));
  EXPECT_EQ(params.status, 2) << params.err;
  EXPECT_NE(params.err.find("--dump-params: cannot write"), std::string::npos) << params.err;
}

TEST(Outputs, TwoOptionsNamingOneFileAreRefused) {
  const auto dir = freshDir("same-file");
  auto r = runShardlab(tinyJob({"--steps", "1", "--trace", dir + "/x", "--summary-json", dir + "/./x"}));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--summary-json: '" + dir + "/./x' is also the file of --trace"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("mpirun -np"), std::string::npos) << r.err;
  // Relative: the second was compared with the file the first had just created, and
  // refused as "being written by another shardlab-run".
  const std::string relative = std::filesystem::relative(dir + "/y").string();
  auto rel = runShardlab(tinyJob({"--steps", "1", "--trace", relative, "--summary-json", relative}));
  EXPECT_EQ(rel.status, 2) << rel.err;
  EXPECT_NE(rel.err.find("--summary-json: '" + relative + "' is also the file of --trace"), std::string::npos)
      << rel.err;
}

// `--spec S --trace S` overwrote the user's spec with the trace: an input is no output.
TEST(Outputs, AnOutputNamingTheSpecIsRefused) {
  const auto dir = freshDir("spec-as-output");
  const std::string spec = dir + "/job.json";
  const std::string text = R"({"strategy": "ddp", "ranks": 2, "steps": 1})";
  std::ofstream(spec) << text;
  auto r = runShardlab(tinyJob({"--spec", spec, "--trace", spec}));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("--trace: '" + spec + "' is also the file of --spec"), std::string::npos) << r.err;
  std::ifstream in(spec);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), text);
}

// /dev/full accepts the open and fails every write with ENOSPC, as a full disk does.
TEST(Outputs, AFullDeviceEndsTheRunWithAnErrorNamingTheFile) {
  for (const std::string option : {"--trace", "--summary-json", "--chrome-trace"}) {
    auto r = runShardlab(tinyJob({"--steps", "2", option, "/dev/full"}));
    EXPECT_EQ(r.status, 5) << option << ": " << r.err;
    EXPECT_NE(r.err.find(option + ": cannot write '/dev/full': No space left on device"), std::string::npos)
        << option << ": " << r.err;
  }
}

// A real full file system: a 16 KiB tmpfs, mounted by the test (root only), fills up
// during the run; the launcher stops the job rather than run it unrecorded.
TEST(Outputs, ATraceOnAFullDiskStopsTheJobNamingTheFile) {
  if (::geteuid() != 0) GTEST_SKIP() << "mounting a tmpfs needs root (the /dev/full test covers the error)";
  const auto dir = freshDir("full-disk");
  const std::string mountPoint = dir + "/small";
  fs::create_directories(mountPoint);
  if (std::system(("mount -t tmpfs -o size=16k tmpfs '" + mountPoint + "'").c_str()) != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here (a container without CAP_SYS_ADMIN)";
  auto r = runShardlab(tinyJob({"--steps", "100000", "--trace", mountPoint + "/t.trace"}));
  (void)std::system(("umount '" + mountPoint + "'").c_str());
  EXPECT_EQ(r.status, 5) << r.err;
  EXPECT_NE(r.err.find("--trace: cannot write '" + mountPoint + "/t.trace': No space left on device; stopping the job"),
            std::string::npos)
      << r.err;
}

TEST(Spec, ADirectoryOrADeviceAsSpecIsRefusedNamingIt) {
  const auto dir = freshDir("spec-kinds");
  auto folder = runShardlab({"--spec", dir, "--check"});
  EXPECT_EQ(folder.status, 2) << folder.err;
  EXPECT_NE(folder.err.find("--spec: '" + dir + "' is a directory, not a regular file"), std::string::npos)
      << folder.err;
  auto zero = runShardlab({"--spec", "/dev/zero", "--check"});
  EXPECT_EQ(zero.status, 2) << zero.err;
  EXPECT_NE(zero.err.find("--spec: '/dev/zero' is a character device, not a regular file"), std::string::npos)
      << zero.err;
  auto mem = runShardlab({"--spec", "/proc/self/mem", "--check"});
  EXPECT_EQ(mem.status, 2) << mem.err;
  EXPECT_NE(mem.err.find("--spec: '/proc/self/mem' cannot be read"), std::string::npos) << mem.err;
  std::ofstream(dir + "/big.json") << std::string((1 << 20) + 1, ' ');
  auto big = runShardlab({"--spec", dir + "/big.json", "--check"});
  EXPECT_EQ(big.status, 2) << big.err;
  EXPECT_NE(big.err.find("larger than the 1 MiB a job spec may be"), std::string::npos) << big.err;
  // Within the size, but nested 400 000 arrays deep: refused on its text, before parsing.
  std::ofstream(dir + "/deep.json") << "{\"ranks\":2,\"seed\":" << std::string(400'000, '[') << std::string(400'000, ']') << "}";
  auto deep = runShardlab({"--spec", dir + "/deep.json", "--check"});
  EXPECT_EQ(deep.status, 2) << deep.err;
  EXPECT_NE(deep.err.find("--spec: '" + dir + "/deep.json' nests objects or arrays more than 64 levels deep"),
            std::string::npos)
      << deep.err;
}

// A calibration cache that is a directory, or of the wrong types, is measured again.
TEST(Calibration, ADamagedCacheIsMeasuredAgain) {
  for (const std::string damage : {"directory", "wrong-type"}) {
    const auto dir = freshDir("cache-" + damage);
    const std::string cache = dir + "/shardlab/calibration.json";
    fs::create_directories(damage == "directory" ? cache : dir + "/shardlab");
    if (damage == "wrong-type")
      std::ofstream(cache) << R"({"cores":2,"gpus":0,"probe_ranks":2,"gemm_flops_per_second":1e9,)"
                              R"("handoff_latency_seconds":1e-5,"collective_bytes_per_second":1e9,"probe_seconds":"x","key":"k"})";
    auto r = runShardlab(tinyJob({"--steps", "1"}), {{"XDG_CACHE_HOME", dir}});
    EXPECT_EQ(r.status, 0) << damage << ": " << r.err;
  }
}

// The verdict said "the other ranks were stopped after 0 of 2 steps" when no rank had
// started, and "partial trace kept on standard output" when nothing went there.
TEST(Verdict, NoRankStartedIsSaidAsSuch) {
  auto r = runShardlab(tinyJob({"--steps", "2", "--mpirun", "/bin/false"}));
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("no rank started: mpirun exited with status 1"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("stopped after"), std::string::npos) << r.err;
}

TEST(Verdict, AFailedRunWithoutATraceSaysNoneWasKept) {
  auto r = runShardlab(tinyJob({"--steps", "5"}), {{"SHARDLAB_FAULT", "1:1:exit"}});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("no trace kept (--trace FILE keeps one)"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("standard output"), std::string::npos) << r.err;
}
