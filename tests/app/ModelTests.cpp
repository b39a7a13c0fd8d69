// Models: TraceModel ingestion (file and batched live lines), MemoryStateModel
// answers, PlaybackController state and stepping, the job's rules as the app words
// them (JobText), captions, OOM.
#include "models/AppSettings.h"
#include "models/Format.h"
#include "models/Captions.h"
#include "models/JobText.h"
#include "models/LessonCatalog.h"
#include "views/LabOpener.h"
#include "models/MemoryStateModel.h"
#include "models/PlaybackController.h"
#include "models/TraceModel.h"
#include "SampleTrace.h"

#include "quiz/bank/KnownIds.h"
#include "trace/Report.h"

#include <QCoreApplication>
#include <QDir>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <fstream>

using namespace shardlab::app;

namespace st = shardlab::trace;

namespace {
QList<QByteArray> linesOf(const std::string& text) {
  QList<QByteArray> out;
  for (const auto& l : QByteArray::fromStdString(text).split('\n'))
    if (!l.isEmpty()) out << l;
  return out;
}

void loadSample(TraceModel& m, const sample::Options& o = {}) {
  m.clear();
  m.appendLines(linesOf(sample::fsdpText(o)));
}

int firstOf(const TraceModel& m, st::Record rec, st::Kind kind, int rank) {
  for (int i = 0; i < m.eventCount(); ++i)
    if (m.event(i).record == rec && m.event(i).kind == kind && m.event(i).rank == rank) return i;
  return -1;
}
} // namespace

TEST(TraceModel, LiveBatchesEqualWholeFile) {
  const std::string text = sample::fsdpText({4, 2, false});
  auto whole = st::readTrace(text);
  ASSERT_TRUE(whole.ok());
  TraceModel live;
  QSignalSpy appended(&live, &TraceModel::appended);
  const auto lines = linesOf(text);
  // Feed in uneven batches like the JobRunner timer does.
  for (qsizetype i = 0; i < lines.size(); i += 37) EXPECT_EQ(live.appendLines(lines.mid(i, 37)), 0);
  EXPECT_EQ(live.eventCount(), static_cast<int>(whole.trace.events.size()));
  EXPECT_GE(appended.count(), 2);
  EXPECT_EQ(live.rankCount(), 4);
  EXPECT_EQ(live.stepsDone(), 2);
  EXPECT_EQ(live.stepsPlanned(), 2);
  // The app shows summarize()'s numbers.
  const auto expected = st::summarize(whole.trace);
  EXPECT_EQ(live.summary().ranksDetail.at(1).peakBytes, expected.ranksDetail.at(1).peakBytes);
  EXPECT_EQ(live.summary().collectives.at("all_gather").count, expected.collectives.at("all_gather").count);
  EXPECT_EQ(live.peakBytes(0), expected.ranksDetail.at(0).peakBytes);
}

TEST(TraceModel, LanesAreSortedByStart) {
  TraceModel m;
  loadSample(m);
  for (int r = 0; r < m.rankCount(); ++r)
    for (auto lane : {TraceModel::Lane::Compute, TraceModel::Lane::Comm, TraceModel::Lane::Idle}) {
      const auto& v = m.lane(r, lane);
      for (std::size_t i = 1; i < v.size(); ++i) EXPECT_LE(m.event(v[i - 1]).t0, m.event(v[i]).t0);
    }
  EXPECT_EQ(m.lane(0, TraceModel::Lane::Comm).size(), 2u * (4 + 8)); // 4 AG fwd + 4 AG + 4 RS bwd per step
  EXPECT_EQ(m.lane(1, TraceModel::Lane::Idle).size(), 0u);
  EXPECT_EQ(m.lane(0, TraceModel::Lane::Idle).size(), 2u);
}

TEST(TraceModel, RunLabelIsTruthful) {
  TraceModel m;
  loadSample(m, {4, 1, false});
  EXPECT_EQ(m.runLabel(), QStringLiteral("4 CPU ranks (Open MPI, shared memory)"));
  EXPECT_EQ(m.rankLabel(2), QStringLiteral("CPU rank 2"));
  EXPECT_TRUE(m.rankIsCpu(0));
  st::Trace t;
  ASSERT_FALSE(t.setJob({{"ranks", 2}}));
  t.ranks.resize(2);
  for (int r = 0; r < 2; ++r) t.ranks[static_cast<std::size_t>(r)] = {r, {{"device", "cuda"}, {"device_name", "NVIDIA H200"}, {"nccl_version", "2.28"}}};
  m.setTrace(std::move(t));
  EXPECT_EQ(m.runLabel(), QStringLiteral("2 × NVIDIA H200 (NCCL 2.28)"));
  EXPECT_FALSE(m.rankIsCpu(1));
  // CPU ranks that bound themselves to cores of their own (the rank records say so).
  auto cpuRanks = [&](const std::vector<nlohmann::json>& cpus, bool bound) {
    st::Trace c;
    EXPECT_FALSE(c.setJob({{"ranks", static_cast<int>(cpus.size())}}));
    for (std::size_t r = 0; r < cpus.size(); ++r)
      c.ranks.push_back({static_cast<int>(r), {{"device", "cpu"}, {"device_name", "CPU rank (Open MPI, shared memory)"},
                                               {"cpus", cpus[r]}, {"bound_to_cpus", bound}}});
    m.setTrace(std::move(c));
    return m.runLabel();
  };
  EXPECT_EQ(cpuRanks({{0}, {1}}, true), QStringLiteral("2 CPU ranks (Open MPI, shared memory), each on a core of its own"));
  EXPECT_EQ(cpuRanks({{0, 1}, {2, 3}}, true), QStringLiteral("2 CPU ranks (Open MPI, shared memory), each on CPUs of its own"));
  EXPECT_EQ(cpuRanks({{0, 1}, {0, 1}, {0, 1}}, false), QStringLiteral("3 CPU ranks (Open MPI, shared memory)"));
  // Ranks on two machines (a hostfile run): how many hosts.
  st::Trace hosts;
  ASSERT_FALSE(hosts.setJob({{"ranks", 4}}));
  for (int r = 0; r < 4; ++r)
    hosts.ranks.push_back({r, {{"device", "cpu"}, {"device_name", "CPU rank (Open MPI)"}, {"host", r < 2 ? "lab-a" : "lab-b"}}});
  m.setTrace(std::move(hosts));
  EXPECT_EQ(m.runLabel(), QStringLiteral("4 CPU ranks (Open MPI), on 2 hosts"));
}

TEST(TraceModel, DamagedFilesOpenToAMessage) {
  QTemporaryDir dir;
  const std::string good = sample::fsdpText();
  auto write = [&](const char* name, const std::string& text) {
    const QString p = dir.filePath(QLatin1String(name));
    std::ofstream(p.toStdString(), std::ios::binary) << text;
    return p;
  };
  TraceModel m;
  // Truncated in the middle of a record: what came before is kept, the line is named.
  const QString cut = write("cut.trace", good.substr(0, good.size() / 2));
  QString err = m.loadFile(cut);
  EXPECT_TRUE(err.contains(QStringLiteral("cut.trace, line "))) << err.toStdString();
  EXPECT_TRUE(err.contains(QStringLiteral("cut short"))) << err.toStdString();
  EXPECT_GT(m.eventCount(), 10);
  // A future version.
  err = m.loadFile(write("future.trace", "shardlab-trace 9\n"));
  EXPECT_TRUE(err.contains(QStringLiteral("version 9"))) << err.toStdString();
  EXPECT_EQ(m.eventCount(), 0);
  // Garbage and a missing file.
  err = m.loadFile(write("junk.trace", std::string("\x89PNG\r\n\x1a\n", 8)));
  EXPECT_TRUE(err.contains(QStringLiteral("not a ShardLab trace"))) << err.toStdString();
  err = m.loadFile(dir.filePath(QStringLiteral("missing.trace")));
  EXPECT_TRUE(err.contains(QStringLiteral("Cannot open"))) << err.toStdString();
  // A bad field in the middle names its line.
  std::string bad = good;
  const auto pos = bad.find("all_gather");
  bad.replace(pos, 10, "all_gathex");
  const long line = static_cast<long>(std::count(bad.begin(), bad.begin() + static_cast<long>(pos), '\n')) + 1;
  err = m.loadFile(write("bad.trace", bad));
  EXPECT_TRUE(err.contains(QStringLiteral("line %1:").arg(line))) << err.toStdString();
  EXPECT_TRUE(err.contains(QStringLiteral("invalid kind"))) << err.toStdString();
}

TEST(TraceModel, LiveGarbageLineIsCountedNotFatal) {
  TraceModel m;
  auto lines = linesOf(sample::fsdpText());
  lines.insert(5, QByteArray("this is not a record"));
  EXPECT_EQ(m.appendLines(lines), 1);
  EXPECT_TRUE(m.parseError().contains(QStringLiteral("unknown record")));
  EXPECT_GT(m.eventCount(), 50);
}

TEST(MemoryStateModel, GatheredHeldAndFreedAtT) {
  TraceModel m;
  loadSample(m, {2, 1, false});
  MemoryStateModel state(m);
  const int ag = firstOf(m, st::Record::Collective, st::Kind::AllGather, 1);
  ASSERT_GE(ag, 0);
  const auto& e = m.event(ag);
  EXPECT_EQ(m.unitName(e.unit), QStringLiteral("embed"));
  // Before the all-gather: only shards. During it and its forward: embed gathered.
  auto before = state.stateAt(1, e.t0 - 1);
  EXPECT_EQ(before.byCategory[static_cast<int>(st::Category::ParamShard)], 4 * 1024);
  EXPECT_EQ(before.byCategory[static_cast<int>(st::Category::GatheredParams)], 0);
  EXPECT_TRUE(state.gatheredAt(1, e.t0 - 1).empty());
  EXPECT_EQ(state.gatheredAt(1, e.t1 + 1), std::vector<int>{e.unit});
  EXPECT_EQ(state.memoryAt(1, e.t1 + 1)[static_cast<int>(st::Category::GatheredParams)], 2048);
  const auto during = state.stateAt(1, (e.t0 + e.t1) / 2);
  ASSERT_FALSE(during.running.empty());
  EXPECT_NE(std::find(during.running.begin(), during.running.end(), ag), during.running.end());
  // The forward op after it, and the free after compute.
  const int fwd = firstOf(m, st::Record::Op, st::Kind::Forward, 1);
  const auto& f = m.event(fwd);
  EXPECT_EQ(state.freedBetween(1, f.t0, f.t1 + 1), std::vector<int>{e.unit});
  const auto after = state.gatheredAt(1, f.t1 + 1);
  EXPECT_EQ(std::find(after.begin(), after.end(), e.unit), after.end());
  // Going back in time replays from the start (cache reset), same answer.
  EXPECT_EQ(state.memoryAt(1, e.t0 - 1), before.byCategory);
  EXPECT_EQ(state.runningAt(1, TraceModel::Lane::Compute, (f.t0 + f.t1) / 2), fwd);
}

TEST(MemoryStateModel, BubbleIntervalsComeFromIdleRecords) {
  TraceModel m;
  loadSample(m, {2, 2, false});
  MemoryStateModel state(m);
  const auto& idle = m.lane(0, TraceModel::Lane::Idle);
  ASSERT_EQ(idle.size(), 2u);
  const auto& e = m.event(idle[0]);
  EXPECT_EQ(e.kind, st::Kind::WaitCollective);
  EXPECT_EQ(state.runningAt(0, TraceModel::Lane::Idle, e.t0 + 1), idle[0]);
  EXPECT_EQ(state.runningAt(0, TraceModel::Lane::Idle, e.t1 + 1), -1);
  EXPECT_EQ(state.runningAt(1, TraceModel::Lane::Idle, e.t0 + 1), -1);
}

TEST(PlaybackController, StepsAndScrubs) {
  TraceModel m;
  loadSample(m, {2, 1, false});
  PlaybackController p(m);
  p.modelReset();
  EXPECT_EQ(p.time(), m.startTime());
  QSignalSpy changed(&p, &PlaybackController::timeChanged);
  p.nextEvent();
  EXPECT_GT(p.time(), m.startTime());
  EXPECT_TRUE(std::binary_search(m.eventStarts().begin(), m.eventStarts().end(), p.time()));
  const qint64 first = p.time();
  p.nextEvent();
  EXPECT_GT(p.time(), first);
  p.previousEvent();
  EXPECT_EQ(p.time(), first);
  p.home();
  p.nextCollective();
  const auto& colls = m.collectiveStarts();
  const qint64 expected = *std::upper_bound(colls.begin(), colls.end(), m.startTime());
  EXPECT_EQ(p.time(), expected);
  const int ag = firstOf(m, st::Record::Collective, st::Kind::AllGather, 0);
  p.nextPhase();
  EXPECT_GT(p.time(), m.event(ag).t0);
  p.setFraction(0.5);
  EXPECT_NEAR(p.fraction(), 0.5, 1e-6);
  p.setFraction(2.0);
  EXPECT_EQ(p.time(), p.end());
  p.toEnd();
  p.nextEvent();
  EXPECT_EQ(p.time(), p.end());
  EXPECT_GE(changed.count(), 6);
  p.setSlowdown(1000);
  p.faster();
  EXPECT_DOUBLE_EQ(p.slowdown(), 500);
  p.slower();
  p.slower();
  EXPECT_DOUBLE_EQ(p.slowdown(), 2000);
  p.fitDuration(20.0);
  const double span = static_cast<double>(p.end() - p.start()) * 1e-9;
  EXPECT_LE(span * p.slowdown(), 20.0 + 1e-9);
  EXPECT_GE(span * p.slowdown(), 4.0);
}

TEST(PlaybackController, PlaysForwardAndFollowsLive) {
  TraceModel m;
  const auto lines = linesOf(sample::fsdpText({2, 2, false}));
  m.appendLines(lines.mid(0, lines.size() / 2));
  PlaybackController p(m);
  p.setLive(true);
  p.setFollowLive(true);
  EXPECT_EQ(p.time(), m.endTime());
  m.appendLines(lines.mid(lines.size() / 2));
  p.modelChanged();
  EXPECT_EQ(p.time(), m.endTime());
  p.setFollowLive(false);
  p.setLive(false);
  p.home();
  p.setSlowdown(1.0); // real time: the sample lasts ~0.3 ms, so 50 ms of play reaches the end
  p.play();
  EXPECT_TRUE(p.isPlaying());
  QTest::qWait(80);
  EXPECT_EQ(p.time(), p.end());
  EXPECT_FALSE(p.isPlaying()); // a finished run stops at its end
}

TEST(JobText, NamesTheEngineRuleAndItsField) {
  using shardlab::JobConfig;
  JobConfig c;
  EXPECT_TRUE(c.validate().empty());
  c.ranks = 0;
  auto issues = c.validate();
  ASSERT_FALSE(issues.empty());
  EXPECT_EQ(issueText(issues.front()), QStringLiteral("ranks: must be between 1 and 64 (got 0)"));
  c.ranks = 65;
  EXPECT_EQ(c.validate().front().field, "ranks");
  c.ranks = 3;
  c.batch = 8;
  issues = c.validate();
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issueText(issues.front()), QStringLiteral("batch: the global batch (8) must be divisible by ranks (3)"));
  c = JobConfig{};
  c.strategy = shardlab::StrategyKind::Pipeline;
  c.ranks = 4;
  c.layers = 8;
  c.batch = 8;
  c.microbatches = 3;
  issues = c.validate();
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issueText(issues.front()), QStringLiteral("microbatches: must divide the global batch (8 is not divisible by 3)"));
  c.microbatches = 4;
  c.schedule = shardlab::Schedule::GPipe;
  // A size the engine cannot read is named with the text as typed; units are case-sensitive.
  for (const char* text : {"lots", "3mib"}) {
    std::vector<shardlab::JobIssue> read;
    JobConfig::fromJson({{"memory_budget", text}}, read, c);
    ASSERT_EQ(read.size(), 1u) << text;
    EXPECT_EQ(issueText(read.front()), QStringLiteral("memory_budget: '%1' is not a size (use bytes, KiB, MiB or GiB)").arg(QLatin1String(text)));
  }
  std::vector<shardlab::JobIssue> read;
  c = JobConfig::fromJson({{"memory_budget", "3MiB"}}, read, c);
  EXPECT_TRUE(read.empty());
  EXPECT_EQ(c.memoryBudget, 3 * 1024 * 1024);
  EXPECT_TRUE(c.validate().empty());
  EXPECT_EQ(describeJob(c), QStringLiteral("PIPELINE · 4 ranks · 8 layers × 64 · batch 8 · 20 steps · gpipe, 4 micro-batches · budget 3.00 MiB"));
}

TEST(LessonCatalog, ReadsTheSevenLessonsFromTheAssets) {
  const QString dir = LessonCatalog::assetsDirectory();
  ASSERT_FALSE(dir.isEmpty()) << "assets/ must be found through quiz/AssetLocator";
  const auto c = LessonCatalog::load(dir);
  EXPECT_TRUE(c.warnings().isEmpty()) << c.warnings().join(QLatin1Char('\n')).toStdString();
  ASSERT_EQ(c.lessons().size(), static_cast<qsizetype>(shardlab::quiz::knownLessonIds().size()));
  int i = 0;
  for (const auto& known : shardlab::quiz::knownLessonIds()) {
    const QString id = QString::fromStdString(known);
    const Lesson* l = c.find(id);
    ASSERT_NE(l, nullptr) << known;
    EXPECT_EQ(c.lessons().at(i++).id, id) << "teaching order";
    ASSERT_FALSE(l->specs.isEmpty());
    for (const auto& s : l->specs) EXPECT_TRUE(s.validate().empty()) << known;
    for (const char* lang : {"en", "fr", "ru"}) {
      EXPECT_FALSE(l->title(QLatin1String(lang)).isEmpty()) << known << " " << lang;
      EXPECT_TRUE(l->guideMarkdown(QLatin1String(lang)).startsWith(QLatin1String("# "))) << known << " " << lang;
    }
  }
  // Keys a lesson leaves out take the engine's defaults (vocab 64, batch 64, lr 3e-3), as with shardlab-run --spec.
  const Lesson* ddp = c.find(QStringLiteral("ddp-replicas"));
  EXPECT_EQ(ddp->specs.first().vocab, 64);
  EXPECT_EQ(ddp->specs.first().batch, 64);
  EXPECT_EQ(ddp->specs.first().steps, 10);
  EXPECT_DOUBLE_EQ(ddp->specs.first().lr, 3e-3);
  // Comparison lessons: two labelled runs; prefetch on, then off.
  const Lesson* pf = c.find(QStringLiteral("fsdp-prefetch"));
  ASSERT_EQ(pf->specs.size(), 2);
  EXPECT_TRUE(pf->specs.at(0).prefetches());
  EXPECT_FALSE(pf->specs.at(1).prefetches());
  EXPECT_EQ(pf->specLabels(QStringLiteral("fr")).value(1), QStringLiteral("prélecture désactivée"));
  const Lesson* oom = c.find(QStringLiteral("oom-ddp-vs-fsdp"));
  EXPECT_EQ(oom->specs.at(0).memoryBudget, 1572864);
  EXPECT_EQ(oom->title(QStringLiteral("ru")), QStringLiteral("Нехватка памяти: DDP против FSDP"));
  // No assets folder: no lessons, no invented fallback.
  EXPECT_TRUE(LessonCatalog::load(QDir::tempPath() + QStringLiteral("/no-such-shardlab-assets")).lessons().isEmpty());
}

TEST(LessonCatalog, SizedForTheMachineWithTheLabsSettingsOnTop) {
  auto c = LessonCatalog::load(LessonCatalog::assetsDirectory());
  shardlab::Calibration machine;  // a 2-core laptop: 20 GFLOP/s per rank, 20 µs hand-offs, 2 GB/s
  machine.cores = 2;
  machine.gemmFlopsPerSecond = 20e9;
  machine.handoffLatencySeconds = 20e-6;
  machine.collectiveBytesPerSecond = 2e9;
  const Lesson* bubble = c.find(QStringLiteral("pipeline-bubble"));
  EXPECT_EQ(bubble->specs.first().ranks, 4) << "as written until the machine is known";
  EXPECT_TRUE(bubble->sizingMarkdown().isEmpty());
  c.sizeFor(machine);
  ASSERT_TRUE(bubble->size);
  for (const auto& job : bubble->specs) {
    EXPECT_EQ(job.ranks, 2);
    EXPECT_EQ(job.hidden, bubble->size->hidden);
  }
  EXPECT_EQ(bubble->specs.at(1).microbatches, 8) << "the lesson's schedule and micro-batches are its point";
  const QString said = bubble->sizingMarkdown();
  EXPECT_TRUE(said.contains(QStringLiteral("Sized for this machine"))) << said.toStdString();
  EXPECT_TRUE(said.contains(QStringLiteral("Not shown for real here"))) << "4 stages on 2 cores: " << said.toStdString();
  EXPECT_FALSE(said.contains(QStringLiteral("Warning"))) << said.toStdString();
  EXPECT_EQ(bubble->fill(QStringLiteral("{stages|stage|stages}, {microbatches} micro-batches, {cores} cores"),
                         QStringLiteral("en")),
            QStringLiteral("2 stages, 8 micro-batches, 2 cores"));
  EXPECT_EQ(bubble->fill(QStringLiteral("{stages|стадия|стадии|стадий}"), QStringLiteral("ru")), QStringLiteral("2 стадии"));
  EXPECT_TRUE(c.find(QStringLiteral("oom-ddp-vs-fsdp"))->sizingMarkdown().isEmpty()) << "runs as written";

  // A lab's settings apply over the size; its notes are there to show.
  const auto lab = openLab(LessonCatalog::assetsDirectory() + QStringLiteral("/labs/fsdp-intro.json"));
  ASSERT_TRUE(lab.lab) << lab.errors.join(QLatin1Char('\n')).toStdString();
  c.setLab(*lab.lab);
  const Lesson* ddp = c.find(QStringLiteral("ddp-replicas"));
  EXPECT_EQ(ddp->specs.first().ranks, 2);
  EXPECT_FALSE(ddp->labNotesMarkdown(QStringLiteral("en")).isEmpty());
  EXPECT_TRUE(ddp->labNotesMarkdown(QStringLiteral("ru")).contains(QStringLiteral("Перед началом")))
      << "the lab's Russian notes in Russian";
  const Lesson* prefetch = c.find(QStringLiteral("fsdp-prefetch"));
  EXPECT_EQ(prefetch->specs.first().steps, 5) << "the lab's setting";
  EXPECT_EQ(prefetch->specs.first().hidden, prefetch->size->hidden) << "the size for the machine under it";
  EXPECT_TRUE(c.find(QStringLiteral("tensor-parallel"))->labNotesMarkdown(QStringLiteral("en")).isEmpty());
}

TEST(Captions, NarrateRecordedFields) {
  TraceModel m;
  loadSample(m, {4, 1, false});
  const int ag = firstOf(m, st::Record::Collective, st::Kind::AllGather, 2);
  const QString c = Captions::describe(m, ag);
  EXPECT_TRUE(c.startsWith(QStringLiteral("Rank 2 all-gathers embed: 3 shards of 1.0 KiB from ranks 0, 1 and 3"))) << c.toStdString();
  EXPECT_TRUE(c.contains(QStringLiteral("4.0 µs"))) << c.toStdString();
  EXPECT_EQ(Captions::eventAt(m, m.event(ag).t0 + 1) >= 0, true);
}

// Waiting for a collective is exposed communication, not a pipeline bubble.
TEST(Captions, OnlyPipelineWaitsAreCalledABubble) {
  TraceModel m;
  loadSample(m, {4, 1, false});
  const int wait = firstOf(m, st::Record::Idle, st::Kind::WaitCollective, 0);
  ASSERT_GE(wait, 0);
  const QString c = Captions::describe(m, wait);
  EXPECT_TRUE(c.contains(QStringLiteral("exposed communication"))) << c.toStdString();
  EXPECT_FALSE(c.contains(QStringLiteral("bubble"))) << c.toStdString();
}

// Sizes and durations follow the language: a decimal comma in French and Russian.
TEST(Captions, NumbersFollowTheLocale) {
  const QLocale before;
  QLocale::setDefault(QLocale(QStringLiteral("fr")));
  EXPECT_EQ(Format::duration(4000), QStringLiteral("4,0 µs"));
  EXPECT_TRUE(Format::bytes(1536).startsWith(QStringLiteral("1,5 "))) << Format::bytes(1536).toStdString();
  QLocale::setDefault(before);
  EXPECT_EQ(Format::bytes(1536), QStringLiteral("1.5 KiB"));
  EXPECT_EQ(Format::bytes(512), QStringLiteral("512 B"));
}

TEST(Captions, TheLaunchersFailureReasonsAreTranslated) {
  // The launcher (no Qt) words why a rank failed in English; the app says it in its language.
  const QString reasons[] = {QStringLiteral("exited with status 1"), QStringLiteral("killed by signal 9 (Killed)"),
                             QStringLiteral("killed by signal 11"), QStringLiteral("stopped the job (MPI_Abort, error code 3)")};
  for (const auto& r : reasons) EXPECT_EQ(Format::failureReason(r), r) << "English stays as the launcher wrote it";
  EXPECT_EQ(Format::failureReason(QStringLiteral("cudaMalloc failed")), QStringLiteral("cudaMalloc failed"));
  AppSettings::setLanguageOverride(QStringLiteral("fr"));
  ASSERT_TRUE(AppSettings::applyLanguage(*qApp));
  for (const auto& r : reasons) {
    const QString fr = Format::failureReason(r);
    EXPECT_NE(fr, r);
    EXPECT_TRUE(fr.contains(r.contains(QLatin1String("9 (")) ? QStringLiteral("9 (Killed)") : r.section(QLatin1Char(' '), -1).remove(QLatin1Char(')'))))
        << fr.toStdString() << " keeps the number";
  }
  AppSettings::setLanguageOverride(QStringLiteral("en"));
  AppSettings::applyLanguage(*qApp);
}

TEST(Failures, OutOfMemoryIsParsedAndReported) {
  TraceModel m;
  loadSample(m, {2, 1, true});
  ASSERT_EQ(m.failureEvents().size(), 1u);
  const auto& e = m.event(m.failureEvents().front());
  EXPECT_EQ(e.record, st::Record::OutOfMemory);
  EXPECT_EQ(e.rank, 1);
  ASSERT_TRUE(m.summary().outOfMemory.has_value());
  EXPECT_EQ(m.summary().outOfMemory->needed, 2048);
  EXPECT_EQ(m.summary().outOfMemory->budget, 20000);
  const QString c = Captions::describe(m, m.failureEvents().front());
  EXPECT_TRUE(c.contains(QStringLiteral("Rank 1 runs out of memory"))) << c.toStdString();
  EXPECT_TRUE(c.contains(QStringLiteral("budget is 19.5 KiB"))) << c.toStdString();
}
