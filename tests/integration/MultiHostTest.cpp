// Multi-host runs, for real, on one machine (label `multihost`; docs/multi-host.md,
// "The multihost test"). Two hosts are two network namespaces joined by a veth pair,
// with addresses 10.77.0.1/24 and 10.77.0.2/24 on that link only and loopback up in
// each. The real shardlab-run is started on the first host, and its real mpirun starts
// the second host's daemon through Open MPI's rsh launcher, whose agent
// (scripts/netns-agent) enters the namespace named after the host, with that host name.
// Open MPI talks over TCP on the link only (btl tcp,self; btl_tcp_if_include and
// oob_tcp_if_include 10.77.0.0/24). The namespaces are removed after each test, failed
// or not; those a killed test left behind are removed by the next one.
#include "RunShardlab.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

constexpr const char* kPrefix = "shlmh-"; // shlmh-PID-a: the test process that made it
constexpr const char* kLink = "10.77.0.0/24";

// A shell command's status and what it printed (stdout and stderr together).
struct Shell {
  int status = -1;
  std::string output;
};

// A shell command line through runProgram (its own process group, a time limit).
Shell shell(const std::string& command) {
  const RunResult r = runProgram({"sh", "-c", command});
  return {r.status, r.out + r.err};
}

// 'text' quoted for sh.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Namespaces of earlier test processes that are gone (killed before their clean-up).
void removeStaleNamespaces() {
  std::istringstream list(shell("ip netns list").output);
  std::string line;
  while (std::getline(list, line)) {
    const std::string name = line.substr(0, line.find(' '));
    if (name.rfind(kPrefix, 0) != 0) continue;
    const std::string pid = name.substr(std::string(kPrefix).size(), name.rfind('-') - std::string(kPrefix).size());
    if (pid.empty() || std::filesystem::exists("/proc/" + pid)) continue;
    shell("ip netns delete " + name);
  }
}

// Two hosts: network namespaces `a` and `b` of this process, joined by a veth pair.
class TwoHosts {
public:
  // Why namespaces cannot be made here; nullopt when they can (then they are made).
  std::optional<std::string> make() {
    if (::geteuid() != 0) return "not root: making network namespaces (ip netns add) needs CAP_SYS_ADMIN";
    for (const char* tool : {"ip", "unshare", "hostname"})
      if (shell(std::string("command -v ") + tool).status != 0)
        return std::string("no '") + tool + "' command (iproute2, util-linux)";
    removeStaleNamespaces();
    const std::string id = std::to_string(::getpid());
    a = kPrefix + id + "-a";
    b = kPrefix + id + "-b";
    const std::string ifA = "mh" + id + "a", ifB = "mh" + id + "b";
    interfaceA = ifA;
    const std::vector<std::string> steps = {
        "ip netns add " + a,
        "ip netns add " + b,
        "ip link add " + ifA + " netns " + a + " type veth peer name " + ifB + " netns " + b,
        "ip -n " + a + " addr add 10.77.0.1/24 dev " + ifA,
        "ip -n " + b + " addr add 10.77.0.2/24 dev " + ifB,
        "ip -n " + a + " link set lo up",
        "ip -n " + b + " link set lo up",
        "ip -n " + a + " link set " + ifA + " up",
        "ip -n " + b + " link set " + ifB + " up",
    };
    for (const auto& step : steps) {
      made_ = true;
      const Shell r = shell(step);
      if (r.status != 0) return "cannot make the test's network namespaces: '" + step + "' says: " + r.output;
    }
    return std::nullopt;
  }
  ~TwoHosts() {
    if (!made_) return;
    shell("ip netns delete " + a);  // deleting a namespace deletes its end of the veth, and so the pair
    shell("ip netns delete " + b);
  }
  // Bytes received on host a's end of the link.
  std::int64_t receivedOnA() const {
    const Shell r = shell("ip -n " + a + " -j -s link show dev " + interfaceA);
    const auto j = nlohmann::json::parse(r.output, nullptr, false);
    if (j.is_discarded() || !j.is_array() || j.empty()) return -1;
    return j[0]["stats64"]["rx"]["bytes"].get<std::int64_t>();
  }

  std::string a, b, interfaceA;

private:
  bool made_ = false;
};

const std::vector<std::string> kTinyModel{"--layers", "2", "--hidden", "32", "--vocab", "32", "--batch", "24",
                                          "--steps", "10", "--seed", "7", "--lr", "0.01"};

std::vector<std::string> with(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

class MultiHost : public ::testing::TestWithParam<std::tuple<std::string, int>> {
protected:
  void SetUp() override {
    if (auto why = hosts_.make()) GTEST_SKIP() << why->c_str();
  }

  // shardlab-run started on host a, its ranks spread over a and b by the hostfile.
  // `alongside`: a shell command run on host a beside the launcher (in the background).
  RunResult runOnHosts(const std::vector<std::string>& args, const std::string& dir, int ranksPerHost,
                       const std::string& alongside = "") {
    const std::string hostfile = dir + "/hosts";
    std::ofstream(hostfile) << hosts_.a << " slots=" << ranksPerHost << "\n"
                            << hosts_.b << " slots=" << ranksPerHost << "\n";
    std::string commandLine = (alongside.empty() ? "" : "( " + alongside + " ) >/dev/null 2>&1 & ") + quoted(shardlabRunPath()) +
                              " --hostfile " + quoted(hostfile);
    for (const auto& arg : args) commandLine += " " + quoted(arg);
    const std::string agent = std::string(SHARDLAB_SOURCE_DIR) + "/scripts/netns-agent";
    const std::vector<std::pair<std::string, std::string>> env{
        {"OMPI_MCA_plm_rsh_agent", agent},
        {"OMPI_MCA_btl", "tcp,self"},
        {"OMPI_MCA_btl_tcp_if_include", kLink},
        {"OMPI_MCA_oob_tcp_if_include", kLink},
        // The calibration is this host's (its name is in the key): kept with the test.
        {"XDG_CACHE_HOME", dir + "/cache"},
    };
    return runProgram({agent, hosts_.a, commandLine}, env, 60);
  }

  TwoHosts hosts_;
};

} // namespace

// The same parameters as one rank after ten steps, with ranks on two hosts; each rank
// records the host it ran on; the ranks estimated their clock offsets to rank 0 (they
// are not on one host), and since both hosts read this machine's one clock, the true
// offset, 0, lies within each estimate's uncertainty; the collectives crossed the link.
TEST_P(MultiHost, SameParametersAsOneRankWithRanksOnTwoHosts) {
  const auto& [strategy, ranks] = GetParam();
  const int perHost = ranks / 2;
  const auto dir = freshDir("multihost-" + strategy + std::to_string(ranks));
  auto reference = runShardlab(with(kTinyModel, {"--strategy", "ddp", "--ranks", "1", "--dump-params",
                                                 dir + "/reference.bin", "-q"}));
  ASSERT_EQ(reference.status, 0) << reference.err;

  const std::int64_t receivedBefore = hosts_.receivedOnA();
  auto r = runOnHosts(with(kTinyModel, {"--strategy", strategy, "--ranks", std::to_string(ranks), "--dump-params",
                                        dir + "/p.bin", "--trace", dir + "/run.trace", "-q"}),
                      dir, perHost);
  ASSERT_EQ(r.status, 0) << r.err;
  // The run directory, which ranks on other machines must see, was made in the (shared)
  // cache folder, said so, and was removed after the run.
  const std::string runs = dir + "/cache/shardlab/runs";
  EXPECT_NE(r.err.find("the ranks write into " + runs + "/shardlab-run-"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(runs));
  const auto expected = readFloats(dir + "/reference.bin"), params = readFloats(dir + "/p.bin");
  ASSERT_EQ(params.size(), expected.size());
  EXPECT_LT(relativeDifference(params, expected), 2e-5);

  auto t = trace::readTraceFile(dir + "/run.trace");
  ASSERT_TRUE(t.ok()) << t.error->message;
  ASSERT_EQ(t.trace.ranks.size(), static_cast<std::size_t>(ranks));
  EXPECT_EQ(t.trace.job->config.hostfile, dir + "/hosts");
  for (int rank = 0; rank < ranks; ++rank) {
    SCOPED_TRACE("rank " + std::to_string(rank));
    const auto& meta = t.trace.ranks[static_cast<std::size_t>(rank)].meta;
    // By slot: the first host's slots take the first ranks.
    EXPECT_EQ(meta["host"], rank < perHost ? hosts_.a : hosts_.b);
    EXPECT_EQ(meta["same_host"], false);
    if (rank == 0) {
      EXPECT_EQ(meta["clock_offset_ns"], 0);  // rank 0's clock is the run's clock
      continue;
    }
    const auto offset = meta["clock_offset_ns"].get<std::int64_t>();
    const auto uncertainty = meta["clock_uncertainty_ns"].get<std::int64_t>();
    EXPECT_GT(uncertainty, 0) << "no ping-pong with rank 0";
    EXPECT_LE(std::llabs(offset), uncertainty);
  }
  // Every step's gradients (or gradient shards) of host b's ranks reached host a: at
  // least the model's bytes per step arrived on a's end of the link.
  const std::int64_t modelBytes = t.trace.job->model.bytes;
  EXPECT_GE(hosts_.receivedOnA() - receivedBefore, 10 * modelBytes);
}

INSTANTIATE_TEST_SUITE_P(DdpAndFsdp, MultiHost,
                         ::testing::Values(std::make_tuple("ddp", 4), std::make_tuple("fsdp", 2)),
                         [](const auto& test) {
                           return std::get<0>(test.param) + "_" + std::to_string(std::get<1>(test.param)) + "ranks";
                         });

// A host lost mid-run (its machine or network gone; here its Open MPI daemon killed):
// mpirun names only the host and exits, and the ranks there record nothing. Each of them
// is named as failed with its host, on standard error and by a fail record in the trace.
class MultiHostLoss : public MultiHost {};

TEST_P(MultiHostLoss, ALostHostIsNamedWithItsRanks) {
  const auto dir = freshDir("multihost-lost");
  const std::string runDir = dir + "/run";
  // Once rank 3 (host b) has finished two steps, its host's daemon is killed.
  const std::string killDaemonOnB =
      "i=0; while [ $i -lt 600 ]; do n=$(grep -c '^step ' " + quoted(runDir + "/rank-3.trace") +
      " 2>/dev/null); [ \"${n:-0}\" -ge 2 ] && break; sleep 0.2; i=$((i+1)); done; for p in $(ip netns pids " + hosts_.b +
      "); do [ \"$(cat /proc/$p/comm 2>/dev/null)\" = orted ] && kill -9 $p; done";
  auto r = runOnHosts({"--layers", "2", "--hidden", "32", "--vocab", "32", "--batch", "24", "--strategy", "ddp", "--ranks",
                       "4", "--steps", "100000", "--run-dir", runDir, "--trace", dir + "/run.trace", "-q"},
                      dir, 2, killDaemonOnB);
  ASSERT_NE(r.status, -2) << "still running 60 s after host b was lost: " << r.err;
  EXPECT_EQ(r.status, 3) << r.err;
  for (int rank : {2, 3}) {
    EXPECT_NE(r.err.find("rank " + std::to_string(rank) + " failed: lost with its host " + hosts_.b), std::string::npos)
        << r.err;
  }
  auto t = trace::readTraceFile(dir + "/run.trace");
  std::vector<int> failedRanks;
  for (const auto& e : t.trace.events)
    if (e.record == trace::Record::Failure &&
        t.trace.texts[static_cast<std::size_t>(e.text)].find("lost with its host " + hosts_.b) != std::string::npos)
      failedRanks.push_back(e.rank);
  std::sort(failedRanks.begin(), failedRanks.end());
  EXPECT_EQ(failedRanks, (std::vector<int>{2, 3}));
}

INSTANTIATE_TEST_SUITE_P(Ddp, MultiHostLoss, ::testing::Values(std::make_tuple("ddp", 4)),
                         [](const auto&) { return std::string("ddp_4ranks"); });
