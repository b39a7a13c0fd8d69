// The pipeline schedules and the stage plan as pure functions, over every valid job
// of a table (p ranks, m micro-batches, V chunks per rank). The integration tests run
// a few of these jobs for real; these check every rank of every job of the table.
#include "strategies/PipelineSchedules.h"
#include "strategies/StagePlan.h"
#include "trace/Summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace shardlab;

namespace {

// Every pipeline job of the table p in {1..4}, m in {1, 2, 4, 8}, V in {2, 3} (V only
// when interleaved) that the job's own rules accept for `schedule`.
std::vector<JobConfig> validJobs(Schedule schedule) {
  std::vector<JobConfig> jobs;
  for (int p : {1, 2, 3, 4})
    for (int m : {1, 2, 4, 8})
      for (int V : {1, 2, 3}) {
        JobConfig job;
        job.strategy = StrategyKind::Pipeline;
        job.schedule = schedule;
        job.ranks = p;
        job.microbatches = m;
        job.virtualStages = V;
        job.layers = 10; // 12 units: enough for 4 ranks x 3 chunks
        job.batch = 48;
        if (job.validate().empty()) jobs.push_back(job);
      }
  return jobs;
}

std::string describe(const JobConfig& job, int rank) {
  return std::string(name(job.schedule)) + " p=" + std::to_string(job.ranks) +
         " m=" + std::to_string(job.microbatches) + " V=" + std::to_string(job.virtualStages) +
         " rank=" + std::to_string(rank);
}

PipeSchedule scheduleOf(const JobConfig& job, int rank) {
  return scheduleFor(job.schedule, job.ranks, rank, job.microbatches, job.virtualStages);
}

// Calls check(job, rank, schedule) for every rank of every valid job of `schedule`,
// and fails when the table has no valid job at all.
void forEveryRank(Schedule schedule, const std::function<void(const JobConfig&, int, const PipeSchedule&)>& check) {
  const auto jobs = validJobs(schedule);
  ASSERT_FALSE(jobs.empty()) << std::string(name(schedule));
  for (const JobConfig& job : jobs)
    for (int rank = 0; rank < job.ranks; ++rank) {
      SCOPED_TRACE(describe(job, rank));
      check(job, rank, scheduleOf(job, rank));
    }
}

const std::vector<Schedule> kSchedules{Schedule::Naive, Schedule::GPipe, Schedule::OneFOneB, Schedule::Interleaved};

const std::vector<Schedule> kZeroBubble{Schedule::ZbH1, Schedule::ZbH2};

// The op that sends the input gradient to the previous stage: the whole backward, or
// the zero-bubble schedules' B.
bool sendsGradient(PipeOp::Kind k) { return k == PipeOp::Backward || k == PipeOp::BackwardInput; }
// The op after which the micro-batch's activations are gone: the whole backward, or W.
bool freesActivations(PipeOp::Kind k) { return k == PipeOp::Backward || k == PipeOp::BackwardWeight; }

int leadingForwards(const PipeSchedule& s) {
  const auto firstBackward =
      std::find_if(s.begin(), s.end(), [](const PipeOp& op) { return sendsGradient(op.kind); });
  return static_cast<int>(firstBackward - s.begin());
}

// The most (chunk, micro-batch) activations the rank holds at once: forwards run whose
// backward (under the zero-bubble schedules, whose W) has not run yet.
int mostInFlight(const PipeSchedule& s) {
  int inFlight = 0, most = 0;
  for (const PipeOp& op : s) {
    if (op.kind == PipeOp::Forward) ++inFlight;
    if (freesActivations(op.kind)) --inFlight;
    most = std::max(most, inFlight);
  }
  return most;
}

std::vector<PipeOp> opsOfKind(const PipeSchedule& s, PipeOp::Kind kind) {
  std::vector<PipeOp> ops;
  std::copy_if(s.begin(), s.end(), std::back_inserter(ops), [&](const PipeOp& op) { return op.kind == kind; });
  return ops;
}

// Megatron-LM's warm-up for interleaved 1F1B (get_forward_backward_func, schedules.py).
int megatronWarmup(int p, int rank, int m, int V) { return std::min((p - rank - 1) * 2 + (V - 1) * p, m * V); }

} // namespace

TEST(PipelineSchedule, EveryForwardHasExactlyOneBackwardAfterItAndEachOpRunsOnce) {
  for (Schedule schedule : kSchedules)
    forEveryRank(schedule, [](const JobConfig& job, int, const PipeSchedule& s) {
      const int V = job.schedule == Schedule::Interleaved ? job.virtualStages : 1;
      const int m = job.microbatches;
      ASSERT_EQ(s.size(), static_cast<std::size_t>(2 * m * V));
      std::map<std::tuple<int, int, int>, int> position; // (kind, chunk, micro) -> index
      for (std::size_t i = 0; i < s.size(); ++i) {
        const PipeOp& op = s[i];
        EXPECT_GE(op.chunk, 0);
        EXPECT_LT(op.chunk, V);
        EXPECT_GE(op.micro, 0);
        EXPECT_LT(op.micro, m);
        EXPECT_TRUE(position.emplace(std::tuple{op.kind, op.chunk, op.micro}, static_cast<int>(i)).second)
            << "op " << i << " runs twice";
      }
      for (int c = 0; c < V; ++c)
        for (int i = 0; i < m; ++i) {
          const auto f = position.find({PipeOp::Forward, c, i}), b = position.find({PipeOp::Backward, c, i});
          ASSERT_NE(f, position.end()) << "no forward of chunk " << c << " micro " << i;
          ASSERT_NE(b, position.end()) << "no backward of chunk " << c << " micro " << i;
          EXPECT_LT(f->second, b->second) << "backward before forward: chunk " << c << " micro " << i;
        }
    });
}

namespace {

// Each micro-batch's F, then its B, then its W, each exactly once, and nothing else.
// Returns what is wrong with `s`, empty when nothing is (the planted-bug test below
// feeds it a broken order).
std::string zeroBubbleOrderProblem(const PipeSchedule& s, int m) {
  if (s.size() != static_cast<std::size_t>(3 * m)) return "has " + std::to_string(s.size()) + " ops, not 3m";
  std::map<std::pair<int, int>, int> position; // (kind, micro) -> index
  for (std::size_t i = 0; i < s.size(); ++i) {
    const PipeOp& op = s[i];
    if (op.kind == PipeOp::Backward) return "op " + std::to_string(i) + " is a whole backward";
    if (op.chunk != 0 || op.micro < 0 || op.micro >= m) return "op " + std::to_string(i) + " is out of range";
    if (!position.emplace(std::pair{static_cast<int>(op.kind), op.micro}, static_cast<int>(i)).second)
      return "op " + std::to_string(i) + " runs twice";
  }
  for (int i = 0; i < m; ++i) {
    const int f = position.at({PipeOp::Forward, i}), b = position.at({PipeOp::BackwardInput, i}),
              w = position.at({PipeOp::BackwardWeight, i});
    if (!(f < b)) return "micro " + std::to_string(i) + ": B before its F";
    if (!(b < w)) return "micro " + std::to_string(i) + ": W before its B";
  }
  return {};
}

} // namespace

TEST(PipelineSchedule, ZeroBubbleRunsEveryForwardThenItsBThenItsWOnce) {
  for (Schedule schedule : kZeroBubble)
    forEveryRank(schedule, [](const JobConfig& job, int, const PipeSchedule& s) {
      EXPECT_EQ(zeroBubbleOrderProblem(s, job.microbatches), "");
    });
}

// The check above fails on a schedule with one W moved before its B.
TEST(PipelineSchedule, PlantedBugAWBeforeItsBFailsTheOrderCheck) {
  PipeSchedule s = zbH1Schedule(4, 1, 8);
  ASSERT_EQ(zeroBubbleOrderProblem(s, 8), "");
  const auto b = std::find_if(s.begin(), s.end(), [](const PipeOp& op) { return op.kind == PipeOp::BackwardInput; });
  const auto w = std::find_if(s.begin(), s.end(), [&](const PipeOp& op) {
    return op.kind == PipeOp::BackwardWeight && op.micro == b->micro;
  });
  std::iter_swap(b, w);
  EXPECT_EQ(zeroBubbleOrderProblem(s, 8), "micro 0: W before its B");
}

// ZB-H1 keeps 1F1B's peak: at most p micro-batches on any rank, p on rank 0 (m >= p);
// ZB-H2 at most 2p - 1.
TEST(PipelineSchedule, ZeroBubbleHoldsAtMostPOrTwoPMinusOneMicroBatches) {
  forEveryRank(Schedule::ZbH1, [](const JobConfig& job, int rank, const PipeSchedule& s) {
    const int p = job.ranks, m = job.microbatches;
    EXPECT_LE(mostInFlight(s), std::min(p, m));
    EXPECT_EQ(leadingForwards(s), std::min(p - rank, m)) << "1F1B's forwards before the first B";
    if (rank == 0) {
      EXPECT_EQ(mostInFlight(s), mostInFlight(oneFOneBSchedule(p, 0, m))) << "1F1B's peak";
    }
  });
  forEveryRank(Schedule::ZbH2, [](const JobConfig& job, int rank, const PipeSchedule& s) {
    const int p = job.ranks, m = job.microbatches;
    EXPECT_LE(mostInFlight(s), std::min(2 * p - 1, m));
    EXPECT_EQ(leadingForwards(s), std::min(2 * (p - rank) - 1, m));
  });
}

// The summary's "held at peak" beside each stage's measured activation peak is the
// schedule's own count, for every schedule it states one of.
TEST(PipelineSchedule, HeldAtPeakIsTheSchedulesOwn) {
  for (Schedule schedule : {Schedule::Naive, Schedule::GPipe, Schedule::OneFOneB, Schedule::ZbH1, Schedule::ZbH2})
    forEveryRank(schedule, [schedule](const JobConfig& job, int rank, const PipeSchedule& s) {
      EXPECT_EQ(trace::heldAtPeak(schedule, job.ranks, rank, job.microbatches), mostInFlight(s));
    });
  EXPECT_EQ(trace::heldAtPeak(Schedule::Interleaved, 2, 0, 4), -1);
}

namespace {

// All ranks' zero-bubble schedules run together with every F, B and W one unit of
// time (as in the paper's figures; messages take no time): each rank's idle time
// between its first op and its last. The pure counterpart of the bubble the summary
// measures.
std::vector<int> idleWithEqualTimes(Schedule schedule, int p, int m) {
  std::vector<PipeSchedule> s;
  for (int r = 0; r < p; ++r) s.push_back(scheduleFor(schedule, p, r, m, 1));
  std::map<std::tuple<int, int, int>, int> end; // (kind, rank, micro) -> end time
  std::vector<std::size_t> next(static_cast<std::size_t>(p), 0);
  std::vector<int> clock(static_cast<std::size_t>(p), 0), first(static_cast<std::size_t>(p), -1);
  for (bool progress = true; progress;) {
    progress = false;
    for (int r = 0; r < p; ++r) {
      auto& i = next[static_cast<std::size_t>(r)];
      auto& now = clock[static_cast<std::size_t>(r)];
      while (i < s[static_cast<std::size_t>(r)].size()) {
        const PipeOp op = s[static_cast<std::size_t>(r)][i];
        int ready = 0;
        if (op.kind == PipeOp::Forward && r > 0) {
          const auto e = end.find({PipeOp::Forward, r - 1, op.micro});
          if (e == end.end()) break;
          ready = e->second;
        }
        if (op.kind == PipeOp::BackwardInput && r < p - 1) {
          const auto e = end.find({PipeOp::BackwardInput, r + 1, op.micro});
          if (e == end.end()) break;
          ready = e->second;
        }
        const int start = std::max(now, ready);
        if (first[static_cast<std::size_t>(r)] < 0) first[static_cast<std::size_t>(r)] = start;
        now = start + 1;
        end[{op.kind, r, op.micro}] = now;
        ++i;
        progress = true;
      }
    }
  }
  std::vector<int> idle;
  for (int r = 0; r < p; ++r) {
    EXPECT_EQ(next[static_cast<std::size_t>(r)], s[static_cast<std::size_t>(r)].size()) << "rank " << r << " stuck";
    idle.push_back(clock[static_cast<std::size_t>(r)] - first[static_cast<std::size_t>(r)] - 3 * m);
  }
  return idle;
}

} // namespace

// The paper's claims with T_F = T_B = T_W = 1: under ZB-H1 every rank ends at
// 3m + p - 1, rank r idle p - 1 - r units in its span (1F1B: 3(p - 1) on rank 0, its
// backward being B + W); under ZB-H2 (m >= 2p - 1) no rank idles in its span.
TEST(PipelineSchedule, ZeroBubbleIdleWithEqualTimesIsThePapers) {
  for (int p : {2, 3, 4, 6})
    for (int m : {8, 16}) {
      SCOPED_TRACE("p=" + std::to_string(p) + " m=" + std::to_string(m));
      const auto h1 = idleWithEqualTimes(Schedule::ZbH1, p, m), h2 = idleWithEqualTimes(Schedule::ZbH2, p, m);
      for (int r = 0; r < p; ++r) {
        EXPECT_EQ(h1[static_cast<std::size_t>(r)], p - 1 - r) << "zb-h1 rank " << r;
        if (m >= 2 * p - 1) {
          EXPECT_EQ(h2[static_cast<std::size_t>(r)], 0) << "zb-h2 rank " << r;
        }
      }
    }
}

// The summary's theory for the zero-bubble schedules is this run with equal times:
// rank 0 idles the most and sets the pace, so over a steady step every rank idles
// rank 0's idle beside its 3m op times of work.
TEST(PipelineSchedule, ZeroBubbleTheoryIsTheEqualTimeRunsIdle) {
  for (Schedule schedule : kZeroBubble)
    for (int p : {2, 3, 4, 6})
      for (int m = 1; m <= 16; ++m) {
        SCOPED_TRACE(std::string(name(schedule)) + " p=" + std::to_string(p) + " m=" + std::to_string(m));
        const auto idle = idleWithEqualTimes(schedule, p, m);
        EXPECT_EQ(*std::max_element(idle.begin(), idle.end()), idle.front());
        EXPECT_DOUBLE_EQ(trace::theoreticalBubble(schedule, p, m, 1),
                         static_cast<double>(idle.front()) / (3.0 * m + idle.front()));
      }
  // About a third of 1F1B's with T_F = T_B = T_W, as the paper says: (p-1)/(3m+p-1).
  EXPECT_DOUBLE_EQ(trace::theoreticalBubble(Schedule::ZbH1, 4, 8, 1), 3.0 / 27.0);
  EXPECT_DOUBLE_EQ(trace::theoreticalBubble(Schedule::OneFOneB, 4, 8, 1), 3.0 / 11.0);
  EXPECT_DOUBLE_EQ(trace::theoreticalBubble(Schedule::ZbH2, 4, 8, 1), 0.0);
}

TEST(PipelineSchedule, NaiveIsOneForwardThenOneBackward) {
  const PipeSchedule s = naiveSchedule();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].kind, PipeOp::Forward);
  EXPECT_EQ(s[1].kind, PipeOp::Backward);
  EXPECT_EQ(s[0].micro, 0);
  EXPECT_EQ(s[1].micro, 0);
}

TEST(PipelineSchedule, GpipeRunsAllForwardsInOrderThenAllBackwardsNewestFirst) {
  forEveryRank(Schedule::GPipe, [](const JobConfig& job, int, const PipeSchedule& s) {
    const int m = job.microbatches;
    ASSERT_EQ(s.size(), static_cast<std::size_t>(2 * m));
    EXPECT_EQ(leadingForwards(s), m);
    EXPECT_EQ(mostInFlight(s), m) << "GPipe holds every micro-batch";
    for (int i = 0; i < m; ++i) {
      EXPECT_EQ(s[static_cast<std::size_t>(i)].micro, i);
      EXPECT_EQ(s[static_cast<std::size_t>(m + i)].kind, PipeOp::Backward);
      EXPECT_EQ(s[static_cast<std::size_t>(m + i)].micro, m - 1 - i);
    }
  });
}

TEST(PipelineSchedule, OneFOneBWarmsUpWithPMinusRMinusOneForwardsAndHoldsAtMostPMinusR) {
  forEveryRank(Schedule::OneFOneB, [](const JobConfig& job, int rank, const PipeSchedule& s) {
    const int p = job.ranks, m = job.microbatches;
    const int warmup = std::min(p - rank - 1, m);
    // The warm-up forwards, then the steady state's first forward before its first backward.
    EXPECT_EQ(leadingForwards(s), std::min(warmup + 1, m));
    EXPECT_EQ(mostInFlight(s), std::min(p - rank, m));
    // Steady state: one forward, one backward, in turn.
    for (int i = 0; i < m - warmup; ++i) {
      EXPECT_EQ(s[static_cast<std::size_t>(warmup + 2 * i)].kind, PipeOp::Forward) << "steady op " << 2 * i;
      EXPECT_EQ(s[static_cast<std::size_t>(warmup + 2 * i + 1)].kind, PipeOp::Backward) << "steady op " << 2 * i + 1;
    }
    // Forwards and backwards both take the micro-batches oldest first.
    const auto forwards = opsOfKind(s, PipeOp::Forward), backwards = opsOfKind(s, PipeOp::Backward);
    for (int i = 0; i < m; ++i) {
      EXPECT_EQ(forwards[static_cast<std::size_t>(i)].micro, i);
      EXPECT_EQ(backwards[static_cast<std::size_t>(i)].micro, i);
    }
  });
}

TEST(PipelineSchedule, InterleavedSwitchesChunkEveryPMicroBatchesInMegatronsOrder) {
  forEveryRank(Schedule::Interleaved, [](const JobConfig& job, int, const PipeSchedule& s) {
    const int p = job.ranks, m = job.microbatches, V = job.virtualStages;
    const auto forwards = opsOfKind(s, PipeOp::Forward), backwards = opsOfKind(s, PipeOp::Backward);
    ASSERT_EQ(forwards.size(), static_cast<std::size_t>(m * V));
    ASSERT_EQ(backwards.size(), static_cast<std::size_t>(m * V));
    // Groups of p micro-batches go through chunks 0, 1, ..., V-1 forwards and
    // V-1, ..., 0 backwards before the next group.
    for (int k = 0; k < m * V; ++k) {
      const int group = k / p;
      const int micro = (k / (p * V)) * p + k % p;
      EXPECT_EQ(forwards[static_cast<std::size_t>(k)].chunk, group % V) << "forward " << k;
      EXPECT_EQ(forwards[static_cast<std::size_t>(k)].micro, micro) << "forward " << k;
      EXPECT_EQ(backwards[static_cast<std::size_t>(k)].chunk, V - 1 - group % V) << "backward " << k;
      EXPECT_EQ(backwards[static_cast<std::size_t>(k)].micro, micro) << "backward " << k;
    }
  });
}

TEST(PipelineSchedule, InterleavedWarmsUpAsMegatronAndHoldsOneMoreThanItsWarmup) {
  forEveryRank(Schedule::Interleaved, [](const JobConfig& job, int rank, const PipeSchedule& s) {
    const int p = job.ranks, m = job.microbatches, V = job.virtualStages;
    const int warmup = megatronWarmup(p, rank, m, V);
    EXPECT_EQ(leadingForwards(s), std::min(warmup + 1, m * V));
    EXPECT_EQ(mostInFlight(s), std::min(warmup + 1, m * V));
    // As in Megatron, rank 0 holds the most: the last rank's warm-up covers only its other chunks.
    if (rank == p - 1 && p > 1) {
      EXPECT_LT(mostInFlight(s), mostInFlight(scheduleOf(job, 0)));
    }
  });
}

// All ranks' schedules run together as Pipeline.cpp runs them: a forward of (model
// chunk g, micro) needs g - 1's forward of that micro-batch, a backward needs g + 1's
// backward and its own forward; sends go through the communication stream and never
// block. Local chunk c of rank r is model chunk c * p + r (StagePlan::modelChunk). A
// schedule whose order needed something not yet sent would stop every rank.
// A zero-bubble B sends the gradient as a whole backward does; its W needs its own B.
TEST(PipelineSchedule, AllRanksTogetherFinishWithoutWaitingForever) {
  std::vector<Schedule> all = kSchedules;
  all.insert(all.end(), kZeroBubble.begin(), kZeroBubble.end());
  for (Schedule schedule : all)
    for (const JobConfig& job : validJobs(schedule)) {
      SCOPED_TRACE(describe(job, -1));
      const StagePlan plan = planStages(job.shape(), job);
      const int p = job.ranks, C = plan.chunkCount();
      std::vector<PipeSchedule> schedules;
      for (int r = 0; r < p; ++r) schedules.push_back(scheduleOf(job, r));
      std::set<std::tuple<int, int, int>> done; // (kind, model chunk, micro)
      auto ready = [&](int rank, const PipeOp& op) {
        const int g = plan.modelChunk(rank, op.chunk);
        if (op.kind == PipeOp::Forward) return g == 0 || done.count({PipeOp::Forward, g - 1, op.micro}) == 1;
        if (op.kind == PipeOp::BackwardWeight) return done.count({PipeOp::Backward, g, op.micro}) == 1;
        return done.count({PipeOp::Forward, g, op.micro}) == 1 &&
               (g == C - 1 || done.count({PipeOp::Backward, g + 1, op.micro}) == 1);
      };
      std::vector<std::size_t> next(static_cast<std::size_t>(p), 0);
      for (bool progress = true; progress;) {
        progress = false;
        for (int r = 0; r < p; ++r) {
          auto& i = next[static_cast<std::size_t>(r)];
          const PipeSchedule& s = schedules[static_cast<std::size_t>(r)];
          while (i < s.size() && ready(r, s[i])) {
            const PipeOp::Kind kind = sendsGradient(s[i].kind) ? PipeOp::Backward : s[i].kind;
            done.insert({kind, plan.modelChunk(r, s[i].chunk), s[i].micro});
            ++i;
            progress = true;
          }
        }
      }
      for (int r = 0; r < p; ++r)
        EXPECT_EQ(next[static_cast<std::size_t>(r)], schedules[static_cast<std::size_t>(r)].size())
            << "rank " << r << " waits forever";
    }
}

TEST(PipelineSchedule, ScheduleForGivesEachSchedulesFunction) {
  auto same = [](const PipeSchedule& a, const PipeSchedule& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const PipeOp& x, const PipeOp& y) {
      return x.kind == y.kind && x.chunk == y.chunk && x.micro == y.micro;
    });
  };
  EXPECT_TRUE(same(scheduleFor(Schedule::Naive, 4, 1, 1, 1), naiveSchedule()));
  EXPECT_TRUE(same(scheduleFor(Schedule::GPipe, 4, 1, 8, 1), gpipeSchedule(8)));
  EXPECT_TRUE(same(scheduleFor(Schedule::OneFOneB, 4, 1, 8, 1), oneFOneBSchedule(4, 1, 8)));
  EXPECT_TRUE(same(scheduleFor(Schedule::Interleaved, 4, 1, 8, 2), interleavedSchedule(4, 1, 8, 2)));
  EXPECT_TRUE(same(scheduleFor(Schedule::ZbH1, 4, 1, 8, 1), zbH1Schedule(4, 1, 8)));
  EXPECT_TRUE(same(scheduleFor(Schedule::ZbH2, 4, 1, 8, 1), zbH2Schedule(4, 1, 8)));
  EXPECT_FALSE(same(zbH1Schedule(4, 1, 8), zbH2Schedule(4, 1, 8)));
  EXPECT_FALSE(same(gpipeSchedule(8), oneFOneBSchedule(4, 1, 8))) << "the comparison tells schedules apart";
}

namespace {

// The smallest possible cost of the heaviest chunk over every way of cutting units
// [from, U) into `chunks` non-empty contiguous chunks: brute force, for small models.
double bestHeaviest(const std::vector<double>& cost, std::size_t from, int chunks) {
  if (chunks == 1) {
    double sum = 0;
    for (std::size_t u = from; u < cost.size(); ++u) sum += cost[u];
    return sum;
  }
  double best = std::numeric_limits<double>::infinity(), first = 0;
  for (std::size_t end = from + 1; end + static_cast<std::size_t>(chunks - 1) <= cost.size(); ++end) {
    first += cost[end - 1];
    best = std::min(best, std::max(first, bestHeaviest(cost, end, chunks - 1)));
  }
  return best;
}

double chunkCost(const ModelShape& shape, const StagePlan& plan, int chunk) {
  double sum = 0;
  for (int u = plan.firstOf(chunk); u <= plan.lastOf(chunk); ++u) sum += unitCost(shape, u);
  return sum;
}

} // namespace

TEST(StagePlan, CoversEveryUnitOnceInOrderWithOneChunkPerStage) {
  for (Schedule schedule : kSchedules)
    for (const JobConfig& job : validJobs(schedule)) {
      SCOPED_TRACE(describe(job, -1));
      const StagePlan plan = planStages(job.shape(), job);
      ASSERT_EQ(plan.chunkCount(), job.pipelineChunks());
      EXPECT_EQ(plan.firstUnit.front(), 0);
      EXPECT_EQ(plan.firstUnit.back(), job.unitCount());
      for (int c = 0; c < plan.chunkCount(); ++c)
        EXPECT_LE(plan.firstOf(c), plan.lastOf(c)) << "chunk " << c << " empty";
      for (int u = 0; u < job.unitCount(); ++u) {
        const int c = plan.chunkOfUnit(u);
        EXPECT_LE(plan.firstOf(c), u);
        EXPECT_GE(plan.lastOf(c), u);
      }
      EXPECT_THROW(plan.chunkOfUnit(job.unitCount()), std::out_of_range);
    }
}

TEST(StagePlan, BalancedChunksMinimiseTheHeaviestChunk) {
  // Small to large vocabularies: from blocks that dominate to an output layer that does.
  for (int vocab : {8, 64, 512})
    for (int chunks : {1, 2, 3, 4, 6}) {
      JobConfig job;
      job.strategy = StrategyKind::Pipeline;
      job.layers = 4;
      job.vocab = vocab;
      job.ranks = chunks;
      SCOPED_TRACE("vocab " + std::to_string(vocab) + ", " + std::to_string(chunks) + " chunks");
      const ModelShape shape = job.shape();
      const StagePlan plan = planStages(shape, job);
      std::vector<double> cost;
      for (int u = 0; u < shape.unitCount(); ++u) cost.push_back(unitCost(shape, u));
      double heaviest = 0;
      for (int c = 0; c < plan.chunkCount(); ++c) heaviest = std::max(heaviest, chunkCost(shape, plan, c));
      EXPECT_DOUBLE_EQ(heaviest, bestHeaviest(cost, 0, chunks));
    }
}

TEST(StagePlan, TheEmbeddingWeighsItsParametersAndTheOtherUnitsTwice) {
  const ModelShape shape{64, 32, 2};
  EXPECT_DOUBLE_EQ(unitCost(shape, 0), static_cast<double>(shape.unitSize(0)));
  EXPECT_DOUBLE_EQ(unitCost(shape, 1), 2.0 * static_cast<double>(shape.unitSize(1)));
  EXPECT_DOUBLE_EQ(unitCost(shape, 3), 2.0 * static_cast<double>(shape.unitSize(3)));
}

TEST(StagePlan, GivenStagesAreTakenAsUnitCounts) {
  JobConfig job;
  job.strategy = StrategyKind::Pipeline;
  job.layers = 4;
  job.ranks = 3;
  job.stages = {1, 4, 1};
  ASSERT_TRUE(job.validate().empty());
  EXPECT_EQ(planStages(job.shape(), job).firstUnit, (std::vector<int>{0, 1, 5, 6}));

  job.schedule = Schedule::Interleaved;
  job.ranks = 2;
  job.virtualStages = 2;
  job.microbatches = 2;
  job.stages = {2, 1, 1, 2};
  ASSERT_TRUE(job.validate().empty());
  EXPECT_EQ(planStages(job.shape(), job).firstUnit, (std::vector<int>{0, 2, 3, 4, 6}));
}

TEST(StagePlan, InterleavedChunkCOfRankRIsModelChunkCTimesPPlusR) {
  for (const JobConfig& job : validJobs(Schedule::Interleaved)) {
    SCOPED_TRACE(describe(job, -1));
    const StagePlan plan = planStages(job.shape(), job);
    const int p = job.ranks, V = job.virtualStages;
    ASSERT_EQ(plan.virtualStages, V);
    std::set<int> seen;
    for (int r = 0; r < p; ++r)
      for (int c = 0; c < V; ++c) {
        const int g = plan.modelChunk(r, c);
        EXPECT_EQ(g, c * p + r);
        EXPECT_EQ(plan.rankOf(g), r);
        seen.insert(g);
        for (int u = plan.firstOf(g); u <= plan.lastOf(g); ++u) EXPECT_EQ(plan.rankOfUnit(u), r) << "unit " << u;
      }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(p * V)) << "every model chunk on exactly one rank";
  }
}

TEST(StagePlan, VirtualStagesCountOnlyWhenInterleaved) {
  JobConfig job;
  job.strategy = StrategyKind::Pipeline;
  job.ranks = 2;
  job.virtualStages = 3; // refused by validate(); the plan ignores it all the same
  job.schedule = Schedule::OneFOneB;
  const StagePlan plan = planStages(job.shape(), job);
  EXPECT_EQ(plan.virtualStages, 1);
  EXPECT_EQ(plan.chunkCount(), 2);
}

TEST(StagePlan, MoreChunksThanUnitsIsRefused) {
  JobConfig job;
  job.strategy = StrategyKind::Pipeline;
  job.layers = 2; // 4 units
  job.ranks = 5;
  EXPECT_THROW(planStages(job.shape(), job), std::invalid_argument);
}
