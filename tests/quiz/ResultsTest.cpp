// Results export (CSV, JSON) with the run's settings and the trace file's hash.
#include "quiz/progress/Progress.h"
#include "quiz/export/ResultsExporter.h"
#include "TestSupport.h"
#include "quiz/observations/TraceHash.h"

#include "trace/TraceReader.h"

#include <sstream>

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

TEST(TraceHash, Fnv1a64KnownVectors) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ull);
  EXPECT_EQ(formatTraceHash(0xcbf29ce484222325ull), "fnv1a64:cbf29ce484222325");
}

TEST(TraceHash, FileHashChangesWithTheContent) {
  TempDir dir;
  writeText(dir.path() / "a.trace", "shardlab-trace 1\n");
  writeText(dir.path() / "b.trace", "shardlab-trace 1\n\n");
  const auto a = hashTraceFile(dir.path() / "a.trace"), b = hashTraceFile(dir.path() / "b.trace");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, formatTraceHash(fnv1a64("shardlab-trace 1\n")));
  EXPECT_NE(*a, *b);
  EXPECT_FALSE(hashTraceFile(dir.path() / "missing.trace"));
}

namespace {

Progress sampleProgress(const std::filesystem::path& file, const std::filesystem::path& traceFile) {
  auto read = shardlab::trace::readTrace(
      "shardlab-trace 1\njob {\"strategy\":\"fsdp\",\"ranks\":4,\"steps\":10,\"command\":\"mpirun -np 4\","
      "\"model\":{\"units\":[\"embedding\"],\"parameters\":10}}\n");
  writeText(traceFile, "shardlab-trace 1\n");
  Progress p(file);
  const auto run = describeRun(traceFile, read.trace);
  EXPECT_TRUE(run);
  p.recordRun(*run);
  p.setLearner("Anna, K.");
  p.recordAnswer({"obs-collective-count", run->hash, "fsdp-shard-gather-free"}, 0, true);
  p.recordAnswer({"fsdp-2", "", "fsdp-shard-gather-free"}, 1, false);
  ScoreRecord s;
  s.quiz = "fsdp-shard-gather-free";
  s.lang = "fr";
  s.seed = 42;
  s.correct = 3;
  s.total = 4;
  s.unixTime = 1700000000;
  s.run = run->hash;
  p.recordScore(s);
  return p;
}

} // namespace

TEST(ResultsExporter, CsvHasTheRunAndItsHash) {
  TempDir dir;
  const auto p = sampleProgress(dir.path() / "progress.json", dir.path() / "run.trace");
  const auto csv = ResultsExporter::renderCsv({p});
  std::istringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header, "learner,record,id,lesson,lang,seed,choice,correct,first_attempt_correct,attempts,correct_count,"
                    "total,answered_at,unix_time,trace_hash,strategy,ranks,steps,config");
  const std::string hash = formatTraceHash(fnv1a64("shardlab-trace 1\n"));
  int rows = 0;
  bool sawObservation = false;
  while (std::getline(lines, line)) {
    ++rows;
    EXPECT_EQ(line.rfind("\"Anna, K.\",", 0), 0u) << "every row names the learner: " << line;
    if (line.find(",answer,obs-collective-count,fsdp-shard-gather-free,,,0,true,true,1,1,,20") != std::string::npos) {
      sawObservation = true;
      EXPECT_NE(line.find("," + hash + ",fsdp,4,10,"), std::string::npos) << line;
      EXPECT_EQ(line.find("mpirun"), std::string::npos) << "the command line is not part of the settings";
    }
  }
  EXPECT_EQ(rows, 3);
  EXPECT_TRUE(sawObservation);
  EXPECT_EQ(ResultsExporter::csvField("a,\"b\""), "\"a,\"\"b\"\"\"");
}

TEST(ResultsExporter, JsonRoundTripsThroughTheProgressFile) {
  TempDir dir;
  const auto file = dir.path() / "progress.json";
  sampleProgress(file, dir.path() / "run.trace").save();
  const auto loaded = Progress::load(file);
  EXPECT_EQ(loaded.runs().size(), 1u);
  const auto all = nlohmann::json::parse(ResultsExporter::renderJson({loaded}));
  EXPECT_EQ(all.at("format"), 2);
  ASSERT_EQ(all.at("learners").size(), 1u);
  const auto& j = all.at("learners")[0];
  EXPECT_EQ(j.at("learner"), "Anna, K.");
  const std::string hash = formatTraceHash(fnv1a64("shardlab-trace 1\n"));
  bool found = false;
  for (const auto& a : j.at("answers"))
    if (a.at("question") == "obs-collective-count") {
      found = true;
      EXPECT_EQ(a.at("learner"), "Anna, K.");
      EXPECT_EQ(a.at("first_attempt_correct"), true);
      EXPECT_EQ(a.at("answered_at").get<std::string>().size(), 20u) << a.at("answered_at");
      EXPECT_EQ(a.at("run").at("trace_hash"), hash);
      EXPECT_EQ(a.at("run").at("config").at("strategy"), "fsdp");
    } else {
      EXPECT_TRUE(a.at("run").is_null());
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(j.at("scores")[0].at("run").at("config").at("ranks"), 4);
  EXPECT_TRUE(j.at("runs").contains(hash));
}
