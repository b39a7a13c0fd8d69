// The replay on hand-built traces whose answer is known by construction.
#include "trace/Replay.h"
#include "trace/Summary.h"

#include <gtest/gtest.h>

#include <functional>

using namespace shardlab::trace;

namespace {

Event op(int rank, Kind kind, int unit, int step, int micro, std::int64_t t0, std::int64_t t1) {
  Event e;
  e.record = Record::Op;
  e.kind = kind;
  e.rank = rank;
  e.unit = unit;
  e.step = step;
  e.micro = micro;
  e.t0 = t0;
  e.t1 = t1;
  return e;
}

Event message(int rank, Kind kind, int peer, int unit, int step, int micro, std::int64_t t0, std::int64_t t1) {
  Event e = op(rank, kind, unit, step, micro, t0, t1);
  e.record = Record::Collective;
  e.peer = peer;
  e.participants = (RankMask{1} << rank) | (RankMask{1} << peer);
  e.bytes = 4096;
  e.rows = 32;
  e.cols = 32;
  return e;
}

Event collective(int rank, Kind kind, int unit, int step, std::int64_t t0, std::int64_t t1) {
  Event e = op(rank, kind, unit, step, -1, t0, t1);
  e.record = Record::Collective;
  e.participants = 0x3;
  e.bytes = 1 << 20;
  return e;
}

Event mark(Record record, int rank, int step, std::int64_t t, std::int64_t tokens) {
  Event e;
  e.record = record;
  e.rank = rank;
  e.step = step;
  e.t0 = e.t1 = t;
  e.loss = 1.0;
  e.value = tokens;
  return e;
}

Event idle(int rank, Kind kind, int step, std::int64_t t0, std::int64_t t1) {
  Event e = op(rank, kind, -1, step, -1, t0, t1);
  e.record = Record::Idle;
  return e;
}

// A GPipe run of p one-unit stages and m micro-batches, forward f and backward b ns
// per micro-batch on every stage, each message taking d ns (the measured run was
// slowed by its messages; the replay must see through that). `keep` drops events.
Trace gpipe(int p, int m, std::int64_t f, std::int64_t b, std::int64_t d, int steps,
            const std::function<bool(const Event&)>& keep = [](const Event&) { return true; }) {
  Trace t;
  t.version = 1;
  EXPECT_FALSE(t.setJob({{"strategy", "pipeline"}, {"ranks", p}, {"microbatches", m}, {"schedule", "gpipe"}, {"steps", steps}}));
  for (int k = 0; k < p; ++k) t.units.push_back("unit" + std::to_string(k));
  t.ranks.resize(static_cast<std::size_t>(p));
  const std::int64_t tB = m * f + (p - 1) * (f + d); // the last stage's first backward
  const std::int64_t period = tB + (m - 1) * b + (p - 1) * (b + d) + b;
  for (int s = 0; s < steps; ++s) {
    const std::int64_t o = s * period;
    for (int k = 0; k < p; ++k) {
      for (int i = 0; i < m; ++i) {
        const std::int64_t start = o + i * f + k * (f + d);
        if (k > 0) t.events.push_back(message(k, Kind::Recv, k - 1, k, s, i, start - 1, start));
        t.events.push_back(op(k, Kind::Forward, k, s, i, start, start + f));
        if (k + 1 < p) t.events.push_back(message(k, Kind::Send, k + 1, k, s, i, start + f, start + f + 1));
      }
      for (int q = 0; q < m; ++q) {
        const int j = m - 1 - q;
        const std::int64_t start = o + tB + q * b + (p - 1 - k) * (b + d);
        if (k + 1 < p) t.events.push_back(message(k, Kind::Recv, k + 1, k, s, j, start - 1, start));
        t.events.push_back(op(k, Kind::Backward, k, s, j, start, start + b));
        if (k > 0) t.events.push_back(message(k, Kind::Send, k - 1, k, s, j, start + b, start + b + 1));
      }
      const std::int64_t end = o + tB + (m - 1) * b + (p - 1 - k) * (b + d) + b;
      t.events.push_back(mark(Record::Step, k, s, end, k == p - 1 ? m : 0));
    }
  }
  for (int k = 0; k < p; ++k) t.events.push_back(mark(Record::End, k, -1, steps * period, 0));
  std::erase_if(t.events, [&](const Event& e) { return !keep(e); });
  std::stable_sort(t.events.begin(), t.events.end(), [](const Event& a, const Event& c) { return a.t1 < c.t1; });
  return t;
}

const ReplayResult& resultFor(const ReplayReport& report, ReplayMode mode) {
  for (const auto& r : report.results)
    if (r.mode == mode) return r;
  throw std::logic_error("mode missing");
}

} // namespace

TEST(Replay, EqualGpipeStagesGiveTheTheoreticalBubbleExactly) {
  for (int p : {2, 3, 4})
    for (int m : {1, 2, 4, 8}) {
      const auto report = replayReport(gpipe(p, m, 300, 600, 5000, 3));
      ASSERT_TRUE(report.present);
      EXPECT_FALSE(report.stoppedAt) << *report.stoppedAt;
      const auto& alone = resultFor(report, ReplayMode::ScheduleAlone);
      ASSERT_TRUE(alone.bubble);
      EXPECT_NEAR(*alone.bubble, static_cast<double>(p - 1) / (m + p - 1), 1e-12) << "p=" << p << " m=" << m;
      EXPECT_NEAR(alone.stepS, (m + p - 1) * 900e-9, 1e-15);
      EXPECT_EQ(alone.exposedCommS, 0.0);
      // The measured run waited 5 µs per message; the fitted replay pays its sends'
      // own measured cost (1 ns each), so it is no slower than the schedule.
      EXPECT_NEAR(resultFor(report, ReplayMode::Fitted).stepS, alone.stepS, 1e-7);
    }
}

TEST(Replay, FsdpWithFreeCommunicationExposesNone) {
  Trace t;
  t.version = 1;
  ASSERT_FALSE(t.setJob({{"strategy", "fsdp"}, {"ranks", 2}, {"steps", 1}}));
  t.units = {"a", "b"};
  t.ranks.resize(2);
  for (int r = 0; r < 2; ++r) {
    t.events.push_back(collective(r, Kind::AllGather, 0, 0, 0, 100));
    t.events.push_back(idle(r, Kind::WaitCollective, 0, 0, 100));
    t.events.push_back(collective(r, Kind::AllGather, 1, 0, 100, 300)); // prefetched
    t.events.push_back(op(r, Kind::Forward, 0, 0, -1, 100, 150));
    t.events.push_back(idle(r, Kind::WaitCollective, 0, 150, 300));
    t.events.push_back(op(r, Kind::Forward, 1, 0, -1, 300, 350));
    t.events.push_back(op(r, Kind::Backward, 1, 0, -1, 350, 400));
    t.events.push_back(collective(r, Kind::ReduceScatter, 1, 0, 400, 600));
    t.events.push_back(op(r, Kind::Backward, 0, 0, -1, 400, 450));
    t.events.push_back(collective(r, Kind::ReduceScatter, 0, 0, 600, 700));
    t.events.push_back(idle(r, Kind::WaitCollective, 0, 450, 700));
    t.events.push_back(op(r, Kind::Optimizer, 0, 0, -1, 700, 720));
    t.events.push_back(mark(Record::Step, r, 0, 720, 4));
  }
  ASSERT_GT(summarizeMeasured(t).ranksDetail[0].exposedCommS, 0.0);
  const auto report = replayReport(t);
  const auto& alone = resultFor(report, ReplayMode::ScheduleAlone);
  EXPECT_EQ(alone.exposedCommS, 0.0);
  EXPECT_NEAR(alone.stepS, 220e-9, 1e-15); // the ops alone: 50 + 50 + 50 + 50 + 20 ns
  EXPECT_FALSE(alone.bubble);
  // Fitted: every all-gather took 100 or 200 ns for the same bytes: their mean, 150 ns.
  ASSERT_TRUE(report.fitted.count("all_gather"));
  EXPECT_NEAR(report.fitted.at("all_gather").alphaS, 150e-9, 1e-15);
  EXPECT_EQ(report.fitted.at("all_gather").betaSPerByte, 0.0);
  EXPECT_GT(resultFor(report, ReplayMode::Fitted).exposedCommS, 0.0);
  EXPECT_EQ(report.timesNote, "no CPU times recorded; using wall times");
}

TEST(Replay, ACutShortTraceReplaysUpToTheCutAndSaysWhere) {
  // Rank 0 failed after step 0: rank 1's first receive of step 1 has no send.
  const auto cut = gpipe(2, 2, 300, 600, 100, 3, [](const Event& e) { return !(e.rank == 0 && e.step >= 1); });
  const auto report = replayReport(cut);
  ASSERT_TRUE(report.stoppedAt);
  EXPECT_EQ(*report.stoppedAt,
            "replayed up to rank 1, step 1: recv from rank 0 (step 1, micro-batch 0) has no matching send");
  const Trace replayed = replayedTrace(cut, ReplayMode::ScheduleAlone);
  int steps = 0, rank1Ops = 0;
  for (const auto& e : replayed.events) {
    if (e.record == Record::Step) ++steps;
    if (e.record == Record::Op && e.rank == 1) {
      ++rank1Ops;
      EXPECT_EQ(e.step, 0);
    }
  }
  EXPECT_EQ(steps, 2);     // step 0 on both ranks, nothing after the cut
  EXPECT_EQ(rank1Ops, 4);  // F0 F1 B1 B0 of step 0
}

// A split backward (ZB-H1): stage 1's gradient for stage 0 left late, its send starting
// after that micro-batch's W had ended too (the communication thread was still busy).
// The message is the B's input gradient all the same: it is matched to stage 0's
// receive, and it waits for the B, not for the W.
TEST(Replay, ASplitBackwardsGradientIsSentFromItsBNotItsW) {
  Trace t;
  t.version = 1;
  ASSERT_FALSE(t.setJob({{"strategy", "pipeline"}, {"ranks", 2}, {"microbatches", 1}, {"schedule", "zb-h1"}, {"steps", 1}}));
  t.units = {"unit0", "unit1"};
  t.ranks.resize(2);
  t.events = {op(0, Kind::Forward, 0, 0, 0, 0, 100),
              message(0, Kind::Send, 1, 0, 0, 0, 100, 110),
              message(1, Kind::Recv, 0, 1, 0, 0, 100, 110),
              op(1, Kind::Forward, 1, 0, 0, 110, 210),
              op(1, Kind::BackwardInput, 1, 0, 0, 210, 310),
              op(1, Kind::BackwardWeight, 1, 0, 0, 310, 400),
              message(1, Kind::Send, 0, 1, 0, 0, 400, 410),
              mark(Record::Step, 1, 0, 410, 1),
              idle(0, Kind::WaitGradient, 0, 110, 405),
              message(0, Kind::Recv, 1, 0, 0, 0, 405, 410),
              op(0, Kind::BackwardInput, 0, 0, 0, 410, 510),
              op(0, Kind::BackwardWeight, 0, 0, 0, 510, 600),
              mark(Record::Step, 0, 0, 600, 0),
              mark(Record::End, 0, -1, 600, 0),
              mark(Record::End, 1, -1, 600, 0)};
  std::stable_sort(t.events.begin(), t.events.end(), [](const Event& a, const Event& c) { return a.t1 < c.t1; });
  const auto report = replayReport(t);
  ASSERT_TRUE(report.present);
  EXPECT_FALSE(report.stoppedAt) << *report.stoppedAt;
  // Free messages: stage 1's F starts at 100 and its B ends at 300, when stage 0's B
  // starts; stage 0's B and W end at 490 (at 580 if the gradient waited for the W).
  EXPECT_NEAR(resultFor(report, ReplayMode::ScheduleAlone).stepS, 490e-9, 1e-15);
}

TEST(Replay, TheReplayedTraceSaysItIsAReplay) {
  const Trace replayed = replayedTrace(gpipe(2, 2, 300, 600, 100, 2), ReplayMode::Reference);
  ASSERT_TRUE(replayed.job);
  EXPECT_EQ(replayed.job->written["replay"]["mode"], "reference");
  EXPECT_EQ(replayed.job->written["replay"]["compute"], "no CPU times recorded; using wall times");
  EXPECT_EQ(replayed.job->config.strategy, shardlab::StrategyKind::Pipeline);
  ASSERT_FALSE(replayed.events.empty());
  for (std::size_t i = 1; i < replayed.events.size(); ++i)
    EXPECT_LE(replayed.events[i - 1].t0, replayed.events[i].t0);
}

TEST(Replay, ModesByName) {
  for (auto mode : kReplayModes) EXPECT_EQ(replayModeFromString(toString(mode)), mode);
  EXPECT_FALSE(replayModeFromString("projected"));
}

// The bubble taken apart: each part is one replay apart from the next, so theory plus
// the parts is the measured bubble exactly; `unexplained` is what no replay saw.
namespace {
double partsSum(const BubbleBreakdown& b) {
  return b.theory + b.scheduleAsRun + b.handoffs + b.slowerOps + b.coreWaits + b.unexplained;
}
Trace withCpuTimes(Trace t, double cpuShare) {
  for (auto& e : t.events)
    if (e.record == Record::Op) e.cpuNs = static_cast<std::int64_t>(static_cast<double>(e.t1 - e.t0) * cpuShare);
  return t;
}
// The pipeline waits as the engine records them: every gap on a rank's compute stream
// before an op is an idle record, wait_activation before a forward, wait_gradient
// before a backward (the measured bubble counts these records).
Trace withWaits(Trace t) {
  std::vector<Event> waits;
  for (int r = 0; r < static_cast<int>(t.ranks.size()); ++r) {
    std::int64_t free = 0;
    for (const auto& e : t.events) {
      if (e.rank != r || e.record != Record::Op) continue;
      if (e.t0 > free) {
        Event w = idle(r, e.kind == Kind::Forward ? Kind::WaitActivation : Kind::WaitGradient, e.step, free, e.t0);
        w.micro = e.micro;
        waits.push_back(w);
      }
      free = e.t1;
    }
  }
  t.events.insert(t.events.end(), waits.begin(), waits.end());
  std::stable_sort(t.events.begin(), t.events.end(), [](const Event& a, const Event& c) { return a.t1 < c.t1; });
  return t;
}
} // namespace

TEST(BubbleBreakdown, EqualStagesWithACoreEachLoseOnlyTheSchedule) {
  for (int p : {2, 4})
    for (int m : {1, 4, 8}) {
      const Trace t = withWaits(withCpuTimes(gpipe(p, m, 300, 600, 0, 3), 1.0));
      const auto b = bubbleBreakdown(t);
      ASSERT_TRUE(b) << "p=" << p << " m=" << m;
      EXPECT_TRUE(b->cpuTimes);
      const double theory = static_cast<double>(p - 1) / (m + p - 1);
      EXPECT_NEAR(b->theory, theory, 1e-12);
      // The hand-built trace has no optimizer op and equal stages: the schedule-alone
      // replay is the formula.
      EXPECT_NEAR(b->scheduleAlone, theory, 1e-9);
      EXPECT_NEAR(b->scheduleAsRun, 0.0, 1e-9);
      EXPECT_NEAR(b->coreWaits, 0.0, 1e-9);
      EXPECT_NEAR(b->slowerOps, 0.0, 1e-9);
      // The hand-built messages take 1 ns to copy: next to nothing, not nothing.
      EXPECT_GE(b->handoffs, 0.0);
      EXPECT_LT(b->handoffs, 0.01);
      EXPECT_NEAR(b->unexplained, 0.0, 0.01);
      // One figure: the breakdown's measured bubble is the summary's.
      EXPECT_DOUBLE_EQ(b->measured, summarizeMeasured(t).bubble.measured);
      EXPECT_NEAR(partsSum(*b), b->measured, 1e-12);
      // Beside it, not computing = bubble + ops past their fastest + untracked.
      EXPECT_NEAR(b->notComputing, b->measured + b->opsAboveFastest + b->untracked, 1e-12);
      EXPECT_NEAR(b->opsAboveFastest, 0.0, 1e-9);
    }
}

TEST(BubbleBreakdown, OpsAllSlowerByOneFactorLeaveTheBubbleAndCountAsNotComputing) {
  // Every op ran 300/600 ns of CPU in 450/900 ns of wall time: a third of it waiting
  // for a core. The stages keep their proportions, so the bubble is the formula's; the
  // time the ops lost shows only in "not computing", as op time past the fastest.
  const int p = 2, m = 4;
  const auto b = bubbleBreakdown(withWaits(withCpuTimes(gpipe(p, m, 450, 900, 0, 3), 2.0 / 3.0)));
  ASSERT_TRUE(b);
  const double theory = static_cast<double>(p - 1) / (m + p - 1);
  EXPECT_NEAR(b->measured, theory, 0.01);
  EXPECT_NEAR(b->scheduleAsRun, 0.0, 1e-6);
  EXPECT_NEAR(b->coreWaits, 0.0, 0.01);
  EXPECT_NEAR(b->unexplained, 0.0, 0.01);
  EXPECT_NEAR(partsSum(*b), b->measured, 1e-12);
  // Not computing at the fastest pace: the op time is 3/2 of U, so 1 - U/S gains a third
  // of the compute share, all of it ops past their fastest.
  EXPECT_NEAR(b->notComputing, theory + (1.0 - theory) / 3.0, 0.01);
  EXPECT_NEAR(b->opsAboveFastest, (1.0 - theory) / 3.0, 0.01);
  EXPECT_NEAR(b->untracked, 0.0, 0.01);
}

TEST(BubbleBreakdown, WhatTheTraceDoesNotRecordIsUnexplainedNotHidden) {
  // Each message was 5 µs late, but no record says so (no wait, a 1 ns copy): the
  // stages' time grows under no record, the measured bubble (recorded idle) is 0 and
  // the replays, which do see the schedule's waits, leave it all unexplained.
  const int p = 2, m = 4;
  const auto b = bubbleBreakdown(withCpuTimes(gpipe(p, m, 300, 600, 5000, 3), 1.0));
  ASSERT_TRUE(b);
  EXPECT_GT(std::abs(b->unexplained), 0.05);
  EXPECT_NEAR(b->measured - b->theory - b->scheduleAsRun - b->handoffs, b->unexplained, 1e-9);
  EXPECT_GT(b->untracked, 0.3);
}

TEST(BubbleBreakdown, WithoutCpuTimesTheCoreWaitsAreNotSplitOut) {
  const auto b = bubbleBreakdown(withWaits(gpipe(2, 4, 300, 600, 0, 3)));
  ASSERT_TRUE(b);
  EXPECT_FALSE(b->cpuTimes);
  EXPECT_EQ(b->coreWaits, 0.0);
  EXPECT_NEAR(partsSum(*b), b->measured, 1e-12);
}

TEST(BubbleBreakdown, OnlyPipelineRunsHaveOne) {
  Trace t = gpipe(2, 4, 300, 600, 0, 3);
  t.job->config.strategy = shardlab::StrategyKind::Ddp;
  EXPECT_FALSE(bubbleBreakdown(t));
}
