// The trace format: what is written is read back identically; damage is reported
// with its line and everything before it is kept; nothing crashes the reader.
#include "trace/ChromeTrace.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <sstream>

using namespace shardlab::trace;

namespace {

const std::vector<std::string> kUnits{"embedding", "block0", "output"};

std::vector<Event> sampleEvents() {
  std::vector<Event> v;
  Event op;
  op.record = Record::Op;
  op.cpuNs = 71234;
  op.rank = 1;
  op.kind = Kind::Forward;
  op.unit = 1;
  op.step = 0;
  op.t0 = 100;
  op.t1 = 250;
  v.push_back(op);
  op.recompute = true; // the same forward again inside the backward
  op.t0 = 300;
  op.t1 = 400;
  v.push_back(op);
  Event c;
  c.record = Record::Collective;
  c.rank = 1;
  c.kind = Kind::AllGather;
  c.unit = 2;
  c.step = 0;
  c.t0 = 120;
  c.t1 = 300;
  c.bytes = 4096;
  c.participants = 0xf;
  c.wireBytes = 3072; // measured by Open MPI's monitoring
  c.group = CommGroup::Shard;
  v.push_back(c);
  Event s = c;
  s.kind = Kind::Send;
  s.participants = 0x3;
  s.peer = 0;
  s.rows = 8;
  s.cols = 64;
  s.micro = 3;
  s.bytes = 8 * 64 * 4;
  v.push_back(s);
  Event m;
  m.record = Record::Memory;
  m.rank = 1;
  m.category = Category::GatheredParams;
  m.unit = 0;
  m.t0 = m.t1 = 130;
  m.bytes = -512;
  m.value = 1024;
  m.total = 9000;
  v.push_back(m);
  Event st;
  st.record = Record::Step;
  st.rank = 1;
  st.step = 0;
  st.t0 = st.t1 = 400;
  st.loss = 66.125;
  st.value = 16;
  v.push_back(st);
  Event idle;
  idle.record = Record::Idle;
  idle.rank = 1;
  idle.kind = Kind::WaitActivation;
  idle.step = 0;
  idle.micro = 2;
  idle.t0 = 10;
  idle.t1 = 90;
  v.push_back(idle);
  Event oom;
  oom.record = Record::OutOfMemory;
  oom.rank = 1;
  oom.category = Category::Grads;
  oom.unit = 1;
  oom.t0 = oom.t1 = 500;
  oom.bytes = 100;
  oom.value = 200;
  oom.total = 150;
  v.push_back(oom);
  return v;
}

std::string writeSample() {
  std::FILE* f = std::tmpfile();
  TraceWriter w(f, kUnits);
  w.writeHeader();
  w.writeJob({{"strategy", "fsdp"}, {"ranks", 2}, {"model", {{"units", kUnits}}}});
  w.writeRank(1, {{"device", "cpu"}, {"host", "h"}});
  for (const auto& e : sampleEvents()) w.write(e);
  Event fail;
  fail.record = Record::Failure;
  fail.rank = 1;
  fail.t0 = fail.t1 = 600;
  w.write(fail, "boom: \"quoted\"\nnewline");
  w.flush();
  std::rewind(f);
  std::string s;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  std::fclose(f);
  return s;
}

bool sameEvent(const Event& a, const Event& b) {
  return a.record == b.record && a.kind == b.kind && a.category == b.category && a.rank == b.rank &&
         a.unit == b.unit && a.step == b.step && a.micro == b.micro && a.peer == b.peer && a.t0 == b.t0 &&
         a.t1 == b.t1 && a.bytes == b.bytes && a.value == b.value && a.total == b.total &&
         a.participants == b.participants && a.rows == b.rows && a.cols == b.cols && a.loss == b.loss &&
         a.cpuNs == b.cpuNs && a.wireBytes == b.wireBytes && a.group == b.group && a.recompute == b.recompute;
}

} // namespace

TEST(TraceFormat, RoundTripKeepsEveryField) {
  auto r = readTrace(writeSample());
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.trace.version, kFormatVersion);
  ASSERT_TRUE(r.trace.job);
  EXPECT_EQ(r.trace.job->config.strategy, shardlab::StrategyKind::Fsdp);
  EXPECT_EQ(r.trace.job->model.units, kUnits);
  EXPECT_EQ(r.trace.units, kUnits);
  ASSERT_NE(r.trace.rankInfo(1), nullptr);
  EXPECT_EQ(r.trace.rankInfo(1)->meta["host"], "h");
  const auto expected = sampleEvents();
  ASSERT_EQ(r.trace.events.size(), expected.size() + 1);
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_TRUE(sameEvent(r.trace.events[i], expected[i])) << "event " << i;
  EXPECT_EQ(r.trace.texts.at(r.trace.events.back().text), "boom: \"quoted\"\nnewline");
}

TEST(TraceFormat, OpCpuTimeIsATrailingFieldOlderTracesLack) {
  auto r = readTrace("shardlab-trace 1\njob {\"model\":{\"units\":[\"a\"]}}\n"
                     "op 0 10 50 forward a 0 -1\n"               // before CPU times: unknown
                     "op 0 50 90 forward a 0 -1 30\n"            // 30 ns of CPU time
                     "op 0 90 99 forward a 0 -1 7 - future-field\n"); // fields after the flag are ignored
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_EQ(r.trace.events.size(), 3u);
  EXPECT_EQ(r.trace.events[0].cpuNs, -1);
  EXPECT_EQ(r.trace.events[1].cpuNs, 30);
  EXPECT_EQ(r.trace.events[2].cpuNs, 7);
  auto bad = readTrace("shardlab-trace 1\njob {}\nop 0 10 50 forward - 0 -1 lots\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error->message.find("CPU time"), std::string::npos) << bad.error->message;
}

TEST(TraceFormat, OpRecomputeFlagIsATrailingFieldOlderTracesLack) {
  auto r = readTrace("shardlab-trace 1\njob {\"model\":{\"units\":[\"a\"]}}\n"
                     "op 0 10 50 forward a 0 -1 30\n"            // before the flag: not a recompute
                     "op 0 50 90 forward a 0 -1 30 -\n"
                     "op 0 90 99 forward a 0 -1 7 recompute\n");
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_EQ(r.trace.events.size(), 3u);
  EXPECT_FALSE(r.trace.events[0].recompute);
  EXPECT_FALSE(r.trace.events[1].recompute);
  EXPECT_TRUE(r.trace.events[2].recompute);
  auto bad = readTrace("shardlab-trace 1\njob {}\nop 0 10 50 forward - 0 -1 5 again\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error->message.find("op flag"), std::string::npos) << bad.error->message;
}

TEST(TraceFormat, CollectiveWireBytesAreATrailingFieldOlderTracesLack) {
  auto r = readTrace("shardlab-trace 1\njob {\"model\":{\"units\":[\"a\"]}}\n"
                     "coll 0 10 50 all_reduce a 0 -1 4000 f -1 0x0\n"              // before the field: not measured
                     "coll 0 50 90 all_reduce a 0 -1 4000 f -1 0x0 12000\n"        // measured
                     "coll 0 90 99 all_reduce a 0 -1 4000 f -1 0x0 -1\n"           // not measured
                     "coll 0 99 120 all_gather a 0 -1 4000 f -1 0x0 3000 world future\n"); // later fields ignored
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_EQ(r.trace.events.size(), 4u);
  EXPECT_EQ(r.trace.events[0].wireBytes, -1);
  EXPECT_EQ(r.trace.events[1].wireBytes, 12000);
  EXPECT_EQ(r.trace.events[2].wireBytes, -1);
  EXPECT_EQ(r.trace.events[3].wireBytes, 3000);
  for (const char* value : {"lots", "-2"}) {
    auto bad = readTrace(std::string("shardlab-trace 1\njob {}\ncoll 0 10 50 all_reduce - 0 -1 4000 f -1 0x0 ") + value + "\n");
    ASSERT_FALSE(bad.ok()) << value;
    EXPECT_NE(bad.error->message.find("wire bytes"), std::string::npos) << bad.error->message;
  }
}

TEST(TraceFormat, CommunicatorIsATrailingFieldOlderTracesLack) {
  auto r = readTrace("shardlab-trace 1\njob {\"model\":{\"units\":[\"a\"]}}\n"
                     "coll 0 10 50 all_gather a 0 -1 64 f -1 0x0\n"                    // before it: world
                     "coll 0 50 90 reduce_scatter a 0 -1 64 3 -1 0x0 -1 shard\n"
                     "coll 0 90 99 all_reduce a 0 -1 32 5 -1 0x0 2048 replicate future\n"); // later fields ignored
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_EQ(r.trace.events.size(), 3u);
  EXPECT_EQ(r.trace.events[0].group, CommGroup::World);
  EXPECT_EQ(r.trace.events[1].group, CommGroup::Shard);
  EXPECT_EQ(r.trace.events[2].group, CommGroup::Replicate);
  auto bad = readTrace("shardlab-trace 1\njob {}\ncoll 0 10 50 all_gather - 0 -1 64 f -1 0x0 -1 galaxy\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error->message.find("communicator"), std::string::npos) << bad.error->message;
}

// Version 3: the mesh's communicators, and each rank's coordinates in its record. A
// version 2 reader would stop at "dp" as a damaged communicator: hence the version.
TEST(TraceFormat, TheMeshsCommunicatorsAndCoordinatesReadBack) {
  auto r = readTrace("shardlab-trace 3\njob {\"ranks\":4,\"mesh\":\"dp=2,tp=2\",\"model\":{\"units\":[\"a\"]}}\n"
                     "rank 1 {\"host\":\"h\",\"mesh\":{\"dp\":0,\"tp\":1}}\n"
                     "coll 1 10 50 all_reduce a 0 -1 64 3 -1 0x0 -1 tp\n"
                     "coll 1 50 90 all_reduce a 0 -1 64 a -1 0x0 -1 dp\n"
                     "coll 1 90 99 send a 0 0 64 3 0 4x4 -1 pp\n");
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_TRUE(r.trace.job);
  EXPECT_EQ(r.trace.job->config.mesh.text(), "dp=2,tp=2");
  ASSERT_EQ(r.trace.events.size(), 3u);
  EXPECT_EQ(r.trace.events[0].group, CommGroup::Tp);
  EXPECT_EQ(r.trace.events[1].group, CommGroup::Dp);
  EXPECT_EQ(r.trace.events[2].group, CommGroup::Pp);
  ASSERT_GE(r.trace.ranks.size(), 2u);
  EXPECT_EQ(r.trace.ranks[1].meta["mesh"]["tp"], 1);
  for (const CommGroup g : {CommGroup::Dp, CommGroup::Pp, CommGroup::Tp}) EXPECT_EQ(commGroupFromString(toString(g)), g);
  // A job record of a version before the mesh has none: every rank along the strategy.
  auto old = readTrace("shardlab-trace 2\njob {\"strategy\":\"tp\",\"ranks\":2}\nend 0 5\n");
  ASSERT_TRUE(old.ok()) << old.error->message;
  EXPECT_TRUE(old.trace.job->config.mesh.empty());
  EXPECT_EQ(old.trace.job->config.degree(shardlab::MeshDim::Tp), 2);
}

TEST(TraceFormat, DamagedLineIsNamedAndEarlierEventsKept) {
  std::string text = writeSample();
  // Corrupt the 6th line (the all-gather, after the two ops): a bad kind.
  std::size_t pos = 0;
  for (int i = 0; i < 5; ++i) pos = text.find('\n', pos) + 1;
  text.replace(text.find("all_gather", pos), 10, "all_bather");
  auto r = readTrace(text);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->line, 6);
  EXPECT_NE(r.error->message.find("kind"), std::string::npos) << r.error->message;
  EXPECT_EQ(r.trace.events.size(), 2u);
  EXPECT_EQ(r.error->describe("run.trace"), "run.trace:6: " + r.error->message);
}

// The walk's damaged trace: garbage on line 3 dropped every good line after it.
TEST(TraceFormat, AnUnknownRecordIsSkippedCountedAndTheLinesAfterItRead) {
  const std::string good = writeSample();
  const auto full = readTrace(good);
  ASSERT_TRUE(full.ok());
  ASSERT_FALSE(full.skipped);
  std::string text = good;
  std::size_t pos = 0;
  for (int i = 0; i < 2; ++i) pos = text.find('\n', pos) + 1;
  text.insert(pos, "garbage here\n"); // line 3
  const long lines = static_cast<long>(std::count(text.begin(), text.end(), '\n'));
  auto r = readTrace(text);
  EXPECT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.trace.events.size(), full.trace.events.size()) << "every record after the garbage is read";
  ASSERT_TRUE(r.skipped);
  EXPECT_EQ(r.skipped->count, 1);
  EXPECT_EQ(r.skipped->first.line, 3);
  EXPECT_EQ(r.skipped->first.message, "unknown record 'garbage'");
  EXPECT_EQ(r.skipped->linesAfter, lines - 3);
  // A second unknown line is counted; damage of a known record still stops the reading there.
  text.insert(text.find("op "), "future-record 1 2 3\n");
  text.replace(text.find("all_gather"), 10, "all_bather");
  r = readTrace(text);
  ASSERT_FALSE(r.ok());
  ASSERT_TRUE(r.skipped);
  EXPECT_EQ(r.skipped->count, 2);
  EXPECT_EQ(r.skipped->first.line, 3);
  EXPECT_EQ(r.skipped->linesAfter, r.error->line - 1 - 3);
}

TEST(TraceFormat, CutShortTraceKeepsCompleteRecords) {
  std::string text = writeSample();
  const auto full = readTrace(text).trace.events.size();
  text.resize(text.size() - 10); // cut inside the last record
  auto r = readTrace(text);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.trace.events.size(), full - 1);
}

TEST(TraceFormat, FutureVersionIsRefusedWithTheVersion) {
  auto r = readTrace("shardlab-trace 99\nend 0 5\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->line, 1);
  EXPECT_NE(r.error->message.find("version 99"), std::string::npos);
  EXPECT_FALSE(readTrace("hello world\n").ok());
  EXPECT_FALSE(readTrace("").ok());
}

// A job record the readers would size their tables and views from: each damage is an
// error at the record's line naming the field, and nothing of the record is kept.
TEST(TraceFormat, ADamagedJobRecordIsAnErrorNamingLineTwoAndTheField) {
  const struct {
    const char* record;
    const char* field;
  } cases[] = {
      {R"({"ranks":0})", "ranks"},
      {R"({"ranks":-2})", "ranks"},
      {R"({"ranks":100000})", "ranks"},
      {R"({"ranks":2,"layers":100000000})", "layers"},
      {R"({"ranks":2,"hidden":65537})", "hidden"},
      {R"({"ranks":2,"layers":1e8})", "layers"},
      {R"({"ranks":"2"})", "ranks"},
      {R"({"ranks":2,"microbatches":0})", "microbatches"},
      {R"({"ranks":2,"strategy":7})", "strategy"},
      {R"({"ranks":2,"model":{"units":"embedding"}})", "model.units"},
      {R"({"ranks":2,"model":{"units":["embedding","a-unit-name-of-sixty-five-characters-which-no-engine-unit-has-xxx"]}})",
       "model.units"},
      {R"({"ranks":2,"model":{"unit_parameters":[10,-1]}})", "model.unit_parameters"},
      {R"({"ranks":2,"model":{"parameters":1e300}})", "model.parameters"},
      {R"({"ranks":2,"command":["mpirun"]})", "command"},
      {R"({"ranks":2,"calibration":{"cores":"two"}})", "calibration"},
      {R"({"ranks":2,"collective_algorithms":"ring"})", "collective_algorithms"},
  };
  for (const auto& c : cases) {
    auto r = readTrace(std::string("shardlab-trace 1\njob ") + c.record + "\nop 0 0 10 forward a 0 -1\n");
    ASSERT_FALSE(r.ok()) << c.record;
    EXPECT_EQ(r.error->line, 2) << c.record;
    EXPECT_EQ(r.error->message.rfind(std::string("job record: ") + c.field + ":", 0), 0u)
        << c.record << " -> " << r.error->message;
    EXPECT_FALSE(r.trace.job) << c.record;
    EXPECT_TRUE(r.trace.events.empty()) << c.record;
    EXPECT_NO_THROW(summarize(r.trace)) << c.record;
  }
  // The message a reader shows names the file, the line and the rule.
  auto r = readTrace("shardlab-trace 1\njob {\"ranks\":2,\"layers\":100000000}\n");
  EXPECT_EQ(r.error->describe("run.trace"),
            "run.trace:2: job record: layers: must be between 1 and 100000 (got 100000000)");
}

// A job record nested two million arrays deep (a 4 MB line): parsed, then copied into the
// job and printed by recursion, it crashed every reader on its stack (SIGSEGV). Refused
// on its text, naming line 2; a rank record too. 64 levels still read.
TEST(TraceFormat, AJobRecordNestedTooDeepIsDamageNotACrash) {
  const std::string deep = "{\"ranks\":2,\"x\":" + std::string(2'000'000, '[') + std::string(2'000'000, ']') + "}";
  auto r = readTrace("shardlab-trace 1\njob " + deep + "\nop 0 0 10 forward a 0 -1\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->describe("run.trace"),
            "run.trace:2: job record: nests objects or arrays more than 64 levels deep");
  EXPECT_FALSE(r.trace.job);
  EXPECT_NO_THROW(summarize(r.trace));

  auto rank = readTrace("shardlab-trace 1\njob {\"ranks\":2}\nrank 0 {\"x\":" + std::string(65, '[') +
                        std::string(65, ']') + "}\n");
  ASSERT_FALSE(rank.ok());
  EXPECT_EQ(rank.error->describe("run.trace"), "run.trace:3: rank record: nests objects or arrays more than 64 levels deep");

  // The string "[[[" is no nesting; 63 arrays inside the record's object are 64 levels.
  auto fine = readTrace("shardlab-trace 1\njob {\"ranks\":2,\"note\":\"[[[\\\"{{\",\"x\":" + std::string(63, '[') +
                        std::string(63, ']') + "}\nop 0 0 10 forward a 0 -1\n");
  EXPECT_TRUE(fine.ok()) << (fine.ok() ? "" : fine.error->message);
}

TEST(TraceFormat, TheJobRecordIsReadIntoItsTypedParts) {
  const std::string text =
      "shardlab-trace 1\n"
      R"(job {"strategy":"pipeline","ranks":2,"layers":2,"microbatches":2,"schedule":"gpipe",)"
      R"("model":{"units":["embedding","block0","block1","output"],"unit_parameters":[1,2,2,3],"parameters":8,"bytes":32},)"
      R"("command":"mpirun -np 2 shardlab-worker",)"
      R"("calibration":{"cores":2,"gpus":0,"gemm_flops_per_second":1e10,"handoff_latency_seconds":2e-5,)"
      R"("collective_bytes_per_second":1e9,"probe_ranks":2,"probe_seconds":3.5,"key":"vm"},)"
      R"("collective_algorithms":{"choice":"ring","mca":{"coll_tuned_use_dynamic_rules":"1"}},)"
      R"("shardlab_version":"0.1.0","started_at":"2026-12-04T01:00:00Z","device_reason":"no CUDA device found"})"
      "\n";
  auto r = readTrace(text);
  ASSERT_TRUE(r.ok()) << r.error->message;
  ASSERT_TRUE(r.trace.job);
  const JobRecord& job = *r.trace.job;
  EXPECT_EQ(job.config.strategy, shardlab::StrategyKind::Pipeline);
  EXPECT_EQ(job.config.schedule, shardlab::Schedule::GPipe);
  EXPECT_EQ(job.config.layers, 2);
  EXPECT_EQ(job.model.units, (std::vector<std::string>{"embedding", "block0", "block1", "output"}));
  EXPECT_EQ(r.trace.units, job.model.units);  // the units are interned in the record's order
  EXPECT_EQ(job.model.unitParameters, (std::vector<std::int64_t>{1, 2, 2, 3}));
  EXPECT_EQ(job.model.parameters, 8);
  EXPECT_EQ(job.model.bytes, 32);
  EXPECT_EQ(job.command, "mpirun -np 2 shardlab-worker");
  ASSERT_TRUE(job.calibration);
  EXPECT_EQ(job.calibration->cores, 2);
  EXPECT_EQ(job.calibration->key, "vm");
  ASSERT_TRUE(job.collectiveAlgorithms);
  EXPECT_EQ(job.collectiveAlgorithms->choice, "ring");
  EXPECT_EQ(job.collectiveAlgorithms->mca,
            (std::vector<std::pair<std::string, std::string>>{{"coll_tuned_use_dynamic_rules", "1"}}));
  EXPECT_EQ(job.shardlabVersion, "0.1.0");
  EXPECT_EQ(job.startedAt, "2026-12-04T01:00:00Z");
  EXPECT_EQ(job.written["device_reason"], "no CUDA device found");  // kept for writing back
  EXPECT_EQ(r.trace.rankCount(), 2);
  // What a record lacks is absent, not damage: a null calibration (the probe failed),
  // no command, no model; a record without ranks leaves the count to the rank records.
  auto bare = readTrace("shardlab-trace 1\njob {\"calibration\":null}\nrank 0 {}\n");
  ASSERT_TRUE(bare.ok()) << bare.error->message;
  EXPECT_FALSE(bare.trace.job->calibration);
  EXPECT_TRUE(bare.trace.job->command.empty());
  EXPECT_TRUE(bare.trace.job->model.units.empty());
  EXPECT_EQ(bare.trace.rankCount(), 1);
}

// The traces kept in the repository, written by earlier versions, still open.
TEST(TraceFormat, TracesOfEarlierVersionsStillOpen) {
  for (const char* file : {"tests/app/data/hang-fsdp-4ranks.trace", "tests/app/data/hang-pipeline-2ranks.trace",
                           "tests/app/data/killed-rank-fsdp-4ranks.trace", "tests/fuzz/seeds/trace/minimal.trace",
                           "tests/fuzz/seeds/trace/fsdp-2-ranks-2-steps.trace"}) {
    // A path, not a chain of string +: GCC 12 -O2 warns (-Warray-bounds, a false
    // positive) on the chain when the source directory is 16 characters long.
    auto r = readTraceFile((std::filesystem::path(SHARDLAB_SOURCE_DIR) / file).string());
    EXPECT_TRUE(r.trace.job) << file << ": " << (r.ok() ? "" : r.error->message);
    if (!r.ok()) {
      EXPECT_NE(r.error->line, 2) << file << ": " << r.error->message;
    }
  }
}

TEST(TraceFormat, FuzzedInputNeverCrashesTheReader) {
  const std::string base = writeSample();
  std::mt19937 rng(1234);
  int failures = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string s = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 4) {
      case 0: s[at] = static_cast<char>(rng() % 256); break;
      case 1: s.erase(at, 1 + rng() % 8); break;
      case 2: s.insert(at, 1, " \n0x-9"[rng() % 6]); break;
      case 3: s.resize(at); break;
      }
      if (s.empty()) s = "x";
    }
    auto r = readTrace(s);
    if (!r.ok()) {
      ++failures;
      EXPECT_GE(r.error->line, 1);
      EXPECT_FALSE(r.error->message.empty());
    }
    (void)summarize(r.trace); // whatever was read must summarise without crashing
  }
  EXPECT_GT(failures, 1000); // the mutations really did damage traces
}

TEST(ChromeTrace, ExportIsValidJsonWithOneProcessPerRankAndStreams) {
  auto r = readTrace(writeSample());
  std::ostringstream out;
  writeChromeTrace(r.trace, out);
  auto j = nlohmann::json::parse(out.str());
  ASSERT_TRUE(j.contains("traceEvents"));
  int complete = 0, counters = 0, threadNames = 0, recomputes = 0;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] == "X") {
      ++complete;
      if (e["name"] == "recompute block0") {
        ++recomputes;
        EXPECT_EQ(e["args"]["recompute"], true);
      }
      EXPECT_EQ(e["pid"], 1);
      if (e["cat"] == "op") {
        EXPECT_EQ(e["tid"], 1);
      }
      if (e["cat"] == "coll") {
        EXPECT_EQ(e["tid"], 2);
      }
    }
    if (e["ph"] == "C") ++counters;
    if (e["ph"] == "M" && e["name"] == "thread_name") ++threadNames;
  }
  EXPECT_EQ(complete, 5); // forward, its recompute, all-gather, send, idle
  EXPECT_EQ(recomputes, 1);
  EXPECT_EQ(counters, 1);
  EXPECT_EQ(threadNames, 3 * 2); // two ranks (job says 2), three threads each
}

// Inconsistent traces were read as if whole: a body pasted twice doubled every count
// under the first job record; a stray record of rank 5 in a 2-rank trace made the app
// draw 6 ranks; a second rank record replaced the first. Each is damage, named by line,
// with the records before it kept.
TEST(TraceFormat, AnInconsistentTraceIsDamageNamedByLine) {
  const std::string head = "shardlab-trace 3\njob {\"ranks\":2,\"steps\":1}\nrank 0 {\"host\":\"a\"}\nrank 1 {\"host\":\"a\"}\n";
  const std::string body = "step 0 10 0 2.5 8\nstep 1 10 0 2.5 8\n";
  struct Case {
    std::string text;
    long line;
    std::string message;
  };
  const std::vector<Case> cases{
      {head + body + "job {\"ranks\":2,\"steps\":1}\n", 7, "a second job record"},
      {head + body + "step 5 10 0 2.5 8\n", 7, "rank 5 is outside the job record's 2 ranks"},
      {head + "rank 2 {\"host\":\"a\"}\n", 5, "rank 2 is outside the job record's 2 ranks"},
      {head + "rank 1 {\"host\":\"b\"}\n", 5, "a second rank record for rank 1"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.message);
    const auto r = readTrace(c.text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error->line, c.line);
    EXPECT_NE(r.error->message.find(c.message), std::string::npos) << r.error->message;
    EXPECT_EQ(r.trace.ranks.size(), 2u);
  }
  EXPECT_TRUE(readTrace(head + body).ok()) << readTrace(head + body).error->message;

  // An op of a unit the job record's model lacks: damage at its line, and the trace's
  // units stay the model's (the app drew a unit the job never had).
  const std::string modelHead = "shardlab-trace 3\njob {\"ranks\":2,\"layers\":1,\"model\":{\"units\":"
                                "[\"embedding\",\"block0\",\"output\"]}}\n";
  const auto known = readTrace(modelHead + "op 0 1 2 forward block0 0 -1\n");
  EXPECT_TRUE(known.ok()) << (known.ok() ? "" : known.error->message);
  const auto stray = readTrace(modelHead + "op 0 1 2 forward block0 0 -1\nop 0 3 4 forward block999 0 -1\n");
  ASSERT_FALSE(stray.ok());
  EXPECT_EQ(stray.error->line, 4);
  EXPECT_EQ(stray.error->message, "unit 'block999' is not one of the job record's 3 units");
  EXPECT_EQ(stray.trace.units, (std::vector<std::string>{"embedding", "block0", "output"}));
  EXPECT_EQ(stray.trace.events.size(), 1u);
}

// A binary file's bytes reached the error message raw; each is shown as \xNN.
TEST(TraceFormat, ABinaryValueIsShownEscapedInTheError) {
  const auto r = readTrace(std::string("shardlab-trace 3\njob {\"ranks\":2}\nop 0 1 2 \x01\xff block0 0 -1 0 -\n"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error->message.find("invalid kind '\\x01\\xff'"), std::string::npos) << r.error->message;
}
