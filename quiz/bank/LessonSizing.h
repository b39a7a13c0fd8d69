// Lessons sized for the machine they run on. A lesson declares what it must make
// visible as conditions on ratios its job can be estimated to have (compute per
// micro-batch per stage against the hand-off latency, per-unit compute against the
// per-unit all-gather, cores per rank, ...) and a time budget; sizeLesson() picks
// ranks, hidden size and batch from a calibration (job/Calibration.h) so that the
// conditions hold and the run fits the budget. A pure function: the unit tests hand it
// fake calibrations. The estimates are the ring model on the calibration's measured
// rates; what the run really shows is measured from its trace (scripts/check-lessons).
#pragma once

#include "quiz/bank/JobSpec.h"

#include "job/Calibration.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab::quiz {

// A ratio a lesson can ask for, each estimated per run:
//   stage_compute_per_handoff    forward compute of one micro-batch on one stage ÷ hand-off latency (pipeline)
//   unit_compute_per_all_gather  forward compute of one block ÷ that block's all-gather (fsdp)
//   unit_compute_per_all_reduce  backward compute of one block ÷ that block's gradient all-reduce (ddp)
//   cores_per_rank               free cores (GPUs on a GPU machine) ÷ ranks: ranks never wait for a core
const std::vector<std::string>& knownSizingRatios();

struct SizingCondition {
  std::string ratio;    // one of knownSizingRatios()
  double atLeast = 1;
};

struct LessonSizingRule {
  std::vector<SizingCondition> conditions;
  double budgetSeconds = 5;  // each run of the lesson, start to end
};

struct ConditionEstimate {
  SizingCondition condition;
  double estimated = 0;  // the lowest over the lesson's runs the ratio applies to
  bool met() const { return estimated >= condition.atLeast; }
};

struct LessonSize {
  std::vector<JobSpec> runs;     // the lesson's runs with the chosen ranks, hidden and batch
  int ranks = 0, hidden = 0, batch = 0;
  int lessonRanks = 0;           // what the lesson's own spec asks for
  std::vector<ConditionEstimate> conditions;
  double estimatedSeconds = 0;   // the slowest run
  double budgetSeconds = 0;
  bool withinBudget() const { return estimatedSeconds <= budgetSeconds; }
  // The conditions that could not be met within the budget (empty: the lesson shows its point).
  std::vector<ConditionEstimate> failed() const;
  // Fewer ranks than the lesson asks for: its point at full size cannot be shown for real here.
  bool reducedRanks() const { return ranks < lessonRanks; }
};

// Every candidate size (ranks from the lesson's down to 2, hidden 64..1024, batch from
// the lesson's up to 32×) is estimated; the chosen one meets every condition within the
// budget with the most ranks and, among those, is the largest estimated within 30% of the
// budget (else the fastest): enough compute that run-to-run jitter does not hide the effect.
// When none does, the closest is returned: within the budget if any is, the highest
// lowest estimated/needed ratio; failed() then names the conditions it misses.
LessonSize sizeLesson(const std::vector<JobSpec>& runs, const LessonSizingRule& rule, const Calibration& machine);

// The estimates for one job (tests, and check-lessons' "expected" column).
double estimateRatio(std::string_view ratio, const JobConfig& job, const Calibration& machine);
double estimateSeconds(const JobConfig& job, const Calibration& machine);

} // namespace shardlab::quiz
