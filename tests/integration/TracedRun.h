// A tiny real job (2 layers of hidden 32, 2 steps, on CPU ranks) with its trace and
// --summary-json read back: the wire-bytes tests look at both.
#pragma once

#include "RunShardlab.h"
#include "trace/TraceReader.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

struct TracedRun {
  shardlab::trace::Trace trace;
  nlohmann::json summary; // --summary-json
};

inline TracedRun runTraced(const std::string& name, std::vector<std::string> args, int seed) {
  const auto dir = shardlab::testing::freshDir(name);
  const std::vector<std::string> tiny{"--layers", "2", "--hidden", "32", "--vocab", "32", "--batch", "16",
                                      "--steps", "2", "--seed", std::to_string(seed), "--device", "cpu", "-q",
                                      "--trace", dir + "/run.trace", "--summary-json", dir + "/summary.json"};
  args.insert(args.end(), tiny.begin(), tiny.end());
  const auto r = shardlab::testing::runShardlab(args);
  EXPECT_EQ(r.status, 0) << r.err;
  TracedRun out;
  auto read = shardlab::trace::readTraceFile(dir + "/run.trace");
  EXPECT_TRUE(read.ok()) << (read.error ? read.error->describe("run.trace") : "");
  out.trace = std::move(read.trace);
  std::ifstream in(dir + "/summary.json");
  out.summary = nlohmann::json::parse(in, nullptr, false);
  return out;
}
