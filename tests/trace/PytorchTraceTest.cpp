// The PyTorch profiler importer on traces recorded by scripts/record-pytorch-trace
// (tests/data/pytorch: real DDP and FSDP2 jobs on 2 CPU ranks, gloo, with what PyTorch
// issued counted beside them), on a hand-made GPU fragment with NCCL kernel names, and on
// bad input.
#include "trace/OpenTrace.h"
#include "trace/PytorchTrace.h"
#include "trace/Replay.h"
#include "trace/Report.h"
#include "trace/Summary.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <nlohmann/json.hpp>
#include <sys/resource.h>
#include <zlib.h>

#include <filesystem>
#include <iterator>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
using namespace shardlab::trace;

namespace {

const fs::path kData = fs::path(SHARDLAB_SOURCE_DIR) / "tests" / "data" / "pytorch";

nlohmann::json readJson(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

std::string gunzip(const fs::path& p) {
  gzFile f = gzopen(p.c_str(), "rb");
  std::string text;
  char buf[1 << 15];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return text;
}

fs::path tempDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("shardlab-pytorch-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
}

struct KindTotals {
  long count = 0;
  std::int64_t bytes = 0;
};

// rank -> kind -> calls and bytes, from the imported records.
std::map<int, std::map<std::string, KindTotals>> collectivesByRank(const Trace& t) {
  std::map<int, std::map<std::string, KindTotals>> out;
  for (const auto& e : t.events)
    if (e.record == Record::Collective) {
      auto& k = out[e.rank][std::string(toString(e.kind))];
      ++k.count;
      k.bytes += e.bytes;
    }
  return out;
}

class Fixture : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(Fixture, CollectivesPerRankEqualWhatPytorchIssued) {
  const auto issued = readJson(kData / GetParam() / "issued.json");
  const auto imported = importPytorchTrace((kData / GetParam()).string());
  ASSERT_TRUE(imported.ok()) << *imported.error;
  const auto byRank = collectivesByRank(imported.trace);
  ASSERT_EQ(imported.trace.rankCount(), issued["world_size"].get<int>());
  for (const auto& r : issued["ranks"]) {
    const int rank = r["rank"].get<int>();
    std::map<std::string, KindTotals> expected;
    for (const auto& [kind, c] : r["collectives"].items()) expected[kind] = {c["count"].get<long>(), c["bytes"].get<std::int64_t>()};
    ASSERT_FALSE(expected.empty());
    const auto found = byRank.count(rank) ? byRank.at(rank) : std::map<std::string, KindTotals>{};
    ASSERT_EQ(found.size(), expected.size()) << "rank " << rank;
    for (const auto& [kind, c] : expected) {
      ASSERT_TRUE(found.count(kind)) << "rank " << rank << " " << kind;
      EXPECT_EQ(found.at(kind).count, c.count) << "rank " << rank << " " << kind;
      EXPECT_EQ(found.at(kind).bytes, c.bytes) << "rank " << rank << " " << kind;
    }
  }
  // The summary counts the same calls.
  const Summary s = summarizeMeasured(imported.trace);
  for (const auto& [kind, c] : issued["ranks"][0]["collectives"].items()) {
    EXPECT_EQ(s.collectives.at(kind).count, c["count"].get<std::int64_t>()) << kind;
    EXPECT_EQ(s.collectives.at(kind).bytes, c["bytes"].get<std::int64_t>()) << kind;
  }
}

TEST_P(Fixture, MemoryPeakEqualsTheProfilersAndStepsAreTheProfiledOnes) {
  const auto issued = readJson(kData / GetParam() / "issued.json");
  const auto imported = importPytorchTrace((kData / GetParam()).string());
  ASSERT_TRUE(imported.ok()) << *imported.error;
  const Summary s = summarizeMeasured(imported.trace);
  ASSERT_EQ(s.ranksDetail.size(), 2u);
  for (const auto& r : issued["ranks"]) {
    const auto rank = r["rank"].get<std::size_t>();
    EXPECT_GT(r["profiler_peak_bytes"].get<std::int64_t>(), 0);
    EXPECT_EQ(s.ranksDetail[rank].peakBytes, r["profiler_peak_bytes"].get<std::int64_t>()) << "rank " << rank;
    EXPECT_GT(s.ranksDetail[rank].forwardOps, 0);
    EXPECT_GT(s.ranksDetail[rank].backwardOps, 0);
    EXPECT_GT(s.ranksDetail[rank].optimizerOps, 0);
  }
  // One step record per ProfilerStep range, per rank (the loss is not in the trace:
  // the summary's loss curve stays empty rather than showing a made-up one).
  std::map<int, int> steps;
  for (const auto& e : imported.trace.events)
    if (e.record == Record::Step) ++steps[e.rank];
  EXPECT_EQ(steps, (std::map<int, int>{{0, 3}, {1, 3}}));
  EXPECT_TRUE(s.lossPerStep.empty());
  EXPECT_GT(s.stepTimeS, 0.0);
}

TEST_P(Fixture, JobRecordSaysImportedAndListsWhatWasNotMapped) {
  const auto imported = importPytorchTrace((kData / GetParam()).string());
  ASSERT_TRUE(imported.ok()) << *imported.error;
  const auto& job = imported.trace.job;
  ASSERT_TRUE(job.has_value());
  ASSERT_TRUE(job->imported.has_value());
  EXPECT_EQ(job->imported->source, "pytorch-profiler");
  EXPECT_EQ(job->imported->backend, "gloo");
  EXPECT_EQ(job->imported->files.size(), 2u);
  EXPECT_EQ(job->config.ranks, 2);
  EXPECT_EQ(std::string(shardlab::name(job->config.strategy)), GetParam());
  // Every event is mapped or listed: the two add up to what was read.
  const auto& report = imported.report;
  EXPECT_EQ(report.mapped + report.notMappedCount(), report.eventsRead);
  EXPECT_GT(report.notMappedCount(), 0); // flow arrows at least
  EXPECT_EQ(job->imported->notMapped, report.notMappedCount());
  EXPECT_NE(report.describe().find("not mapped"), std::string::npos);
  if (GetParam() == "fsdp") {
    EXPECT_EQ(job->model.units, (std::vector<std::string>{"layers.0", "layers.1", "layers.2"}));
    for (const auto& e : imported.trace.events)
      if (e.record == Record::Collective) {
        EXPECT_GE(e.unit, 0) << "an FSDP collective without its unit";
      }
  }
}

TEST_P(Fixture, MemoryIsInTheUnknownCategoryAndItsPeakIsTheRanks) {
  const auto imported = importPytorchTrace((kData / GetParam()).string());
  ASSERT_TRUE(imported.ok()) << *imported.error;
  long memory = 0;
  for (const auto& e : imported.trace.events)
    if (e.record == Record::Memory) {
      ++memory;
      EXPECT_EQ(e.category, Category::Unknown);
    }
  EXPECT_GT(memory, 0);
  const Summary s = summarizeMeasured(imported.trace);
  for (const auto& r : s.ranksDetail) {
    EXPECT_GT(r.peakBytes, 0);
    for (int c = 0; c < kCategoryCount; ++c)
      EXPECT_EQ(r.peakByCategory[static_cast<std::size_t>(c)], static_cast<Category>(c) == Category::Unknown ? r.peakBytes : 0)
          << "rank " << r.rank << " " << toString(static_cast<Category>(c));
  }
  EXPECT_EQ(s.toJson()["ranks_detail"][0]["peak_by_category"]["unknown"].get<std::int64_t>(), s.ranksDetail[0].peakBytes);
}

TEST_P(Fixture, StepsCompletedAreTheProfilerStepsEveryRankEnded) {
  const auto issued = readJson(kData / GetParam() / "issued.json");
  const auto imported = importPytorchTrace((kData / GetParam()).string());
  ASSERT_TRUE(imported.ok()) << *imported.error;
  const Summary s = summarizeMeasured(imported.trace);
  EXPECT_EQ(s.steps, 3);
  EXPECT_EQ(s.stepsCompleted, 3); // no loss in the trace: counted from ProfilerStep#N
  // The per-step counts follow: what PyTorch issued over the 3 profiled steps.
  for (const auto& [kind, c] : issued["ranks"][0]["collectives"].items())
    EXPECT_DOUBLE_EQ(s.toJson()["collectives"][kind]["per_step"].get<double>(), c["count"].get<double>() / 3) << kind;
  // A rank whose last ProfilerStep is missing has not completed it: the steps every rank ended.
  Trace cut = imported.trace;
  for (auto it = cut.events.rbegin(); it != cut.events.rend(); ++it)
    if (it->record == Record::Step && it->rank == 1) {
      cut.events.erase(std::next(it).base());
      break;
    }
  EXPECT_EQ(summarizeMeasured(cut).stepsCompleted, 2);
}

TEST_P(Fixture, IsNotReplayedAndTheSummarySaysWhy) {
  const auto imported = importPytorchTrace((kData / GetParam()).string());
  ASSERT_TRUE(imported.ok()) << *imported.error;
  const auto why = notReplayable(imported.trace);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("no wait for a collective"), std::string::npos) << *why;
  const Summary s = summarize(imported.trace);
  EXPECT_FALSE(s.replay.present);
  EXPECT_TRUE(s.replay.results.empty());
  EXPECT_EQ(s.replay.notReplayed, *why);
  EXPECT_EQ(s.toJson()["replay"]["not_replayed"].get<std::string>(), *why);
  EXPECT_FALSE(bubbleBreakdown(imported.trace).has_value());
  // A ShardLab trace is replayed as before: the refusal is the imported record's.
  Trace own = imported.trace;
  own.job->imported.reset();
  EXPECT_FALSE(notReplayable(own).has_value());
}

INSTANTIATE_TEST_SUITE_P(Recorded, Fixture, ::testing::Values("ddp", "fsdp"));

TEST(PytorchTrace, OneFileOfTwoRanksOpensAsThatRank) {
  const auto opened = openTrace((kData / "ddp" / "rank1.pt.trace.json.gz").string());
  ASSERT_TRUE(opened.ok()) << opened.describeError("rank1");
  ASSERT_TRUE(opened.imported.has_value());
  EXPECT_EQ(opened.read.trace.rankCount(), 2);
  for (const auto& e : opened.read.trace.events) EXPECT_EQ(e.rank, 1);
}

TEST(PytorchTrace, OpenTraceStillReadsShardLabTraces) {
  const auto path = fs::path(SHARDLAB_SOURCE_DIR) / "tests" / "app" / "data" / "killed-rank-fsdp-4ranks.trace";
  const auto opened = openTrace(path.string());
  EXPECT_FALSE(opened.imported.has_value());
  ASSERT_TRUE(opened.read.trace.job.has_value());
  EXPECT_FALSE(opened.read.trace.job->imported.has_value());
}

// A GPU rank as Kineto writes it: kernels on a stream, each launched by a runtime call
// with the same correlation id; NCCL kernels carry the collective's arguments.
TEST(PytorchTrace, GpuFragmentNcclKernelsMapToTheirKindsAndSizes) {
  const auto dir = tempDir("gpu");
  const auto kernel = [](const std::string& name, double ts, int correlation, nlohmann::json args) {
    args["correlation"] = correlation;
    args["stream"] = 7;
    return nlohmann::json{{"ph", "X"}, {"cat", "kernel"}, {"name", name}, {"pid", 0}, {"tid", 7},
                          {"ts", ts}, {"dur", 5}, {"args", args}};
  };
  const auto launch = [](double ts, int correlation, int tid) {
    return nlohmann::json{{"ph", "X"}, {"cat", "cuda_runtime"}, {"name", "cudaLaunchKernel"}, {"pid", 10},
                          {"tid", tid}, {"ts", ts}, {"dur", 1}, {"args", {{"correlation", correlation}}}};
  };
  const auto comm = [](const char* collective, long in, long out, const char* dtype) {
    return nlohmann::json{{"Collective name", collective}, {"In msg nelems", in}, {"Out msg nelems", out},
                          {"dtype", dtype}, {"Group size", 2}, {"Process Group Name", "0"},
                          {"Process Group Ranks", "[0, 1]"}};
  };
  nlohmann::json events = nlohmann::json::array({
      {{"ph", "X"}, {"cat", "user_annotation"}, {"name", "ProfilerStep#0"}, {"pid", 10}, {"tid", 1}, {"ts", 0}, {"dur", 1000}},
      {{"ph", "X"}, {"cat", "cpu_op"}, {"name", "aten::mm"}, {"pid", 10}, {"tid", 1}, {"ts", 10}, {"dur", 5}},
      launch(11, 1, 1),
      launch(20, 2, 1), launch(30, 3, 1), launch(40, 4, 1), launch(50, 5, 1),
      launch(60, 6, 2), // launched by autograd's device thread: backward
      kernel("ampere_sgemm_128x64_nn", 100, 1, {}),
      kernel("ncclDevKernel_AllGather_RING_LL", 200, 2, comm("_allgather_base", 1024, 2048, "Float")),
      kernel("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", 300, 3, comm("_reduce_scatter_base", 2048, 1024, "BFloat16")),
      kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 400, 4, comm("allreduce", 4096, 4096, "Float")),
      kernel("ncclDevKernel_SendRecv", 500, 5, comm("send", 256, 256, "Float")),
      kernel("ampere_sgemm_64x32_tn", 600, 6, {}),
      {{"ph", "i"}, {"cat", "cpu_instant_event"}, {"name", "[memory]"}, {"pid", 10}, {"tid", 1}, {"ts", 12},
       {"args", {{"Bytes", 4096}, {"Total Allocated", 4096}, {"Device Type", 1}, {"Device Id", 0}}}},
      {{"ph", "i"}, {"cat", "cpu_instant_event"}, {"name", "[memory]"}, {"pid", 10}, {"tid", 1}, {"ts", 13},
       {"args", {{"Bytes", 64}, {"Total Allocated", 64}, {"Device Type", 0}, {"Device Id", -1}}}},
  });
  const nlohmann::json trace = {{"schemaVersion", 1},
                                {"distributedInfo", {{"backend", "nccl"}, {"rank", 0}, {"world_size", 2}}},
                                {"traceEvents", events}};
  write(dir / "gpu.pt.trace.json", trace.dump());
  const auto imported = importPytorchTrace((dir / "gpu.pt.trace.json").string());
  ASSERT_TRUE(imported.ok()) << *imported.error;
  EXPECT_TRUE(imported.report.gpu);
  std::vector<std::pair<Kind, std::int64_t>> colls;
  std::vector<Kind> ops;
  std::int64_t peak = 0;
  for (const auto& e : imported.trace.events) {
    if (e.record == Record::Collective) {
      colls.emplace_back(e.kind, e.bytes);
      EXPECT_EQ(e.participants, 0x3u);
    }
    if (e.record == Record::Op) ops.push_back(e.kind);
    if (e.record == Record::Memory) peak = std::max(peak, e.total);
  }
  const std::vector<std::pair<Kind, std::int64_t>> expected = {
      {Kind::AllGather, 2048 * 4}, {Kind::ReduceScatter, 2048 * 2}, {Kind::AllReduce, 4096 * 4}, {Kind::Send, 256 * 4}};
  EXPECT_EQ(colls, expected);
  EXPECT_EQ(ops, (std::vector<Kind>{Kind::Forward, Kind::Backward}));
  EXPECT_EQ(peak, 4096); // the device's memory; the host's is listed as not mapped
  EXPECT_EQ(imported.report.notMapped.count("[memory]: host memory of a GPU rank"), 1u);
  EXPECT_EQ(imported.trace.job->config.device, shardlab::DeviceKind::Cuda);
  fs::remove_all(dir);
}

TEST(PytorchTrace, AChromeTraceOfAnotherProgramIsRefusedNamingTheFile) {
  const auto dir = tempDir("other");
  write(dir / "other.json", R"({"traceEvents":[{"name":"draw","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}]})");
  const auto opened = openTrace((dir / "other.json").string());
  ASSERT_FALSE(opened.ok());
  const auto message = opened.describeError((dir / "other.json").string());
  EXPECT_NE(message.find("other.json"), std::string::npos) << message;
  EXPECT_NE(message.find("not a PyTorch profiler trace"), std::string::npos) << message;
  fs::remove_all(dir);
}

TEST(PytorchTrace, TruncatedJsonIsAnErrorNamingTheFile) {
  const auto dir = tempDir("cut");
  const std::string text = gunzip(kData / "fsdp" / "rank0.pt.trace.json.gz");
  write(dir / "cut.pt.trace.json", text.substr(0, text.size() / 2));
  const auto imported = importPytorchTrace((dir / "cut.pt.trace.json").string());
  ASSERT_FALSE(imported.ok());
  EXPECT_NE(imported.error->find("cut.pt.trace.json"), std::string::npos) << *imported.error;
  EXPECT_NE(imported.error->find("not complete JSON"), std::string::npos) << *imported.error;
  EXPECT_TRUE(imported.trace.events.empty());
  fs::remove_all(dir);
}

TEST(PytorchTrace, RanksThatDisagreeOnTheWorldSizeAreAnErrorNamingFileAndRank) {
  const auto dir = tempDir("world");
  auto rank1 = nlohmann::json::parse(gunzip(kData / "ddp" / "rank1.pt.trace.json.gz"));
  rank1["distributedInfo"]["world_size"] = 4;
  write(dir / "rank0.pt.trace.json", gunzip(kData / "ddp" / "rank0.pt.trace.json.gz"));
  write(dir / "rank1.pt.trace.json", rank1.dump());
  const auto imported = importPytorchTrace(dir.string());
  ASSERT_FALSE(imported.ok());
  const auto& m = *imported.error;
  EXPECT_NE(m.find("rank1.pt.trace.json (rank 1)"), std::string::npos) << m;
  EXPECT_NE(m.find("world_size 4"), std::string::npos) << m;
  EXPECT_NE(m.find("says 2"), std::string::npos) << m;
  fs::remove_all(dir);
}

TEST(PytorchTrace, AFolderWithARankTwiceIsAnError) {
  const auto dir = tempDir("missing");
  write(dir / "rank1.pt.trace.json", gunzip(kData / "ddp" / "rank1.pt.trace.json.gz"));
  auto copy = nlohmann::json::parse(gunzip(kData / "ddp" / "rank1.pt.trace.json.gz"));
  write(dir / "again.pt.trace.json", copy.dump());
  const auto imported = importPytorchTrace(dir.string());
  ASSERT_FALSE(imported.ok());
  EXPECT_NE(imported.error->find("rank 1 again"), std::string::npos) << *imported.error;
  fs::remove_all(dir);
}

// 100 MB of profiler events: read event by event, it opens without holding the text's
// parse tree (the peak resident size stays far below what a whole-document parse takes).
TEST(PytorchTrace, AHundredMegabyteTraceOpensWithoutExhaustingMemory) {
  const auto dir = tempDir("large");
  const auto path = dir / "large.pt.trace.json";
  {
    std::ofstream out(path);
    out << R"({"schemaVersion":1,"distributedInfo":{"backend":"gloo","rank":0,"world_size":1},"traceEvents":[)";
    out << R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#0","pid":1,"tid":1,"ts":0,"dur":1e12})";
    std::int64_t written = 0;
    for (long i = 0; written < 100'000'000; ++i) {
      std::ostringstream e;
      e << R"(,{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":)" << (1 + 2 * i)
        << R"(,"dur":1,"args":{"External id":)" << i << R"(,"Input Dims":[[64,64],[64,64]]}})";
      written += static_cast<std::int64_t>(e.str().size());
      out << e.str();
    }
    out << "]}";
  }
  ASSERT_GE(fs::file_size(path), 100'000'000u);
  const auto imported = importPytorchTrace(path.string());
  ASSERT_TRUE(imported.ok()) << *imported.error;
  EXPECT_GT(imported.trace.events.size(), 500'000u);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const long peakMiB = usage.ru_maxrss / 1024;
  EXPECT_LT(peakMiB, 1500) << "peak resident size " << peakMiB << " MiB";
  fs::remove_all(dir);
}

// The job record's `imported` key is checked like the rest of the record.
TEST(PytorchTrace, ADamagedImportedRecordIsAnErrorNamingTheField) {
  const auto noSource = JobRecord::read({{"ranks", 2}, {"imported", {{"files", {"a.json"}}}}});
  ASSERT_TRUE(std::holds_alternative<std::string>(noSource));
  EXPECT_EQ(std::get<std::string>(noSource), "imported: must be an object with a source");
  const auto badCount = JobRecord::read({{"ranks", 2}, {"imported", {{"source", "pytorch-profiler"}, {"mapped", -1}}}});
  ASSERT_TRUE(std::holds_alternative<std::string>(badCount));
  EXPECT_EQ(std::get<std::string>(badCount), "imported.mapped: must be an integer from 0");
  const auto fine = JobRecord::read(
      {{"ranks", 2}, {"imported", {{"source", "pytorch-profiler"}, {"not_mapped", {{"fwdbwd: a flow arrow", 4}}}}}});
  ASSERT_TRUE(std::holds_alternative<JobRecord>(fine));
  EXPECT_EQ(std::get<JobRecord>(fine).imported->notMapped, 4);
}

// shardlab-replay and the quiz open a trace through openTrace, which looked into the
// file to tell a PyTorch trace: a FIFO blocked it for ever (the ctest timeout is the
// guard). It is named as the trace reader names it.
TEST(OpenTrace, AFifoGivenAsATraceIsNamedWithoutBlocking) {
  const auto dir = std::filesystem::temp_directory_path() / ("shardlab-fifo-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string fifo = (dir / "t.trace").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto opened = openTrace(fifo);
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(opened.read.ok());
  EXPECT_NE(opened.read.error->message.find("FIFO"), std::string::npos) << opened.read.error->message;
}
