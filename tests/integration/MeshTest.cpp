// Parallelisms composed on a device mesh (docs/mesh.md) as real Open MPI jobs: DP x TP
// computes what one rank computes; each collective runs on its dimension's
// communicator and says so; each rank's record holds its coordinates; a mesh of one
// dimension is the job without a mesh.
#include "PipelineSupport.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

constexpr int kLayers = 4; // kModelParallelModel: layers 4, hidden 32, batch 24
constexpr int kUnits = kLayers + 2;

trace::Trace runMeshTrace(const std::vector<std::string>& job, int steps, const std::string& dir) {
  auto args = kModelParallelModel;
  args[9] = std::to_string(steps);
  auto r = runShardlab(plus(plus(args, job), {"--trace", dir + "/t.trace", "-q"}));
  EXPECT_EQ(r.status, 0) << r.err;
  return readTraceOrFail(dir + "/t.trace");
}

} // namespace

TEST(mesh_dp_tp, SameParametersAsOneRankAfterTenSteps) {
  const auto& reference = oneRankDdpParameters();
  ASSERT_FALSE(reference.empty());
  const auto dir = freshDir("mesh-dp-tp");
  auto r = runShardlab(plus(kModelParallelModel, {"--strategy", "tp", "--ranks", "4", "--mesh", "dp=2,tp=2",
                                                  "--dump-params", dir + "/p.bin", "-q"}));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto params = readFloats(dir + "/p.bin");
  ASSERT_EQ(params.size(), reference.size());
  EXPECT_LT(relativeDifference(params, reference), 1e-4);
  EXPECT_GT(relativeDifference(params, parametersAfterOneStep()), 1e-3);
}

TEST(mesh_dp_tp, EachCollectiveRunsOnItsDimensionsGroup) {
  const int steps = 2;
  const auto t = runMeshTrace({"--strategy", "tp", "--ranks", "4", "--mesh", "dp=2,tp=2"}, steps, freshDir("mesh-coll"));
  ASSERT_EQ(t.version, trace::kFormatVersion);
  // The last dimension varies fastest: tp pairs {0,1}, {2,3}; dp pairs {0,2}, {1,3}.
  ASSERT_EQ(t.ranks.size(), 4u);
  for (int rank = 0; rank < 4; ++rank) {
    const auto& meta = t.ranks[static_cast<std::size_t>(rank)].meta;
    ASSERT_TRUE(meta.contains("mesh")) << meta.dump();
    EXPECT_EQ(meta["mesh"], (nlohmann::json{{"dp", rank / 2}, {"tp", rank % 2}})) << rank;
  }
  std::map<std::pair<int, trace::CommGroup>, int> calls; // (rank, communicator) -> all-reduces
  for (const auto& e : t.events) {
    if (e.record != trace::Record::Collective) continue;
    ASSERT_EQ(e.kind, trace::Kind::AllReduce);
    ++calls[{e.rank, e.group}];
    const trace::RankMask tpPair = e.rank < 2 ? 0x3 : 0xC, dpPair = e.rank % 2 == 0 ? 0x5 : 0xA;
    if (e.group == trace::CommGroup::Tp) EXPECT_EQ(e.participants, tpPair) << e.rank;
    else if (e.group == trace::CommGroup::Dp) EXPECT_EQ(e.participants, dpPair) << e.rank;
    else ADD_FAILURE() << "rank " << e.rank << ": a collective on " << trace::toString(e.group);
  }
  for (int rank = 0; rank < 4; ++rank) {
    // Megatron's two sums per block per step inside the replica; one gradient
    // all-reduce per unit per step across the replicas.
    EXPECT_EQ((calls[{rank, trace::CommGroup::Tp}]), 2 * kLayers * steps) << rank;
    EXPECT_EQ((calls[{rank, trace::CommGroup::Dp}]), kUnits * steps) << rank;
  }
  // The loss is the whole batch's: the first rank of each replica reports its 12 rows.
  std::map<int, std::int64_t> tokens; // rank -> tokens of step 0
  for (const auto& e : t.events)
    if (e.record == trace::Record::Step && e.step == 0) tokens[e.rank] = e.value;
  EXPECT_EQ(tokens, (std::map<int, std::int64_t>{{0, 12}, {1, 0}, {2, 12}, {3, 0}}));
}

TEST(mesh_one_dimension, RunsAndRecordsExactlyAsTheJobWithoutAMesh) {
  const auto dir = freshDir("mesh-1d");
  for (const char* mesh : {"", "tp=2"}) {
    std::vector<std::string> args = plus(kModelParallelModel, {"--strategy", "tp", "--ranks", "2", "--dump-params",
                                                               dir + "/p" + mesh + ".bin", "--trace",
                                                               dir + "/t" + mesh + ".trace", "-q"});
    if (*mesh) args = plus(args, {"--mesh", mesh});
    auto r = runShardlab(args);
    ASSERT_EQ(r.status, 0) << r.err;
  }
  // The same arithmetic in the same order: the same bits.
  EXPECT_EQ(readFloats(dir + "/p.bin"), readFloats(dir + "/ptp=2.bin"));
  const auto flat = readTraceOrFail(dir + "/t.trace"), meshed = readTraceOrFail(dir + "/ttp=2.trace");
  using Call = std::tuple<int, trace::Kind, int, int, std::int64_t, trace::RankMask, trace::CommGroup>;
  const auto collectives = [](const trace::Trace& t) {
    std::vector<Call> out;
    for (const auto& e : t.events)
      if (e.record == trace::Record::Collective)
        out.emplace_back(e.rank, e.kind, e.unit, e.step, e.bytes, e.participants, e.group);
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto a = collectives(flat), b = collectives(meshed);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  for (const auto& c : b) EXPECT_EQ(std::get<6>(c), trace::CommGroup::World);
}

TEST(mesh_dp_pp, SameParametersAsOneRankAfterTenSteps) {
  const auto& reference = oneRankDdpParameters();
  ASSERT_FALSE(reference.empty());
  const auto dir = freshDir("mesh-dp-pp");
  auto r = runShardlab(plus(kModelParallelModel, {"--strategy", "pipeline", "--ranks", "4", "--mesh", "dp=2,pp=2",
                                                  "--schedule", "1f1b", "--microbatches", "4", "--dump-params",
                                                  dir + "/p.bin", "--trace", dir + "/t.trace", "-q"}));
  ASSERT_EQ(r.status, 0) << r.err;
  const auto params = readFloats(dir + "/p.bin");
  ASSERT_EQ(params.size(), reference.size());
  EXPECT_LT(relativeDifference(params, reference), 1e-4);
  EXPECT_GT(relativeDifference(params, parametersAfterOneStep()), 1e-3);

  // Stages {0,1} and {2,3}: messages stay inside a replica; each stage's gradients are
  // all-reduced over dp with the same stage of the other replica ({0,2}, {1,3}).
  const auto t = readTraceOrFail(dir + "/t.trace");
  int reductions = 0;
  for (const auto& e : t.events) {
    if (e.record != trace::Record::Collective) continue;
    if (e.kind == trace::Kind::Send || e.kind == trace::Kind::Recv) {
      EXPECT_EQ(e.rank / 2, e.peer / 2) << "rank " << e.rank << " and " << e.peer << " are in different replicas";
      continue;
    }
    ASSERT_EQ(e.kind, trace::Kind::AllReduce);
    EXPECT_EQ(e.group, trace::CommGroup::Dp);
    EXPECT_EQ(e.participants, e.rank % 2 == 0 ? trace::RankMask{0x5} : trace::RankMask{0xA});
    ++reductions;
  }
  EXPECT_EQ(reductions, 2 * kUnits * 10); // each unit is held by one stage of each of 2 replicas, every step
}

// The trace's per-dimension counts against a count taken apart from it: a PMPI
// interposer in each rank (CollectiveCounter.cpp) counts the MPI collectives each
// communicator carried, named by its members' world ranks.
TEST(mesh_dp_tp, AnIndependentCountPerCommunicatorEqualsTheTraces) {
  const int steps = 3;
  const auto dir = freshDir("mesh-pmpi");
  const std::string worker = dir + "/counted-worker";
  const auto real = std::filesystem::path(shardlabRunPath()).parent_path() / "shardlab-worker";
  {
    std::ofstream script(worker);
    script << "#!/bin/sh\nSHARDLAB_TEST_COLLECTIVE_COUNTS='" << dir << "' LD_PRELOAD='" << SHARDLAB_COLLECTIVE_COUNTER
           << "' exec '" << real.string() << "' \"$@\"\n";
  }
  ASSERT_EQ(::chmod(worker.c_str(), 0755), 0);
  auto args = kModelParallelModel;
  args[9] = std::to_string(steps);
  auto r = runShardlab(plus(args, {"--strategy", "tp", "--ranks", "4", "--mesh", "dp=2,tp=2", "--trace",
                                   dir + "/t.trace", "-q"}),
                       {{"SHARDLAB_WORKER", worker}});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto t = readTraceOrFail(dir + "/t.trace");

  using Key = std::tuple<int, std::uint64_t, std::string>; // rank, communicator's world ranks, kind
  std::map<Key, long> traced, counted;
  std::map<trace::CommGroup, long> perDimension;
  for (const auto& e : t.events) {
    if (e.record != trace::Record::Collective || e.kind == trace::Kind::Send || e.kind == trace::Kind::Recv) continue;
    ++traced[{e.rank, e.participants, std::string(trace::toString(e.kind))}];
    ++perDimension[e.group];
  }
  for (int rank = 0; rank < 4; ++rank) {
    std::ifstream in(dir + "/rank-" + std::to_string(rank) + ".counts");
    ASSERT_TRUE(in) << "rank " << rank << " wrote no counts";
    std::string mask, kind;
    long n = 0;
    while (in >> mask >> kind >> n) {
      const std::uint64_t m = std::stoull(mask, nullptr, 16);
      if (m == 0xF) continue; // the job's own communicator: set-up calls the trace does not record
      counted[{rank, m, kind}] = n;
    }
  }
  EXPECT_EQ(counted, traced);
  EXPECT_EQ(perDimension[trace::CommGroup::Tp], 4 * 2 * kLayers * steps);
  EXPECT_EQ(perDimension[trace::CommGroup::Dp], 4 * kUnits * steps);
}

// The GPT on the mesh: DP x TP (heads split inside each replica) and DP x PP, the loss
// of every step within 1e-5 of one rank's.
TEST(mesh_gpt, DpTpAndDpPpLossesAreOneRanks) {
  const std::vector<std::string> gpt{"--model", "gpt", "--heads", "4", "--hidden", "32", "--seq-len", "8", "--batch",
                                     "8", "--layers", "2", "--vocab", "32", "--steps", "3", "-q"};
  const auto dir = freshDir("mesh-gpt");
  const auto losses = [&](const std::string& name, const std::vector<std::string>& job) {
    auto r = runShardlab(plus(plus(gpt, job), {"--summary-json", dir + "/" + name + ".json"}));
    EXPECT_EQ(r.status, 0) << r.err;
    std::ifstream in(dir + "/" + name + ".json");
    const auto summary = nlohmann::json::parse(in, nullptr, false);
    return summary.is_discarded() ? std::vector<double>{} : summary["loss"]["per_step"].get<std::vector<double>>();
  };
  const auto one = losses("one", {"--strategy", "ddp", "--ranks", "1"});
  ASSERT_EQ(one.size(), 3u);
  for (const auto& [name, job] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"dp-tp", {"--strategy", "tp", "--ranks", "4", "--mesh", "dp=2,tp=2"}},
           {"dp-pp", {"--strategy", "pipeline", "--ranks", "4", "--mesh", "dp=2,pp=2", "--schedule", "1f1b",
                      "--microbatches", "2"}}}) {
    const auto l = losses(name, job);
    ASSERT_EQ(l.size(), one.size()) << name;
    for (std::size_t i = 0; i < l.size(); ++i) EXPECT_NEAR(l[i], one[i], 1e-5) << name << " step " << i;
  }
}
