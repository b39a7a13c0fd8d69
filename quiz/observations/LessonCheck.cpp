#include "quiz/observations/LessonCheck.h"

#include "quiz/observations/ObservationText.h"

#include "job/JobConfig.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

namespace shardlab::quiz {
namespace {

using trace::Category;
using trace::Summary;

// Runs handed to a check: every one has its trace and summary.
using Runs = std::vector<CheckedRun>;

// "+4.2" / "−1.0" points: a difference of two shares, in percentage points.
std::string points(double f) {
  return (f < 0 ? std::string("\u2212") : std::string("+")) + text::fixed(std::abs(f) * 100.0, 1);
}

// A number as each language writes it (decimal comma in French and Russian).
// The unit stays on the number's line: "28.9 %" never breaks before its "%".
LocalizedText number(const std::string& en) {
  const auto keep = [](std::string s) {
    for (auto at = s.find(" %"); at != std::string::npos; at = s.find(" %", at)) s.replace(at, 1, "\u00a0");
    return s;
  };
  LocalizedText t = text::same(en);
  for (const char* lang : {"en", "fr", "ru"}) t.set(lang, keep(t.get(lang)));
  return t;
}

// The largest share of its step time any rank of these runs spent waiting for a CPU
// core inside its ops (CPU_NS below wall time): another program, or more ranks than
// cores. nullopt without CPU times.
std::optional<double> coreWaitShare(const Runs& runs) {
  std::optional<double> worst;
  for (const auto& run : runs)
    for (const auto& r : run.summary->ranksDetail)
      if (r.coreWaitS && r.stepS > 0) worst = std::max(worst.value_or(0.0), *r.coreWaitS / r.stepS);
  return worst;
}

// The cause every check can name: the ranks waited for cores (the machine was busy).
LocalizedText busyMachine(const Runs& runs) {
  const auto share = coreWaitShare(runs);
  if (!share || *share < 0.05) return {};
  return text::message("check.busy-machine", {{"share", number(text::percent(*share))}});
}

LocalizedText concat(const LocalizedText& a, const LocalizedText& b) {
  LocalizedText out;
  for (const char* lang : {"en", "fr", "ru"}) out.set(lang, a.get(lang) + b.get(lang));
  return out;
}

LessonCheck result(std::string figure, std::string expected, std::string measured, bool passed) {
  LessonCheck c;
  c.figure = std::move(figure);
  c.expected = std::move(expected);
  c.measured = std::move(measured);
  c.passed = passed;
  return c;
}

// The general verdict: what was checked (`name`, in each language), and whether it showed.
LocalizedText plainVerdict(const LessonCheck& c, const Runs& runs, const LocalizedText& name) {
  const text::Params args{{"what", name}, {"measured", number(c.measured)}, {"expected", number(c.expected)}};
  if (c.passed) return text::message("check.shown", args);
  return concat(text::message("check.not-shown", args), busyMachine(runs));
}

// pipeline-bubble, gpipe-vs-1f1b: the GPipe run's bubble within 0.05 of (p−1)/(m+p−1).
std::optional<LessonCheck> bubbleCheck(const Runs& runs, const std::vector<std::string>&) {
  const auto gpipe = std::find_if(runs.begin(), runs.end(), [](const CheckedRun& r) {
    return r.summary->bubble.present && r.summary->bubble.schedule == "gpipe";
  });
  if (gpipe == runs.end() || gpipe->summary->stepsCompleted < 2) return std::nullopt;
  const auto& b = gpipe->summary->bubble;
  constexpr double kTolerance = 0.05;
  auto c = result("GPipe bubble (" + gpipe->label + ")", text::fixed(b.theory, 3) + " ± 0.05", text::fixed(b.measured, 3),
                  std::abs(b.measured - b.theory) <= kTolerance);
  const auto& d = gpipe->summary->replay.breakdown;
  if (d) c.measured += " (= theory " + text::fixed(d->theory, 3) + " " + points(d->scheduleAsRun) + " schedule as run " +
                       points(d->handoffs) + " hand-offs " + points(d->slowerOps) + " slower ops " +
                       (d->cpuTimes ? points(d->coreWaits) : std::string("-")) + " cores " + points(d->unexplained) +
                       " unexplained)";
  if (c.passed) {
    c.verdict = text::message("bubble-check.shown", {{"measured", number(text::percent(b.measured))},
                                                     {"theory", number(text::percent(b.theory))}});
    return c;
  }
  // The parts of the difference, largest first, each measured by a replay of this run.
  std::vector<std::pair<LocalizedText, double>> parts;
  if (d) {
    parts = {{text::message("bubble-check.part-hand-offs"), d->handoffs},
             {text::message("bubble-check.part-schedule"), d->scheduleAsRun},
             {text::message("bubble-check.part-slower-ops"), d->slowerOps},
             {text::message("bubble-check.part-unexplained"), d->unexplained}};
    if (d->cpuTimes) parts.push_back({text::message("bubble-check.part-cores"), d->coreWaits});
    std::stable_sort(parts.begin(), parts.end(),
                     [](const auto& x, const auto& y) { return std::abs(x.second) > std::abs(y.second); });
  }
  LocalizedText causes;
  for (const char* lang : {"en", "fr", "ru"}) {
    std::string list;
    for (std::size_t i = 0; i < parts.size() && i < 3; ++i) {
      if (std::abs(parts[i].second) < 0.01) break;
      if (!list.empty()) list += ", ";
      list += parts[i].first.get(lang) + " " + text::localNumber(lang, points(parts[i].second));
    }
    causes.set(lang, list.empty() ? "-" : list);
  }
  c.verdict = concat(
      text::message("bubble-check.not-shown", {{"measured", number(text::percent(b.measured))},
                                               {"theory", number(text::percent(b.theory))},
                                               {"points", number(points(b.measured - b.theory))},
                                               {"causes", causes},
                                               {"schedule_alone", number(d ? text::percent(d->scheduleAlone) : "-")}}),
      busyMachine(runs));
  if (d) c.replay = ReplayToShow::ScheduleAlone;
  return c;
}

// Rank 0's communication: exposed and total seconds.
std::pair<double, double> comm(const Summary& s) {
  if (s.ranksDetail.empty()) return {0.0, 0.0};
  return {s.ranksDetail[0].exposedCommS, s.ranksDetail[0].commS};
}

bool prefetchOn(const Summary& s) {
  return s.sharding && (s.sharding->backwardPrefetch != "none" || s.sharding->forwardPrefetch);
}

// fsdp-prefetch: rank 0's exposed communication with prefetch at most half of it without.
std::optional<LessonCheck> prefetchCheck(const Runs& runs, const std::vector<std::string>& unmet) {
  const auto on = std::find_if(runs.begin(), runs.end(), [](const CheckedRun& r) { return prefetchOn(*r.summary); });
  const auto off = std::find_if(runs.begin(), runs.end(), [](const CheckedRun& r) {
    return r.summary->sharding && !prefetchOn(*r.summary);
  });
  if (on == runs.end() || off == runs.end()) return std::nullopt;
  const double exposedOn = comm(*on->summary).first, exposedOff = comm(*off->summary).first;
  const double ratio = exposedOff > 0 ? exposedOn / exposedOff : INFINITY;
  const std::string figure = "exposed comm, prefetch on / off";
  if (std::find(unmet.begin(), unmet.end(), "cores_per_rank") == unmet.end()) {
    auto c = result(figure, "≤ 0.50", text::fixed(ratio, 2), ratio <= 0.5);
    c.verdict = plainVerdict(c, runs, text::message("prefetch-check.figure"));
    return c;
  }
  // Fewer than 2 cores per rank: a rank's communication thread has no core of its own,
  // so a collective's CPU time comes out of the compute it would hide behind, whatever
  // the schedule (docs/performance.md, "Prefetch on two cores"). Both real traces are
  // replayed with communication at the reference interconnect, each op at its fastest.
  const auto reference = [](const Summary& s) -> std::optional<double> {
    for (const auto& r : s.replay.results)
      if (r.mode == trace::ReplayMode::Reference) return r.exposedCommS;
    return std::nullopt;
  };
  const auto a = reference(*on->summary), b = reference(*off->summary);
  if (!a || !b) return std::nullopt;
  const double replayRatio = *b > 0 ? *a / *b : INFINITY;
  auto c = result(figure, "≤ 0.50",
                  text::fixed(replayRatio, 2) + " replayed at the reference interconnect (measured " +
                      text::fixed(ratio, 2) + ": not shown for real, 1 core per rank, needs 2)",
                  replayRatio <= 0.5);
  c.verdict = text::message("prefetch-check.not-shown-for-real", {{"ratio", number(text::times(ratio))},
                                                                  {"replay_ratio", number(text::times(replayRatio))}});
  c.replay = ReplayToShow::Reference;
  return c;
}

std::optional<LessonCheck> ddpCheck(const Runs& runs, const std::vector<std::string>&) {
  const auto [exposed, total] = comm(*runs[0].summary);
  auto c = result("exposed / total comm", "< 1", total > 0 ? text::fixed(exposed / total, 2) : "no comm",
                  total > 0 && exposed < total);
  c.verdict = plainVerdict(c, runs, text::message("ddp-check.figure"));
  return c;
}

// straggler: the fast ranks wait at the collectives for the slow one, so rank 0's
// exposed communication share of its step is above the straggler's own.
std::optional<LessonCheck> stragglerCheck(const Runs& runs, const std::vector<std::string>&) {
  const auto config = runs[0].trace->config();
  if (!config || !config->straggler) return std::nullopt;
  const auto& ranks = runs[0].summary->ranksDetail;
  const auto slow = static_cast<std::size_t>(config->straggler->rank);
  if (slow >= ranks.size() || ranks.empty()) return std::nullopt;
  const auto share = [](const trace::RankSummary& r) { return r.stepS > 0 ? r.exposedCommS / r.stepS : 0.0; };
  const double fast = share(ranks[0]), straggler = share(ranks[slow]);
  auto c = result("rank 0 / straggler waiting share", "rank 0 > straggler",
                  text::fixed(fast, 2) + " / " + text::fixed(straggler, 2), fast > straggler);
  c.verdict = plainVerdict(c, runs, text::message("straggler-check.figure"));
  return c;
}

// zero-stages: rank 0's persistent bytes, ZeRO-1 over ZeRO-3: (8Ψ + 8Ψ/N) / (16Ψ/N) = (N + 1) / 2.
std::optional<LessonCheck> zeroStagesCheck(const Runs& runs, const std::vector<std::string>&) {
  const Summary *one = nullptr, *three = nullptr;
  for (const auto& r : runs) {
    if (!r.summary->sharding || r.summary->ranksDetail.empty()) continue;
    if (r.summary->sharding->zeroStage == 1) one = r.summary;
    if (r.summary->sharding->zeroStage == 3) three = r.summary;
  }
  if (!one || !three || three->ranksDetail[0].persistentBytes <= 0) return std::nullopt;
  const int n = three->sharding->shardDegree;
  const double ratio = static_cast<double>(one->ranksDetail[0].persistentBytes) /
                       static_cast<double>(three->ranksDetail[0].persistentBytes);
  const double expected = (n + 1) / 2.0;
  auto c = result("persistent bytes, ZeRO-1 / ZeRO-3", text::fixed(expected, 2) + " ± 5%", text::fixed(ratio, 3),
                  std::abs(ratio - expected) <= 0.05 * expected);
  c.verdict = plainVerdict(c, runs, text::message("zero-stages-check.figure"));
  return c;
}

// Rank 0's all-gather bytes: on the wire as Open MPI's monitoring counted them, else the buffers.
std::optional<double> allGatherBytes(const Summary& s) {
  const auto it = s.collectives.find("all_gather");
  if (it == s.collectives.end()) return std::nullopt;
  return static_cast<double>(it->second.measuredWireBytes.value_or(it->second.bytes));
}

std::optional<LessonCheck> mixedPrecisionCheck(const Runs& runs, const std::vector<std::string>&) {
  const Summary *bf16 = nullptr, *fp32 = nullptr;
  for (const auto& r : runs)
    if (r.summary->sharding) (r.summary->sharding->paramDtype == "bf16" ? bf16 : fp32) = r.summary;
  if (!bf16 || !fp32) return std::nullopt;
  const auto a = allGatherBytes(*bf16), b = allGatherBytes(*fp32);
  if (!a || !b || *b <= 0) return std::nullopt;
  const double ratio = *a / *b;
  auto c = result("all-gather bytes, bf16 / fp32", "0.50 ± 0.02", text::fixed(ratio, 3), std::abs(ratio - 0.5) <= 0.02);
  c.verdict = plainVerdict(c, runs, text::message("mixed-precision-check.figure"));
  return c;
}

// gradient-accumulation: all-reduces per step without no_sync over with it = the micro-steps.
std::optional<LessonCheck> accumulationCheck(const Runs& runs, const std::vector<std::string>&) {
  std::optional<double> sync, noSync;
  int k = 0;
  for (const auto& r : runs) {
    const auto config = r.trace->config();
    const auto it = r.summary->collectives.find("all_reduce");
    if (!config || it == r.summary->collectives.end() || r.summary->stepsCompleted <= 0) continue;
    const double perStep = static_cast<double>(it->second.count) / r.summary->stepsCompleted;
    (config->noSync ? noSync : sync) = perStep;
    k = std::max(k, config->accumulate);
  }
  if (!sync || !noSync || *noSync <= 0) return std::nullopt;
  const double ratio = *sync / *noSync;
  auto c = result("all-reduces per step, sync / no_sync", std::to_string(k), text::fixed(ratio, 2),
                  std::abs(ratio - k) < 1e-9);
  c.verdict = plainVerdict(c, runs, text::message("accumulation-check.figure"));
  return c;
}

// activation-checkpointing: a lower activation peak on rank 0, at least 1.9x the forward ops.
std::optional<LessonCheck> checkpointingCheck(const Runs& runs, const std::vector<std::string>&) {
  const Summary *on = nullptr, *off = nullptr;
  for (const auto& r : runs)
    if (!r.summary->ranksDetail.empty()) (r.summary->ranksDetail[0].recomputeOps > 0 ? on : off) = r.summary;
  if (!on || !off || off->ranksDetail[0].forwardOps <= 0) return std::nullopt;
  const auto activations = [](const Summary& s) {
    return static_cast<double>(s.ranksDetail[0].peakByCategory[static_cast<std::size_t>(Category::Activations)]);
  };
  if (activations(*off) <= 0) return std::nullopt;
  const double peak = activations(*on) / activations(*off);
  const double forwards =
      static_cast<double>(on->ranksDetail[0].forwardOps) / static_cast<double>(off->ranksDetail[0].forwardOps);
  auto c = result("activation peak on / off; forward ops on / off", "< 1; ≥ 1.9",
                  text::fixed(peak, 2) + "; " + text::fixed(forwards, 2), peak < 1.0 && forwards >= 1.9);
  c.verdict = plainVerdict(c, runs, text::message("checkpointing-check.figure"));
  return c;
}

// zero-bubble: the ZB-H1 run's schedule-alone bubble below the 1F1B run's. The measured
// bubbles of the two move on a shared machine by more than their difference (hand-offs,
// waits for a core); the schedule-alone replays (each op at its fastest recorded time,
// messages free) keep what each schedule itself leaves idle, from the learner's traces.
std::optional<LessonCheck> zeroBubbleCheck(const Runs& runs, const std::vector<std::string>&) {
  const auto alone = [](const Summary& s) -> std::optional<double> {
    for (const auto& r : s.replay.results)
      if (r.mode == trace::ReplayMode::ScheduleAlone) return r.bubble;
    return std::nullopt;
  };
  const Summary *zb = nullptr, *oneF = nullptr;
  for (const auto& r : runs) {
    if (!r.summary->bubble.present || r.summary->stepsCompleted < 2) continue;
    if (r.summary->bubble.schedule == "zb-h1") zb = r.summary;
    if (r.summary->bubble.schedule == "1f1b") oneF = r.summary;
  }
  if (!zb || !oneF) return std::nullopt;
  const auto a = alone(*zb), b = alone(*oneF);
  if (!a || !b) return std::nullopt;
  auto c = result("schedule-alone bubble, ZB-H1 / 1F1B", "ZB-H1 < 1F1B", text::fixed(*a, 3) + " / " + text::fixed(*b, 3),
                  *a < *b);
  c.verdict = plainVerdict(c, runs, text::message("zero-bubble-check.figure"));
  return c;
}

// The other lessons: every run completed its steps, or stopped out of memory.
std::optional<LessonCheck> finishedCheck(const Runs& runs, const std::vector<std::string>&) {
  const bool done = std::all_of(runs.begin(), runs.end(), [](const CheckedRun& r) {
    return r.summary->stepsCompleted == r.summary->steps || r.summary->outOfMemory;
  });
  auto c = result("runs end as the lesson expects", "yes", done ? "yes" : "no", done);
  c.verdict =
      done ? text::message("finished-check.ended") : concat(text::message("finished-check.stopped"), busyMachine(runs));
  return c;
}

using Check = std::function<std::optional<LessonCheck>(const Runs&, const std::vector<std::string>&)>;

const std::map<std::string, Check>& checks() {
  static const std::map<std::string, Check> table = {
      {"pipeline-bubble", bubbleCheck},         {"gpipe-vs-1f1b", bubbleCheck},
      {"fsdp-prefetch", prefetchCheck},         {"ddp-replicas", ddpCheck},
      {"straggler", stragglerCheck},            {"zero-stages", zeroStagesCheck},
      {"mixed-precision", mixedPrecisionCheck}, {"gradient-accumulation", accumulationCheck},
      {"activation-checkpointing", checkpointingCheck}, {"zero-bubble", zeroBubbleCheck}};
  return table;
}

} // namespace

const std::vector<std::string>& checkedLessons() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, check] : checks()) out.push_back(name);
    return out;
  }();
  return names;
}

std::optional<LessonCheck> checkLesson(const std::string& lesson, const std::vector<CheckedRun>& runs,
                                       const std::vector<std::string>& unmetConditions) {
  if (runs.empty()) return std::nullopt;
  for (const auto& r : runs)
    if (!r.trace || !r.summary) return std::nullopt;
  const auto it = checks().find(lesson);
  const Check& check = it == checks().end() ? Check(finishedCheck) : it->second;
  auto c = check(runs, unmetConditions);
  if (c && !unmetConditions.empty()) {
    c->figure += " [unmet:";
    for (std::size_t i = 0; i < unmetConditions.size(); ++i) c->figure += (i ? ", " : " ") + unmetConditions[i];
    c->figure += "]";
  }
  return c;
}

} // namespace shardlab::quiz
