// Bad input is refused before anything runs, with exit status 2 and a message that
// names the option and the rule; missing tools name the package that installs them.
#include "RunShardlab.h"

#include "job/JobConfig.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

using namespace shardlab::testing;

struct BadOption : ::testing::TestWithParam<std::pair<std::vector<std::string>, std::string>> {};

TEST_P(BadOption, ExitsTwoNamingTheOptionAndLaunchesNothing) {
  const auto& [args, expected] = GetParam();
  const auto dir = freshDir("bad");
  auto all = args;
  all.insert(all.end(), {"--trace", dir + "/t.trace"});
  auto r = runShardlab(all);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/t.trace")) << "nothing may be launched";
  EXPECT_EQ(r.err.find("mpirun -np"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, BadOption,
    ::testing::Values(
        std::make_pair(std::vector<std::string>{"--strategy", "zero3"}, "--strategy: must be one of ddp, fsdp, pipeline, tp"),
        std::make_pair(std::vector<std::string>{"--ranks", "65"}, "--ranks: must be between 1 and 64"),
        std::make_pair(std::vector<std::string>{"--ranks", "0"}, "--ranks: must be between 1 and 64"),
        std::make_pair(std::vector<std::string>{"--hidden", "-8"}, "--hidden: must be at least 1"),
        std::make_pair(std::vector<std::string>{"--batch", "30", "--ranks", "4"}, "--batch: the global batch (30) must be divisible by ranks (4)"),
        std::make_pair(std::vector<std::string>{"--memory-budget", "-5"}, "--memory-budget"),
        std::make_pair(std::vector<std::string>{"--memory-budget", "lots"}, "--memory-budget: 'lots' is not a size"),
        std::make_pair(std::vector<std::string>{"--steps", "0"}, "--steps: must be at least 1"),
        std::make_pair(std::vector<std::string>{"--sharding", "half"}, "--sharding: must be one of no-shard, optimizer, grad-op, full, hybrid (got 'half')"),
        std::make_pair(std::vector<std::string>{"--frobnicate"}, "frobnicate")));

TEST(Launcher, ABadHandOffSpinFromTheEnvironmentIsRefusedBeforeLaunching) {
  const auto dir = freshDir("spin");
  auto r = runShardlab({"--ranks", "2", "--steps", "1", "--trace", dir + "/t.trace"}, {{"SHARDLAB_COMM_SPIN_US", "fast"}});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("SHARDLAB_COMM_SPIN_US: 'fast' is not a whole number"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("mpirun -np"), std::string::npos) << "nothing may be launched";
  EXPECT_FALSE(std::filesystem::exists(dir + "/t.trace"));
}

TEST(Spec, MalformedJsonIsRefused) {
  const auto dir = freshDir("spec");
  std::ofstream(dir + "/bad.json") << "{\"strategy\": \"fsdp\",";
  auto r = runShardlab({"--spec", dir + "/bad.json"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("is not valid JSON"), std::string::npos) << r.err;
}

TEST(Spec, UnknownKeyAndWrongTypeAreNamed) {
  const auto dir = freshDir("spec2");
  std::ofstream(dir + "/s.json") << R"({"strategy": "fsdp", "rankz": 4, "layers": "many"})";
  auto r = runShardlab({"--spec", dir + "/s.json"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("rankz: unknown key"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("layers: must be an integer"), std::string::npos) << r.err;
}

TEST(Spec, RunsAndCommandLineOverridesIt) {
  const auto dir = freshDir("spec3");
  std::ofstream(dir + "/s.json") << R"({"strategy": "ddp", "ranks": 2, "steps": 2, "memory_budget": "64MiB"})";
  auto r = runShardlab({"--spec", dir + "/s.json", "--steps", "3", "--summary-json", dir + "/out.json"});
  ASSERT_EQ(r.status, 0) << r.err;
  auto s = nlohmann::json::parse(std::ifstream(dir + "/out.json"));
  EXPECT_EQ(s["strategy"], "ddp");
  EXPECT_EQ(s["ranks"], 2);
  EXPECT_EQ(s["steps"], 3);
}

TEST(MissingTools, MpirunNotFoundNamesThePackage) {
  auto r = runShardlab({"--mpirun", "/nonexistent/mpirun"});
  EXPECT_EQ(r.status, 4);
  EXPECT_NE(r.err.find("openmpi-bin"), std::string::npos) << r.err;
}

TEST(MissingTools, WorkerNotFoundSaysHowToGetIt) {
  auto r = runShardlab({"--ranks", "1", "--steps", "1"}, {{"SHARDLAB_WORKER", "/nonexistent/shardlab-worker"}});
  EXPECT_EQ(r.status, 4) << r.err;  // a missing tool, before anything runs
  EXPECT_NE(r.err.find("SHARDLAB_WORKER names '/nonexistent/shardlab-worker'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("build the target shardlab-worker"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("mpirun -np"), std::string::npos) << "nothing may be launched: " << r.err;
}

// SHARDLAB_FAULT is read by the launcher alone, once: a malformed value is refused
// before anything runs, naming the variable and its forms.
TEST(Faults, AMalformedFaultIsRefusedBeforeLaunchingNamingTheVariable) {
  for (const char* fault : {"explode", "1:1:explode", "99:1:kill", "1:1:slow:nan", "1:1:slow:0.5", "a:b:kill"}) {
    const auto dir = freshDir("fault");
    auto r = runShardlab({"--ranks", "2", "--steps", "2", "--trace", dir + "/t.trace"}, {{"SHARDLAB_FAULT", fault}});
    EXPECT_EQ(r.status, 2) << fault << ": " << r.err;
    EXPECT_NE(r.err.find("SHARDLAB_FAULT: "), std::string::npos) << fault << ": " << r.err;
    EXPECT_EQ(r.err.find("mpirun -np"), std::string::npos) << fault << ": nothing may be launched";
    EXPECT_FALSE(std::filesystem::exists(dir + "/t.trace")) << fault;
  }
}

// The workers get the fault in what the launcher gives them (the straggler in the job,
// so the trace's record says it; a failure as --fault on the command line it records),
// never through their environment.
TEST(Faults, TheWorkersGetTheFaultFromTheLauncherNotFromTheirEnvironment) {
  const auto dir = freshDir("fault-given");
  auto killed = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "3", "--trace", dir + "/k.trace"},
                            {{"SHARDLAB_FAULT", "1:1:kill"}});
  EXPECT_EQ(killed.status, 3) << killed.err;
  EXPECT_NE(killed.err.find("rank 1 failed: killed by signal 9"), std::string::npos) << killed.err;
  EXPECT_NE(killed.err.find("shardlab-worker --job"), std::string::npos) << killed.err;
  EXPECT_NE(killed.err.find("--fault 1:1:kill"), std::string::npos) << killed.err;
  EXPECT_EQ(killed.err.find("-x SHARDLAB_FAULT"), std::string::npos) << "the ranks must not read it: " << killed.err;

  auto slow = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "2", "--trace", dir + "/s.trace", "-q"},
                          {{"SHARDLAB_FAULT", "1:0:slow:2"}});
  ASSERT_EQ(slow.status, 0) << slow.err;
  const auto read = shardlab::trace::readTraceFile(dir + "/s.trace");
  ASSERT_TRUE(read.trace.job) << (read.ok() ? "" : read.error->message);
  ASSERT_TRUE(read.trace.job->config.straggler);
  EXPECT_EQ(*read.trace.job->config.straggler, (shardlab::Straggler{1, 2.0, 0}));
  EXPECT_EQ(read.trace.job->command.find("SHARDLAB_FAULT"), std::string::npos) << read.trace.job->command;
}

// A worker started by hand with SHARDLAB_FAULT in its environment (forwarded by mpirun)
// and no --fault trains to the end: the variable means nothing to a rank.
TEST(Faults, AWorkerIgnoresTheFaultVariableInItsEnvironment) {
  const auto dir = freshDir("fault-env");
  std::ofstream(dir + "/job.json") << R"({"strategy":"ddp","ranks":2,"steps":2,"layers":1,"hidden":16,"vocab":16,)"
                                   << R"("batch":8,"device":"cpu"})";
  const std::string worker = (std::filesystem::path(shardlabRunPath()).parent_path() / "shardlab-worker").string();
  auto r = runProgram({"mpirun", "-np", "2", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none", "--mca",
                       "btl_vader_single_copy_mechanism", "none", "-x", "SHARDLAB_FAULT", worker, "--job",
                       dir + "/job.json", "--run-dir", dir},
                      {{"SHARDLAB_FAULT", "1:1:kill"}}, 60);
  EXPECT_EQ(r.status, 0) << r.err;
  const auto rank1 = shardlab::trace::readTraceFile(dir + "/rank-1.trace");
  int stepsDone = 0;
  for (const auto& e : rank1.trace.events) stepsDone += e.record == shardlab::trace::Record::Step ? 1 : 0;
  EXPECT_EQ(stepsDone, 2) << "rank 1 must finish both steps";
}

// The other variables are read by the launcher once too (job/EnvSettings.h): a malformed
// value is refused before anything runs, naming the variable, never ignored.
struct BadSetting : ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(BadSetting, ExitsTwoNamingTheVariableAndLaunchesNothing) {
  const auto& [name, value] = GetParam();
  const auto dir = freshDir("bad-setting");
  auto r = runShardlab({"--ranks", "2", "--steps", "1", "--trace", dir + "/t.trace"}, {{name, value}});
  EXPECT_EQ(r.status, 2) << name << "=" << value << ": " << r.err;
  EXPECT_NE(r.err.find(name + ": '" + value + "'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("mpirun -np"), std::string::npos) << "nothing may be launched: " << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir + "/t.trace"));
}

INSTANTIATE_TEST_SUITE_P(Environment, BadSetting,
                         ::testing::Values(std::make_pair("SHARDLAB_BLAS_THREADS", "many"),
                                           std::make_pair("SHARDLAB_BIND_RANKS", "no"),
                                           std::make_pair("SHARDLAB_GPU_TIMEOUT_S", "soon"),
                                           std::make_pair("SHARDLAB_TEST_COMM_DELAY_US", "5ms"),
                                           std::make_pair("SHARDLAB_FREE_MEMORY", "lots"),
                                           std::make_pair("SHARDLAB_GPU_FREE_MEMORY", "1MiB,lots")),
                         [](const auto& setting) { return std::string(setting.param.first).substr(9); });

// The ranks get the launcher's reading as options of the command it records (and the
// rank record says what they did with it), never through their environment: nothing
// of ShardLab's is forwarded with mpirun's -x.
TEST(Launcher, TheRanksGetTheSettingsAsOptionsOfTheRecordedCommand) {
  const auto dir = freshDir("settings-given");
  auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "1", "--trace", dir + "/t.trace", "-q"},
                       {{"SHARDLAB_COMM_SPIN_US", "0"}, {"SHARDLAB_BIND_RANKS", "0"}, {"SHARDLAB_BLAS_THREADS", "2"}});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto read = shardlab::trace::readTraceFile(dir + "/t.trace");
  ASSERT_TRUE(read.trace.job) << (read.ok() ? "" : read.error->message);
  const std::string& command = read.trace.job->command;
  EXPECT_NE(command.find("--comm-spin-us 0 --no-bind-ranks --blas-threads 2"), std::string::npos) << command;
  EXPECT_EQ(command.find("-x SHARDLAB"), std::string::npos) << command;
  ASSERT_EQ(read.trace.ranks.size(), 2u);
  for (const auto& rank : read.trace.ranks) EXPECT_EQ(rank.meta.value("bound_to_cpus", true), false);
}

// A worker started by hand with a test hook in its environment (forwarded by mpirun)
// and not as its option does not apply it: its rank record shows no shifted clock.
TEST(Launcher, AWorkerIgnoresTheSettingsInItsEnvironment) {
  const auto dir = freshDir("settings-env");
  std::ofstream(dir + "/job.json") << R"({"strategy":"ddp","ranks":2,"steps":1,"layers":1,"hidden":16,"vocab":16,)"
                                   << R"("batch":8,"device":"cpu"})";
  const std::string worker = (std::filesystem::path(shardlabRunPath()).parent_path() / "shardlab-worker").string();
  auto r = runProgram({"mpirun", "-np", "2", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none", "--mca",
                       "btl_vader_single_copy_mechanism", "none", "-x", "SHARDLAB_TEST_CLOCK_SHIFT_NS", worker, "--job",
                       dir + "/job.json", "--run-dir", dir},
                      {{"SHARDLAB_TEST_CLOCK_SHIFT_NS", "1:5000000000"}}, 60);
  EXPECT_EQ(r.status, 0) << r.err;
  const auto rank1 = shardlab::trace::readTraceFile(dir + "/rank-1.trace");
  ASSERT_FALSE(rank1.trace.ranks.empty()) << r.err;
  const auto& meta = rank1.trace.ranks.back().meta;
  EXPECT_FALSE(meta.contains("test_clock_shift_ns")) << meta.dump();
}

TEST(Launcher, DeviceCudaWithoutAGpuIsRefused) {
  auto r = runShardlab({"--device", "cuda", "--ranks", "1"});
  if (r.status == 0) GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--device: cuda was asked for, but"), std::string::npos) << r.err;
}

TEST(Launcher, StagedGpuCollectivesWithoutAGpuAreRefusedNotRunOnCpu) {
  auto r = runShardlab({"--device", "cuda+mpi-staged", "--ranks", "1", "--steps", "1", "-q"});
  if (r.status == 0) GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--device: cuda+mpi-staged was asked for, but"), std::string::npos) << r.err;
}

TEST(Launcher, PrintsTheExactMpirunCommandItRuns) {
  auto r = runShardlab({"--ranks", "4", "--steps", "1", "-q"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("mpirun -np 4"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--oversubscribe"), std::string::npos) << "4 ranks on this machine's cores";
  // Slots are hardware threads, the CPUs the launcher counts (a hyper-threaded laptop's too).
  EXPECT_NE(r.err.find("--use-hwthread-cpus"), std::string::npos) << r.err;
  // The collectives run as rings, the algorithm the modelled bytes assume
  // (docs/trace-format.md, "Bytes on the wire").
  EXPECT_NE(r.err.find("--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm 4 --mca "
                       "coll_tuned_allgather_algorithm 4 --mca coll_tuned_reduce_scatter_algorithm 3"),
            std::string::npos)
      << r.err;
}

// --collective-algorithms open-mpi leaves the choice to Open MPI; a coll_tuned value set
// in the environment wins over the launcher's own, which it then does not pass.
TEST(Launcher, TheCollectiveAlgorithmsCanBeLeftToOpenMpiOrSetInTheEnvironment) {
  auto own = runShardlab({"--ranks", "2", "--steps", "1", "-q", "--collective-algorithms", "open-mpi"});
  ASSERT_EQ(own.status, 0) << own.err;
  EXPECT_EQ(own.err.find("coll_tuned"), std::string::npos) << own.err;
  auto env = runShardlab({"--ranks", "2", "--steps", "1", "-q"}, {{"OMPI_MCA_coll_tuned_allreduce_algorithm", "3"}});
  ASSERT_EQ(env.status, 0) << env.err;
  EXPECT_EQ(env.err.find("coll_tuned_allreduce_algorithm"), std::string::npos) << env.err;
  EXPECT_NE(env.err.find("--mca coll_tuned_allgather_algorithm 4"), std::string::npos) << env.err;
  auto bad = runShardlab({"--ranks", "2", "--steps", "1", "-q", "--collective-algorithms", "tree"});
  EXPECT_EQ(bad.status, 2) << bad.err;
}

TEST(Spec, TheShippedSpecsRun) {
  int specs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(SHARDLAB_ASSETS_DIR) + "/specs")) {
    auto r = runShardlab({"--spec", entry.path().string(), "--steps", "2", "-q"});
    EXPECT_EQ(r.status, 0) << entry.path() << ": " << r.err;
    ++specs;
  }
  EXPECT_GE(specs, 1);
}

// 1e10 s and more do not fit a 64-bit count of nanoseconds: such a timeout means never,
// not an overflow that calls a healthy job hung.
TEST(Launcher, AHugeCollectiveTimeoutMeansNeverNotAHang) {
  for (const std::string seconds : {"1e10", "1e308"}) {
    // The default model: its all-reduces last long enough for the watchdog to see them in flight.
    auto r = runShardlab({"--strategy", "ddp", "--ranks", "2", "--steps", "3", "-q", "--collective-timeout", seconds});
    EXPECT_EQ(r.status, 0) << seconds << ": " << r.err;
    EXPECT_EQ(r.err.find("collective timeout"), std::string::npos) << r.err;
  }
}
