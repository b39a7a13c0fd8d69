// GPU against CPU, end to end: the same job with --device cuda
// (or cuda+mpi-staged) and with --device cpu must end with the same parameters and
// losses (Parity.h: relative 1e-4). One rank on NCCL (ddp, fsdp), and four staged
// ranks sharing the GPU for ddp, fsdp, tp and pipeline: a stream-ordering bug shows
// as a difference here, which the op-by-op tests cannot see. Skipped without a GPU
// (failed with SHARDLAB_REQUIRE_GPU=1). scripts/gpu-check.sh runs one case again
// under CUDA_LAUNCH_BLOCKING=1.
#include "Parity.h"
#include "RunShardlab.h"

#include "RequireGpu.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace shardlab {
namespace {

using testing::compareRuns;
using testing::freshDir;
using testing::readRunOutputs;
using testing::runShardlab;

struct Case {
  std::string name, strategy, device;
  int ranks;
  std::vector<std::string> extra;
};

class GpuParity : public ::testing::TestWithParam<Case> {};

TEST_P(GpuParity, MatchesTheCpu) {
  SHARDLAB_NEED_GPU();
  const Case& c = GetParam();
  auto run = [&](const std::string& device) {
    const auto dir = freshDir("parity-" + c.name + "-" + (device == "cpu" ? "cpu" : "gpu"));
    std::vector<std::string> args{"--strategy", c.strategy, "--ranks", std::to_string(c.ranks), "--device", device,
                                  "--layers", "4", "--hidden", "64", "--vocab", "64", "--batch", "32", "--steps",
                                  "5", "--dump-params", dir + "/p.bin", "--summary-json", dir + "/s.json", "-q"};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    auto r = runShardlab(args, {}, 240);
    EXPECT_EQ(r.status, 0) << device << ": " << r.err;
    return readRunOutputs(dir + "/p.bin", dir + "/s.json");
  };
  const auto cpu = run("cpu");
  const auto gpu = run(c.device);
  const auto parity = compareRuns(gpu, cpu);
  std::printf("[ parity   ] %s %s x%d vs cpu: %s\n", c.strategy.c_str(), c.device.c_str(), c.ranks,
              parity.report.c_str());
  RecordProperty("parity", parity.report);
  EXPECT_TRUE(parity.ok) << parity.report;
}

INSTANTIATE_TEST_SUITE_P(
    Jobs, GpuParity,
    ::testing::Values(Case{"ddp_nccl_1", "ddp", "cuda", 1, {}}, Case{"fsdp_nccl_1", "fsdp", "cuda", 1, {}},
                      Case{"ddp_staged_4", "ddp", "cuda+mpi-staged", 4, {}},
                      Case{"fsdp_staged_4", "fsdp", "cuda+mpi-staged", 4, {}},
                      Case{"tp_staged_4", "tp", "cuda+mpi-staged", 4, {}},
                      Case{"pipeline_staged_4", "pipeline", "cuda+mpi-staged", 4, {"--microbatches", "4"}}),
    [](const ::testing::TestParamInfo<Case>& param) { return param.param.name; });

} // namespace
} // namespace shardlab
