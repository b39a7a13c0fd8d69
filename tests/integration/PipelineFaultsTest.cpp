// Bad pipeline and tensor-parallel jobs are refused before launch (exit 2, naming
// the option and the rule); a stage that dies mid-run does not leave its
// neighbours blocked in a receive forever.
#include "PipelineSupport.h"

#include <filesystem>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

struct BadJob {
  std::string name;
  std::vector<std::string> args;
  std::string message; // what shardlab-run must print
};
void PrintTo(const BadJob& job, std::ostream* os) { *os << job.name; }

} // namespace

struct pipeline_bad_input : ::testing::TestWithParam<BadJob> {};

TEST_P(pipeline_bad_input, IsRefusedNamingTheOptionAndTheRule) {
  const BadJob& job = GetParam();
  auto r = runShardlab(plus(job.args, {"-q"}), {}, 30);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find(job.message), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("mpirun"), std::string::npos) << "nothing should have been launched:\n" << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    rules, pipeline_bad_input,
    ::testing::Values(
        BadJob{"more_stages_than_units",
               {"--strategy", "pipeline", "--schedule", "gpipe", "--ranks", "5", "--layers", "2"},
               "--ranks: a pipeline of 5 stages needs at least as many units, the model has 4"},
        BadJob{"microbatches_not_dividing_batch",
               {"--strategy", "pipeline", "--schedule", "gpipe", "--ranks", "2", "--batch", "24", "--microbatches", "5"},
               "--microbatches: must divide the global batch (24 is not divisible by 5)"},
        BadJob{"naive_with_microbatches",
               {"--strategy", "pipeline", "--schedule", "naive", "--ranks", "2", "--microbatches", "2"},
               "--microbatches: the naive schedule runs the whole batch at once"},
        BadJob{"unknown_schedule",
               {"--strategy", "pipeline", "--schedule", "zigzag", "--ranks", "2"},
               "--schedule: must be one of naive, gpipe, 1f1b, interleaved, zb-h1, zb-h2 (got 'zigzag')"},
        BadJob{"zero_bubble_one_stage",
               {"--strategy", "pipeline", "--schedule", "zb-h1", "--ranks", "1", "--microbatches", "2"},
               "--ranks: the zb-h1 schedule needs at least 2 stages (ranks)"},
        BadJob{"zero_bubble_virtual_stages",
               {"--strategy", "pipeline", "--schedule", "zb-h2", "--ranks", "2", "--microbatches", "2",
                "--virtual-stages", "2"},
               "--virtual-stages: only the interleaved schedule uses virtual stages"},
        BadJob{"interleaved_too_few_units",
               {"--strategy", "pipeline", "--schedule", "interleaved", "--ranks", "2", "--virtual-stages", "3",
                "--microbatches", "2", "--layers", "2"},
               "--virtual-stages: the interleaved schedule cuts the model into ranks x virtual stages = 6 chunks"},
        BadJob{"interleaved_one_chunk",
               {"--strategy", "pipeline", "--schedule", "interleaved", "--ranks", "2", "--microbatches", "2"},
               "--virtual-stages: the interleaved schedule needs at least 2 chunks per rank"},
        BadJob{"interleaved_microbatches_not_multiple_of_stages",
               {"--strategy", "pipeline", "--schedule", "interleaved", "--ranks", "2", "--virtual-stages", "2",
                "--microbatches", "3", "--batch", "24"},
               "--microbatches: the interleaved schedule needs a multiple of the stage count (2)"},
        BadJob{"virtual_stages_without_interleaving",
               {"--strategy", "pipeline", "--schedule", "1f1b", "--ranks", "2", "--virtual-stages", "2"},
               "--virtual-stages: only the interleaved schedule uses virtual stages"},
        BadJob{"stages_wrong_count",
               {"--strategy", "pipeline", "--schedule", "gpipe", "--ranks", "2", "--layers", "4", "--stages", "1,2,3"},
               "--stages: expected 2 unit counts, one per stage (per chunk when interleaved), got 3"},
        BadJob{"stages_wrong_sum",
               {"--strategy", "pipeline", "--schedule", "gpipe", "--ranks", "2", "--layers", "4", "--stages", "2,2"},
               "--stages: unit counts must add up to the model's 6 units"},
        BadJob{"tp_degree_not_dividing_hidden",
               {"--strategy", "tp", "--ranks", "3", "--hidden", "32"},
               "--ranks: the tensor-parallel degree (3) must divide hidden (32) and 4 x hidden (128)"}),
    [](const auto& test) { return test.param.name; });

TEST(pipeline_fault, KilledStageStopsTheJobNamesItAndKeepsAReadableTrace) {
  const auto dir = freshDir("pp-fault");
  const std::string traceFile = dir + "/t.trace";
  auto r = runShardlab({"--strategy", "pipeline", "--schedule", "1f1b", "--ranks", "3", "--microbatches", "4",
                        "--layers", "4", "--hidden", "32", "--vocab", "32", "--batch", "24", "--steps", "200",
                        "--trace", traceFile},
                       {{"SHARDLAB_FAULT", "1:3:kill"}}, 60);
  EXPECT_NE(r.status, 0) << r.err;
  EXPECT_NE(r.status, -2) << "timed out: the neighbours of the dead stage stayed blocked";
  EXPECT_NE(r.err.find("rank 1 failed: killed by signal 9"), std::string::npos) << r.err;
  ASSERT_TRUE(std::filesystem::exists(traceFile));
  // The killed rank may have left its last line cut: read up to the damage.
  auto read = trace::readTraceFile(traceFile);
  EXPECT_FALSE(read.trace.events.empty());
  ASSERT_TRUE(read.trace.job);
  EXPECT_EQ(read.trace.job->config.strategy, StrategyKind::Pipeline);
  const auto s = trace::summarize(read.trace);
  EXPECT_EQ(s.stepsCompleted, 3) << "steps 0-2 finished on the last stage, step 3 never did";
  EXPECT_FALSE(s.ranksDetail.at(1).finished);
}
