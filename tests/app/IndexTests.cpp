// The indexes that keep the app fast on large traces give the same answers as the
// plain computations they replace: visible blocks by binary search = a brute-force
// filter of the lane; lanes merged batch by batch = one stable sort of everything;
// memory state at t from checkpoints = a full replay from t = 0. Checked on the
// synthetic sample and on a real trace written by shardlab-run (skipped only when
// the launcher has not been built).
#include "models/JobRunner.h"
#include "models/MemoryStateModel.h"
#include "SampleTrace.h"
#include "models/TraceModel.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace shardlab::app;

namespace st = shardlab::trace;

namespace {
constexpr TraceModel::Lane kLanes[] = {TraceModel::Lane::Compute, TraceModel::Lane::Comm, TraceModel::Lane::Idle};

QList<QByteArray> linesOf(const std::string& text) {
  QList<QByteArray> out;
  for (const auto& l : QByteArray::fromStdString(text).split('\n'))
    if (!l.isEmpty()) out << l;
  return out;
}

bool overlaps(const st::Event& e, qint64 t0, qint64 t1) { return e.t0 <= t1 && e.t1 >= t0; }

// Every lane is the stable sort by start of the rank's records of that lane, and the
// step-to lists are the sorted starts: what the model computed before it indexed incrementally.
void expectLanesLikeOneSort(const TraceModel& m) {
  for (int r = 0; r < m.rankCount(); ++r)
    for (auto lane : kLanes) {
      std::vector<int> expected;
      for (int i = 0; i < m.eventCount(); ++i) {
        const auto& e = m.event(i);
        if (e.rank != r) continue;
        const bool in = (lane == TraceModel::Lane::Compute && e.record == st::Record::Op) ||
                        (lane == TraceModel::Lane::Comm && e.record == st::Record::Collective) ||
                        (lane == TraceModel::Lane::Idle && e.record == st::Record::Idle);
        if (in) expected.push_back(i);
      }
      std::stable_sort(expected.begin(), expected.end(), [&](int a, int b) { return m.event(a).t0 < m.event(b).t0; });
      ASSERT_EQ(m.lane(r, lane), expected) << "rank " << r << " lane " << static_cast<int>(lane);
      const auto& starts = m.laneStarts(r, lane);
      ASSERT_EQ(starts.size(), expected.size());
      for (std::size_t k = 0; k < expected.size(); ++k) ASSERT_EQ(starts[k], m.event(expected[k]).t0);
    }
  std::vector<qint64> starts, colls;
  for (int i = 0; i < m.eventCount(); ++i) {
    const auto& e = m.event(i);
    if (e.record == st::Record::Op || e.record == st::Record::Collective || e.record == st::Record::Idle ||
        e.record == st::Record::OutOfMemory || e.record == st::Record::Failure)
      starts.push_back(e.t0);
    if (e.record == st::Record::Collective) colls.push_back(e.t0);
  }
  std::sort(starts.begin(), starts.end());
  std::sort(colls.begin(), colls.end());
  EXPECT_EQ(m.eventStarts(), starts);
  EXPECT_EQ(m.collectiveStarts(), colls);
  EXPECT_TRUE(std::is_sorted(m.phaseStarts().begin(), m.phaseStarts().end()));
}

// laneRange's candidates, filtered, are exactly the lane's blocks overlapping [t0, t1].
void expectVisibleRangeLikeBruteForce(const TraceModel& m, unsigned seed) {
  std::mt19937_64 rng(seed);
  const qint64 a = m.startTime() - 1000, b = m.endTime() + 1000;
  std::uniform_int_distribution<qint64> at(a, b);
  int nonEmpty = 0;
  for (int q = 0; q < 300; ++q) {
    qint64 t0 = at(rng), t1 = at(rng);
    if (q % 3 == 0) t1 = t0 + (b - a) / 200; // narrow windows, as when zoomed in
    if (t1 < t0) std::swap(t0, t1);
    for (int r = 0; r < m.rankCount(); ++r)
      for (auto lane : kLanes) {
        const auto& v = m.lane(r, lane);
        std::vector<int> brute, indexed;
        for (int i : v)
          if (overlaps(m.event(i), t0, t1)) brute.push_back(i);
        const auto [first, last] = m.laneRange(r, lane, t0, t1);
        ASSERT_LE(first, last);
        ASSERT_LE(last, v.size());
        for (std::size_t k = first; k < last; ++k)
          if (overlaps(m.event(v[k]), t0, t1)) indexed.push_back(v[k]);
        ASSERT_EQ(indexed, brute) << "rank " << r << " lane " << static_cast<int>(lane) << " [" << t0 << ", " << t1 << "]";
        nonEmpty += brute.empty() ? 0 : 1;
      }
  }
  EXPECT_GT(nonEmpty, 0);
  // The whole run: everything.
  for (int r = 0; r < m.rankCount(); ++r)
    for (auto lane : kLanes) {
      const auto [first, last] = m.laneRange(r, lane, m.startTime(), m.endTime());
      EXPECT_EQ(first, 0u);
      EXPECT_EQ(last, m.lane(r, lane).size());
    }
}

void expectSameState(const RankState& got, const RankState& want, qint64 t) {
  ASSERT_EQ(got.byCategory, want.byCategory) << "t=" << t;
  ASSERT_EQ(got.total, want.total) << "t=" << t;
  ASSERT_EQ(got.byUnit, want.byUnit) << "t=" << t;
  ASSERT_EQ(got.lastMemory, want.lastMemory) << "t=" << t;
  ASSERT_EQ(got.running, want.running) << "t=" << t;
}

// Queries jumping back and forth through checkpoints equal a fresh full replay.
void expectCheckpointsLikeFullReplay(const TraceModel& m, std::size_t every, unsigned seed) {
  MemoryStateModel scrubbed(m, every);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<qint64> at(m.startTime() - 10, m.endTime() + 10);
  std::vector<qint64> times;
  for (int q = 0; q < 60; ++q) times.push_back(at(rng));
  // Exactly at record times too, where "at or before t" matters.
  for (int r = 0; r < m.rankCount(); ++r) {
    const auto& recs = m.memoryRecords(r);
    for (std::size_t k = 0; k < recs.size(); k += std::max<std::size_t>(1, recs.size() / 17)) times.push_back(m.event(recs[k]).t0);
  }
  std::shuffle(times.begin(), times.end(), rng);
  times.insert(times.begin(), m.endTime()); // first a pass to the end: every checkpoint taken
  for (qint64 t : times)
    for (int r = 0; r < m.rankCount(); ++r) {
      MemoryStateModel fresh(m, 1u << 30); // no checkpoints: replays from the first record
      expectSameState(scrubbed.stateAt(r, t), fresh.stateAt(r, t), t);
      for (int u = -1; u < m.unitCount(); ++u) {
        const auto s = fresh.stateAt(r, t);
        const auto it = s.byUnit.find(u);
        ASSERT_EQ(scrubbed.unitBytesAt(r, u, t), it == s.byUnit.end() ? CategoryBytes{} : it->second);
      }
    }
  for (int r = 0; r < m.rankCount(); ++r)
    EXPECT_EQ(scrubbed.checkpointCount(r), m.memoryRecords(r).size() / every) << "rank " << r;
}

// The sample's lines with the event lines shuffled inside windows, as ranks interleave
// when the launcher merges their files (header, job and rank records stay first).
QList<QByteArray> interleaved(const QList<QByteArray>& lines, unsigned seed) {
  QList<QByteArray> head, body;
  for (const auto& l : lines)
    (l.startsWith("shardlab-trace") || l.startsWith("job ") || l.startsWith("rank ") ? head : body) << l;
  std::mt19937 rng(seed);
  for (qsizetype i = 0; i < body.size(); i += 50) std::shuffle(body.begin() + i, body.begin() + std::min(i + 50, body.size()), rng);
  return head + body;
}
} // namespace

TEST(TraceIndexes, SampleLanesVisibleRangesAndCheckpoints) {
  const auto text = sample::fsdpText({4, 12, false});
  TraceModel whole;
  auto parsed = st::readTrace(text);
  ASSERT_TRUE(parsed.ok());
  whole.setTrace(std::move(parsed.trace));
  expectLanesLikeOneSort(whole);
  expectVisibleRangeLikeBruteForce(whole, 1);
  ASSERT_GT(whole.memoryRecords(0).size(), 64u);
  expectCheckpointsLikeFullReplay(whole, 16, 2);

  // Fed in batches with ranks interleaved out of time order: the same indexes.
  TraceModel live;
  const auto lines = interleaved(linesOf(text), 3);
  for (qsizetype i = 0; i < lines.size(); i += 97) EXPECT_EQ(live.appendLines(lines.mid(i, 97)), 0);
  ASSERT_EQ(live.eventCount(), whole.eventCount());
  expectLanesLikeOneSort(live);
  expectVisibleRangeLikeBruteForce(live, 4);
}

TEST(TraceIndexes, CheckpointsFollowALiveRun) {
  // Checkpoints taken while events stream in stay valid as more arrive.
  const auto lines = linesOf(sample::fsdpText({2, 10, false}));
  TraceModel live;
  MemoryStateModel state(live, 8);
  for (qsizetype i = 0; i < lines.size(); i += 41) {
    live.appendLines(lines.mid(i, 41));
    for (int r = 0; r < live.rankCount(); ++r) {
      MemoryStateModel fresh(live, 1u << 30);
      for (qint64 t : {live.endTime(), live.startTime() + (live.endTime() - live.startTime()) / 3})
        expectSameState(state.stateAt(r, t), fresh.stateAt(r, t), t);
    }
  }
  EXPECT_GT(state.checkpointCount(0), 0u);
}

TEST(TraceIndexes, RealTraceFromTheLauncher) {
  const QString launcher = JobRunner::findLauncher();
  if (!QFileInfo(launcher).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first (" << launcher.toStdString() << ")";
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("real.trace"));
  QProcess run;
  run.setProcessChannelMode(QProcess::MergedChannels);
  run.start(launcher, {QStringLiteral("--strategy"), QStringLiteral("fsdp"), QStringLiteral("--ranks"), QStringLiteral("2"),
                       QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--trace"), path, QStringLiteral("-q")});
  ASSERT_TRUE(run.waitForFinished(240000));
  ASSERT_EQ(run.exitCode(), 0) << run.readAll().toStdString();
  TraceModel m;
  ASSERT_TRUE(m.loadFile(path).isEmpty());
  ASSERT_GT(m.eventCount(), 100);
  expectLanesLikeOneSort(m);
  expectVisibleRangeLikeBruteForce(m, 5);
  expectCheckpointsLikeFullReplay(m, 32, 6);

  // The same lines streamed in batches, as from `shardlab-run --events -`.
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  QList<QByteArray> lines;
  for (const auto& l : f.readAll().split('\n'))
    if (!l.isEmpty()) lines << l;
  TraceModel live;
  for (qsizetype i = 0; i < lines.size(); i += 1500) EXPECT_EQ(live.appendLines(lines.mid(i, 1500)), 0);
  ASSERT_EQ(live.eventCount(), m.eventCount());
  for (int r = 0; r < m.rankCount(); ++r)
    for (auto lane : kLanes) EXPECT_EQ(live.lane(r, lane), m.lane(r, lane));
  EXPECT_EQ(live.eventStarts(), m.eventStarts());
  EXPECT_EQ(live.phaseStarts(), m.phaseStarts());
}
