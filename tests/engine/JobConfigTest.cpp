#include "job/JobConfig.h"
#include "core/Model.h"
#include "data/JobSpecTable.h"

#include <set>

#include <gtest/gtest.h>

using namespace shardlab;

namespace {
bool mentions(const std::vector<JobIssue>& issues, const std::string& field) {
  for (const auto& i : issues)
    if (i.field == field) return true;
  return false;
}
std::vector<JobIssue> read(const char* json, JobConfig* out = nullptr) {
  std::vector<JobIssue> issues;
  JobConfig c = JobConfig::fromJson(nlohmann::json::parse(json), issues);
  if (out) *out = c;
  return issues;
}
} // namespace

TEST(JobConfig, DefaultIsValid) { EXPECT_TRUE(JobConfig{}.validate().empty()); }

TEST(JobConfig, EachBrokenRuleNamesItsField) {
  EXPECT_TRUE(mentions(read(R"({"strategy":"zero3"})"), "strategy"));
  EXPECT_TRUE(mentions(read(R"({"sharding":"half"})"), "sharding"));
  JobConfig c;
  c.ranks = 65;
  EXPECT_TRUE(mentions(c.validate(), "ranks"));
  c = {};
  c.ranks = 0;
  EXPECT_TRUE(mentions(c.validate(), "ranks"));
  c = {};
  c.hidden = -4;
  EXPECT_TRUE(mentions(c.validate(), "hidden"));
  c = {};
  c.batch = 30; // 4 ranks
  EXPECT_TRUE(mentions(c.validate(), "batch"));
  c = {};
  c.memoryBudget = -1;
  EXPECT_TRUE(mentions(c.validate(), "memory_budget"));
}

TEST(JobConfig, SpecReadsKeysAndRejectsUnknownOnes) {
  JobConfig c;
  EXPECT_TRUE(read(R"({"strategy":"ddp","ranks":2,"memory_budget":"3MiB","forward_prefetch":true,)"
                   R"("backward_prefetch":"post","limit_all_gathers":2})", &c).empty());
  EXPECT_EQ(c.strategy, StrategyKind::Ddp);
  EXPECT_EQ(c.ranks, 2);
  EXPECT_EQ(c.memoryBudget, 3 * 1024 * 1024);
  EXPECT_TRUE(c.forwardPrefetch);
  EXPECT_EQ(c.backwardPrefetch, BackwardPrefetch::Post);
  EXPECT_EQ(c.limitAllGathers, 2);
  // toJson writes no limit as null, and reading it back keeps it unlimited.
  JobConfig unlimited;
  std::vector<JobIssue> issues;
  const auto back = JobConfig::fromJson(unlimited.toJson(), issues);
  EXPECT_TRUE(issues.empty());
  EXPECT_FALSE(back.limitAllGathers);
  const auto errors = read(R"({"rank":2,"layers":"four"})");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_TRUE(mentions(errors, "rank"));
  EXPECT_TRUE(mentions(errors, "layers"));
}

TEST(JobConfig, ShardDegreeFollowsTheShardingStrategy) {
  JobConfig c;
  c.ranks = 4;
  c.sharding = Sharding::Full;
  EXPECT_EQ(c.shardDegree(), 4);
  c.sharding = Sharding::NoShard;
  EXPECT_EQ(c.shardDegree(), 1);
  c.sharding = Sharding::Hybrid;
  c.shardGroup = 2;
  EXPECT_EQ(c.shardDegree(), 2);
  EXPECT_TRUE(c.validate().empty());
  c.shardGroup = 3;
  EXPECT_TRUE(mentions(c.validate(), "shard_group"));
  c.shardGroup = 0;
  EXPECT_TRUE(mentions(c.validate(), "shard_group"));
  c.sharding = Sharding::Full;
  c.shardGroup = 2;
  EXPECT_TRUE(mentions(c.validate(), "shard_group"));
  c = {};
  c.limitAllGathers = 0;
  EXPECT_TRUE(mentions(c.validate(), "limit_all_gathers"));
}

TEST(JobConfig, ParsesSizes) {
  EXPECT_EQ(parseBytes("4096"), 4096);
  EXPECT_EQ(parseBytes("3MiB"), 3 * 1024 * 1024);
  EXPECT_EQ(parseBytes("1.5 KiB"), 1536);
  EXPECT_EQ(parseBytes("2GiB"), 2LL * 1024 * 1024 * 1024);
  // What the app shows in French and Russian reads back.
  EXPECT_EQ(parseBytes("3 Mio"), 3 * 1024 * 1024);
  EXPECT_EQ(parseBytes("1.5 КиБ"), 1536);
  EXPECT_EQ(parseBytes("2ГиБ"), 2LL * 1024 * 1024 * 1024);
  EXPECT_FALSE(parseBytes("3 Mb"));
  EXPECT_FALSE(parseBytes("lots"));
  EXPECT_FALSE(parseBytes("3 parsecs"));
  EXPECT_FALSE(parseBytes(""));
}

TEST(JobConfig, ModelDescriptionCountsEveryUnit) {
  JobConfig c;
  c.vocab = 10;
  c.hidden = 3;
  c.layers = 2;
  // embedding 30, block 3*12+12+12*3+3 = 87 each, output 3*10+10 = 40
  EXPECT_EQ(c.parameterCount(), 30 + 2 * 87 + 40);
  EXPECT_EQ(c.unitNames(), (std::vector<std::string>{"embedding", "block0", "block1", "output"}));
}

TEST(ModelInit, TensorParallelSliceMatchesTheFullLayout) {
  ModelShape s{16, 8, 2};
  const int F = 32, N = 4, f = F / N;
  for (int r = 0; r < N; ++r) {
    std::vector<float> slice(s.unitSize(1, f));
    initialBlockSlice(s, 9, 1, r * f, f, slice.data());
    // W1[row 3, column r*f + 2] and W2[row r*f + 1, column 5]
    EXPECT_EQ(slice[3 * f + 2], initialValue(s, 9, 1, 3 * F + r * f + 2));
    const std::size_t w2 = 8 * static_cast<std::size_t>(f) + f;
    EXPECT_EQ(slice[w2 + 1 * 8 + 5], initialValue(s, 9, 1, 8 * F + F + (r * f + 1) * 8 + 5));
  }
}

TEST(JobConfig, ToJsonAndBackIsTheSameJob) {
  JobConfig c;
  c.strategy = StrategyKind::Pipeline;
  c.schedule = Schedule::Interleaved;
  c.virtualStages = 2;
  c.microbatches = 4;
  c.ranks = 2;
  c.stages = {2, 1, 2, 1};
  c.memoryBudget = 12345;
  c.seed = 1ULL << 40;
  std::vector<JobIssue> issues;
  const JobConfig back = JobConfig::fromJson(c.toJson(), issues);
  EXPECT_TRUE(issues.empty());
  EXPECT_EQ(back.toJson(), c.toJson());
}

TEST(Mesh, TheLastDimensionVariesFastestOverTheRanks) {
  std::vector<JobIssue> issues;
  const Mesh mesh = parseMesh("dp=2,pp=3,tp=2", "mesh", issues);
  ASSERT_TRUE(issues.empty());
  EXPECT_EQ(mesh.product(), 12);
  EXPECT_EQ(mesh.text(), "dp=2,pp=3,tp=2");
  // rank = (dp * 3 + pp) * 2 + tp, as PyTorch's DeviceMesh lays out torch.arange(12).view(2, 3, 2).
  for (int rank = 0; rank < 12; ++rank) {
    const int dp = mesh.coordinate(rank, MeshDim::Dp), pp = mesh.coordinate(rank, MeshDim::Pp),
              tp = mesh.coordinate(rank, MeshDim::Tp);
    EXPECT_EQ((dp * 3 + pp) * 2 + tp, rank);
    EXPECT_EQ(mesh.groupColor(rank, MeshDim::Tp), (dp * 3 + pp) * 2);
    EXPECT_EQ(mesh.groupColor(rank, MeshDim::Dp), pp * 2 + tp);
    EXPECT_EQ(mesh.groupColor(rank, MeshDim::Pp), dp * 6 + tp);
    EXPECT_EQ(mesh.rankAt(rank, MeshDim::Pp, 2), (dp * 3 + 2) * 2 + tp);
  }
  // The order written is the layout: tp outermost puts the replicas on neighbouring ranks.
  const Mesh across = parseMesh("tp=2,dp=2", "mesh", issues);
  EXPECT_EQ(across.coordinate(1, MeshDim::Dp), 1);
  EXPECT_EQ(across.coordinate(1, MeshDim::Tp), 0);
  EXPECT_EQ(across.size(MeshDim::Pp), 1);
  EXPECT_EQ(across.coordinate(3, MeshDim::Pp), 0);
  EXPECT_TRUE(issues.empty());
}

TEST(Mesh, EachMalformedMeshIsRefusedNamingTheOption) {
  for (const auto& [text, rule] : std::vector<std::pair<std::string, JobRule>>{
           {"dp2", JobRule::MeshSyntax},
           {"dp=", JobRule::MeshSyntax},
           {"dp=2,", JobRule::MeshSyntax},
           {"dp=2,,tp=2", JobRule::MeshSyntax},
           {"dp=x", JobRule::MeshSyntax},
           {"dp=-1", JobRule::MeshSyntax},
           {"ep=2", JobRule::MeshUnknownDimension},
           {"DP=2", JobRule::MeshUnknownDimension},
           {"tp=2,tp=2", JobRule::MeshRepeatedDimension},
           {"dp=0", JobRule::Range},
           {"dp=65,tp=1", JobRule::Range},
           {"dp=2,tp=3", JobRule::MeshProduct}}) {
    std::vector<JobIssue> issues;
    JobConfig job;
    job.strategy = StrategyKind::Ddp;
    job.mesh = parseMesh(text, "mesh", issues);
    if (issues.empty()) issues = job.validateSizes();
    ASSERT_EQ(issues.size(), 1u) << text;
    EXPECT_EQ(issues[0].field, "mesh") << text;
    EXPECT_EQ(issues[0].rule, rule) << text << ": " << issues[0].message();
  }
  std::vector<JobIssue> issues;
  EXPECT_TRUE(parseMesh("", "mesh", issues).empty());
  EXPECT_TRUE(issues.empty());
}

TEST(Mesh, AOneDimensionalMeshIsTheJobWithoutOne) {
  // Today's strategies are the one-dimensional meshes: the same degrees, the same verdicts.
  for (const char* spec : {R"({"strategy":"ddp","ranks":4})", R"({"strategy":"tp","ranks":2,"hidden":128})",
                           R"({"strategy":"pipeline","ranks":2,"schedule":"gpipe","microbatches":2})",
                           R"({"strategy":"tp","ranks":3,"hidden":64})"}) {
    JobConfig flat;
    ASSERT_TRUE(read(spec, &flat).empty());
    JobConfig meshed = flat;
    const MeshDim own = flat.strategy == StrategyKind::Tp ? MeshDim::Tp
                        : flat.strategy == StrategyKind::Pipeline ? MeshDim::Pp : MeshDim::Dp;
    meshed.mesh.dims = {{own, flat.ranks}};
    for (const MeshDim d : {MeshDim::Dp, MeshDim::Pp, MeshDim::Tp}) EXPECT_EQ(meshed.degree(d), flat.degree(d)) << spec;
    if (flat.strategy == StrategyKind::Pipeline) {
      EXPECT_EQ(meshed.pipelineChunks(), flat.pipelineChunks()) << spec;
    }
    const auto a = flat.validate(), b = meshed.validate();
    ASSERT_EQ(a.size(), b.size()) << spec;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].rule, b[i].rule) << spec;
      EXPECT_EQ(b[i].field, a[i].field == "ranks" ? "mesh" : a[i].field) << spec;
    }
    std::vector<JobIssue> issues;
    EXPECT_EQ(JobConfig::fromJson(meshed.toJson(), issues).mesh, meshed.mesh);
    EXPECT_TRUE(issues.empty());
  }
}

TEST(JobConfig, ATraceRecordsExtraKeysAreSkippedOnlyWhenAsked) {
  // ("model" is an option too: a spec names it, a record describes it; docs/model.md)
  const auto record = nlohmann::json::parse(R"({"strategy":"tp","ranks":2,"calibration":{},"command":"mpirun"})");
  std::vector<JobIssue> issues;
  JobConfig::fromJson(record, issues);
  EXPECT_EQ(issues.size(), 2u);
  issues.clear();
  const JobConfig c = JobConfig::fromJson(record, issues, JobConfig{}, JobConfig::OtherKeys::Skip);
  EXPECT_TRUE(issues.empty());
  EXPECT_EQ(c.strategy, StrategyKind::Tp);
}

TEST(JobRules, EveryRuleHasAnIdAndATemplateWhoseArgumentsAreFilled) {
  for (JobRule r : allRules()) {
    EXPECT_FALSE(ruleId(r).empty());
    EXPECT_NE(std::string(ruleTemplate(r)), "");
  }
  const JobIssue i{"batch", JobRule::BatchDivisibleByRanks, {"10", "4"}};
  EXPECT_EQ(i.message(), "batch: the global batch (10) must be divisible by ranks (4)");
}

TEST(ModelShape, AShardIsTheUnitPaddedToAMultipleOfTheRanks) {
  const ModelShape s{10, 3, 2};  // block: 87 parameters
  EXPECT_EQ(s.shardSize(1, 4), 22u);  // 88 / 4
  EXPECT_EQ(s.shardSize(1, 1), 87u);
  EXPECT_GE(s.shardSize(1, 4) * 4, s.unitSize(1));
}

// The agreement table's truth, from the library itself: each row's verdict, field and
// rule; and every rule of JobRules has a row (so the launcher, quiz and app tests that
// read the same table cover every rule).
TEST(JobRules, TheAgreementTableCoversEveryRuleAndJobConfigJudgesEachRowAsWritten) {
  const auto table = shardlab::testing::loadJobSpecTable();
  std::set<std::string> covered;
  for (const auto& row : table.rows) {
    SCOPED_TRACE(row.name);
    std::vector<JobIssue> issues;
    const JobConfig c = JobConfig::fromJson(table.merged(row), issues);
    if (issues.empty()) issues = c.validate();
    if (row.valid) {
      EXPECT_TRUE(issues.empty()) << issues.front().message();
      continue;
    }
    ASSERT_FALSE(issues.empty());
    EXPECT_EQ(issues.front().field, row.field) << issues.front().message();
    EXPECT_EQ(std::string(ruleId(issues.front().rule)), row.rule) << issues.front().message();
    for (const auto& i : issues) covered.insert(std::string(ruleId(i.rule)));
  }
  for (JobRule r : allRules()) EXPECT_TRUE(covered.count(std::string(ruleId(r)))) << ruleId(r) << " has no row";
}
