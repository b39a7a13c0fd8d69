// Every sending collective of every FSDP sharding (ZeRO-0…3 and hybrid), of DDP and of
// tensor parallelism, on 2 and 4 real Open MPI ranks: its measured bytes are there
// (> 0 wherever the ring model says something is sent) and agree with the ring model
// within kTolerance, since the launcher runs the collectives as rings
// (--collective-algorithms ring, the default). docs/trace-format.md, "Bytes on the wire".
//
// This is what caught ZeRO-1 measuring 0: its parameter all-gather is in place
// (MPI_IN_PLACE), and Open MPI's coll monitoring, which counted a call's nominal send
// size, counted nothing for it. It also pins the all-reduce at the ring's 2(N−1)/N·B,
// where that coll counter said (N−1)·B whatever the algorithm sent.
#include "RunShardlab.h"
#include "TracedRun.h"
#include "trace/TraceReader.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <fstream>
#include <map>

using namespace shardlab;
using namespace shardlab::testing;

namespace {

// Measured over modelled, per call and per summary line: a ring splits a buffer whose
// floats do not divide by N into blocks one float apart, so a rank may send a few bytes
// more or less than the model's integer share; 1% is far wider than that and far
// narrower than any other algorithm's difference (recursive doubling's all-reduce sends
// 2·B on 4 ranks, 1.33× the ring; a reduce-and-scatter's root several B).
constexpr double kTolerance = 0.01;

using Run = TracedRun;

Run run(const std::string& name, std::vector<std::string> args) { return runTraced(name, std::move(args), 5); }

// The ring model, as wire_bytes counts it (engine/trace/Summary.cpp).
std::int64_t ringBytes(const trace::Event& e) {
  const std::int64_t n = std::popcount(e.participants);
  switch (e.kind) {
  case trace::Kind::AllReduce: return 2 * e.bytes * (n - 1) / n;
  case trace::Kind::Send: return e.bytes;
  default: return e.bytes * (n - 1) / n;
  }
}

bool sending(trace::Kind k) {
  return k == trace::Kind::AllGather || k == trace::Kind::ReduceScatter || k == trace::Kind::AllReduce ||
         k == trace::Kind::Send;
}

// Checks every sending call of the trace; returns the calls seen per kind.
std::map<std::string, int> checkEveryCall(const trace::Trace& t) {
  std::map<std::string, int> seen;
  for (const auto& e : t.events) {
    if (e.record != trace::Record::Collective || !sending(e.kind)) continue;
    const auto kind = std::string(trace::toString(e.kind));
    ++seen[kind];
    const auto model = ringBytes(e);
    const auto where = "rank " + std::to_string(e.rank) + " " + kind + " of " + std::to_string(e.bytes) + " B unit " +
                       std::to_string(e.unit) + " step " + std::to_string(e.step) + " on " +
                       std::to_string(std::popcount(e.participants)) + " ranks";
    if (e.wireBytes < 0) {
      ADD_FAILURE() << where << ": not measured";
      continue;
    }
    if (model == 0) { // a communicator of one rank (hybrid, groups of 1): nothing goes out
      EXPECT_EQ(e.wireBytes, 0) << where;
      continue;
    }
    EXPECT_GT(e.wireBytes, 0) << where;
    EXPECT_NEAR(static_cast<double>(e.wireBytes) / static_cast<double>(model), 1.0, kTolerance)
        << where << ": measured " << e.wireBytes << ", ring model " << model;
  }
  return seen;
}

// The summary's measured figure beside its model, for every kind the run used.
void checkSummary(const nlohmann::json& summary, const std::map<std::string, int>& seen) {
  for (const auto& [kind, calls] : seen) {
    const auto& c = summary["collectives"][kind];
    ASSERT_TRUE(c["measured_wire_bytes"].is_number_integer()) << kind << ": " << c.dump();
    const auto measured = c["measured_wire_bytes"].get<std::int64_t>();
    const auto model = c["wire_bytes"].get<std::int64_t>();
    if (model == 0) {
      EXPECT_EQ(measured, 0) << kind;
      continue;
    }
    EXPECT_GT(measured, 0) << kind << ": " << c.dump();
    EXPECT_NEAR(static_cast<double>(measured) / static_cast<double>(model), 1.0, kTolerance) << kind << ": " << c.dump();
  }
}

struct Case {
  std::string name;
  std::vector<std::string> args;
  std::vector<std::string> kinds; // the sending kinds it must have issued
};

} // namespace

TEST(WireBytesEverySharding, EverySendingCollectiveIsMeasuredAndAgreesWithTheRing) {
  const std::vector<Case> cases{
      {"no-shard", {"--sharding", "no-shard"}, {"all_reduce"}},
      {"optimizer", {"--sharding", "optimizer"}, {"reduce_scatter", "all_gather"}},
      {"grad-op", {"--sharding", "grad-op"}, {"reduce_scatter", "all_gather"}},
      {"full", {"--sharding", "full"}, {"reduce_scatter", "all_gather"}},
  };
  for (int ranks : {2, 4})
    for (const auto& c : cases) {
      SCOPED_TRACE(c.name + ", " + std::to_string(ranks) + " ranks");
      auto args = c.args;
      args.insert(args.begin(), {"--strategy", "fsdp", "--ranks", std::to_string(ranks)});
      const auto r = run(c.name + std::to_string(ranks), args);
      const auto seen = checkEveryCall(r.trace);
      for (const auto& kind : c.kinds) EXPECT_GT(seen.count(kind) ? seen.at(kind) : 0, 0) << kind;
      checkSummary(r.summary, seen);
    }
}

// Hybrid: reduce-scatter and all-gather inside the shard groups, all-reduce across them.
// On 2 ranks in groups of 1 the shard group is one rank, which sends nothing (model 0).
TEST(WireBytesEverySharding, HybridOnItsSubCommunicatorsAgreesWithTheRing) {
  for (const auto& [ranks, group] : {std::pair{2, 1}, std::pair{4, 2}}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks, groups of " + std::to_string(group));
    const auto r = run("hybrid" + std::to_string(ranks), {"--strategy", "fsdp", "--sharding", "hybrid", "--shard-group",
                                                          std::to_string(group), "--ranks", std::to_string(ranks)});
    const auto seen = checkEveryCall(r.trace);
    EXPECT_GT(seen.count("all_reduce") ? seen.at("all_reduce") : 0, 0);
    EXPECT_GT(seen.count("all_gather") ? seen.at("all_gather") : 0, 0);
    checkSummary(r.summary, seen);
  }
}

TEST(WireBytesEverySharding, DdpAndTensorParallelAllReducesAgreeWithTheRing) {
  for (int ranks : {2, 4})
    for (const char* strategy : {"ddp", "tp"}) {
      SCOPED_TRACE(std::string(strategy) + ", " + std::to_string(ranks) + " ranks");
      const auto r = run(std::string(strategy) + std::to_string(ranks),
                         {"--strategy", strategy, "--ranks", std::to_string(ranks)});
      const auto seen = checkEveryCall(r.trace);
      EXPECT_GT(seen.count("all_reduce") ? seen.at("all_reduce") : 0, 0);
      checkSummary(r.summary, seen);
    }
}

// The job record says which algorithms Open MPI was told to use, and the command passes
// exactly those; --collective-algorithms open-mpi passes none and records none.
TEST(WireBytesEverySharding, TheJobRecordNamesTheCollectiveAlgorithms) {
  const auto ring = run("record-ring", {"--strategy", "ddp", "--ranks", "2"});
  const auto& a = ring.trace.job->written["collective_algorithms"];
  ASSERT_TRUE(ring.trace.job->collectiveAlgorithms);
  EXPECT_EQ(ring.trace.job->collectiveAlgorithms->choice, "ring");
  EXPECT_EQ(a["choice"], "ring") << a.dump();
  EXPECT_EQ(a["mca"]["coll_tuned_use_dynamic_rules"], "1") << a.dump();
  EXPECT_EQ(a["mca"]["coll_tuned_allreduce_algorithm"], "4") << a.dump();
  EXPECT_EQ(a["mca"]["coll_tuned_allgather_algorithm"], "4") << a.dump();
  EXPECT_EQ(a["mca"]["coll_tuned_reduce_scatter_algorithm"], "3") << a.dump();
  const auto command = ring.trace.job->command;
  EXPECT_NE(command.find("--mca coll_tuned_allreduce_algorithm 4"), std::string::npos) << command;

  const auto own = run("record-own", {"--strategy", "ddp", "--ranks", "2", "--collective-algorithms", "open-mpi"});
  const auto& b = own.trace.job->written["collective_algorithms"];
  EXPECT_EQ(b["choice"], "open-mpi") << b.dump();
  EXPECT_TRUE(b["mca"].empty()) << b.dump();
  EXPECT_EQ(own.trace.job->command.find("coll_tuned"), std::string::npos);
}

// Point-to-point: a pipeline's activations and gradients are sent as they are, so each
// send measures exactly its message.
TEST(WireBytesEverySharding, PipelineSendsMeasureExactlyTheirMessage) {
  const auto r = run("pp2-exact", {"--strategy", "pipeline", "--ranks", "2", "--microbatches", "2"});
  int sends = 0;
  for (const auto& e : r.trace.events) {
    if (e.record != trace::Record::Collective || e.kind != trace::Kind::Send) continue;
    ++sends;
    EXPECT_EQ(e.wireBytes, e.bytes) << "rank " << e.rank << " step " << e.step;
  }
  EXPECT_GT(sends, 0);
  EXPECT_EQ(r.summary["collectives"]["send"]["measured_wire_bytes"], r.summary["collectives"]["send"]["wire_bytes"]);
}
