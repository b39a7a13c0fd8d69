// What each lesson must show, checked on the learner's own runs: one function per
// lesson that has a point to show (the GPipe bubble near (p−1)/(m+p−1), prefetch
// hiding communication, the ZeRO-1/ZeRO-3 ratio ...), the same for `scripts/check-lessons`
// (through `shardlab-quiz check-lesson`) and for the app after a lesson's runs. Where the
// point did not show, the check says why from what the runs measured (the bubble's
// replayed parts, the ranks' waits for a core, the machine's unmet sizing conditions),
// and whether a replay of the same trace shows it. Plain C++: no Qt.
#pragma once

#include "quiz/bank/LocalizedText.h"

#include "trace/Summary.h"
#include "trace/Trace.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab::quiz {

// One run of a lesson: its trace and summarize()'s summary of it (with the replay
// section: the bubble's breakdown and the reference replay come from there).
struct CheckedRun {
  const trace::Trace* trace = nullptr;
  const trace::Summary* summary = nullptr;
  std::string label; // the lesson's label for the run ("GPipe, 8 micro-batches")
};

enum class ReplayToShow { None, ScheduleAlone, Reference };

struct LessonCheck {
  std::string figure;   // "GPipe bubble", "exposed comm, prefetch on / off"
  std::string expected; // "0.111 ± 0.05"
  std::string measured; // "0.134", with the breakdown where there is one
  bool passed = false;
  // A sentence for the learner, in each language: what was checked and what was
  // measured, and, where the point did not show, the measured cause.
  LocalizedText verdict;
  // A replay of the same trace in which the point shows (offered where it did not).
  ReplayToShow replay = ReplayToShow::None;
};

// The lessons that have a check of their own; the others check that their runs ended
// as the lesson expects (finished, or out of memory where that is the point).
const std::vector<std::string>& checkedLessons();

// The check of `lesson` on its runs, in the lesson's order. `unmetConditions` are the
// sizing ratios this machine could not meet (LessonSize::failed(); e.g.
// "cores_per_rank"). nullopt when the runs are not the lesson's (too few, a failed
// run where the lesson expects none): the caller says the check could not be made.
std::optional<LessonCheck> checkLesson(const std::string& lesson, const std::vector<CheckedRun>& runs,
                                       const std::vector<std::string>& unmetConditions);

} // namespace shardlab::quiz
