// Shared by the pipeline and tensor-parallel integration tests: a tiny model, the
// one-rank DDP reference parameters, and trace reading.
#pragma once

#include "RunShardlab.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace shardlab::testing {

// 4 blocks: 6 units, enough for 4 stages or 2 ranks x 3 virtual stages.
inline const std::vector<std::string> kModelParallelModel{"--layers", "4",  "--hidden", "32", "--vocab", "32",
                                                          "--batch",  "24", "--steps",  "10", "--seed",  "7",
                                                          "--lr",     "0.01"};

inline std::vector<std::string> plus(std::vector<std::string> base, const std::vector<std::string>& more) {
  base.insert(base.end(), more.begin(), more.end());
  return base;
}

// One rank, plain data parallel, no micro-batches: what every layout must reproduce.
inline const std::vector<float>& oneRankDdpParameters() {
  static const std::vector<float> reference = [] {
    const auto dir = freshDir("mp-reference");
    auto r = runShardlab(plus(kModelParallelModel, {"--strategy", "ddp", "--ranks", "1", "--dump-params",
                                                    dir + "/p.bin", "-q"}));
    EXPECT_EQ(r.status, 0) << r.err;
    return readFloats(dir + "/p.bin");
  }();
  return reference;
}

// The same model before training (one step with learning rate ~0 is not the same
// thing; so: the parameters after step 0 of a run that stops there).
inline const std::vector<float>& parametersAfterOneStep() {
  static const std::vector<float> params = [] {
    const auto dir = freshDir("mp-one-step");
    auto args = kModelParallelModel;
    args[9] = "1"; // --steps 1
    auto r = runShardlab(plus(args, {"--strategy", "ddp", "--ranks", "1", "--dump-params", dir + "/p.bin", "-q"}));
    EXPECT_EQ(r.status, 0) << r.err;
    return readFloats(dir + "/p.bin");
  }();
  return params;
}

inline trace::Trace readTraceOrFail(const std::string& path) {
  auto r = trace::readTraceFile(path);
  EXPECT_TRUE(r.ok()) << (r.error ? r.error->describe(path) : "");
  return std::move(r.trace);
}

} // namespace shardlab::testing
