#include "trace/Summary.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <sstream>

namespace shardlab::trace {
namespace {

using Interval = std::pair<std::int64_t, std::int64_t>;

std::vector<Interval> merged(std::vector<Interval> v) {
  std::sort(v.begin(), v.end());
  std::vector<Interval> out;
  for (const auto& iv : v) {
    if (!out.empty() && iv.first <= out.back().second)
      out.back().second = std::max(out.back().second, iv.second);
    else
      out.push_back(iv);
  }
  return out;
}

std::int64_t length(const std::vector<Interval>& v) {
  std::int64_t s = 0;
  for (const auto& iv : v) s += iv.second - iv.first;
  return s;
}

// Length of the part of `a` that `b` does not cover; both merged and sorted.
std::int64_t uncovered(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::int64_t covered = 0;
  std::size_t j = 0;
  for (const auto& iv : a) {
    while (j < b.size() && b[j].second <= iv.first) ++j;
    for (std::size_t k = j; k < b.size() && b[k].first < iv.second; ++k)
      covered += std::min(iv.second, b[k].second) - std::max(iv.first, b[k].first);
  }
  return length(a) - covered;
}

// The parts of `a` inside `b`; both merged and sorted.
std::vector<Interval> intersection(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  std::size_t j = 0;
  for (const auto& iv : a) {
    while (j < b.size() && b[j].second <= iv.first) ++j;
    for (std::size_t k = j; k < b.size() && b[k].first < iv.second; ++k)
      out.emplace_back(std::max(iv.first, b[k].first), std::min(iv.second, b[k].second));
  }
  return out;
}

// The union of two merged, sorted lists, merged and sorted (linear: no sort).
std::vector<Interval> unite(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> both(a.size() + b.size()), out;
  std::merge(a.begin(), a.end(), b.begin(), b.end(), both.begin());
  for (const auto& iv : both) {
    if (!out.empty() && iv.first <= out.back().second) out.back().second = std::max(out.back().second, iv.second);
    else out.push_back(iv);
  }
  return out;
}

// A rank's steps as time windows: step s runs from the end of step s-1 (the first
// step: from its first op, collective or idle record) to its step record; a step the
// rank did not finish runs to its last record. Setup before the first step and the
// end after the last are not step time.
std::vector<Interval> stepWindows(const std::map<int, std::int64_t>& ends, const std::map<int, Interval>& extent) {
  std::vector<Interval> windows;
  std::optional<std::int64_t> previousEnd;
  for (const auto& [step, span] : extent) {
    const auto end = ends.find(step);
    const std::int64_t start = previousEnd ? *previousEnd : span.first;
    const std::int64_t stop = end != ends.end() ? end->second : std::max(span.second, start);
    windows.emplace_back(start, stop);
    previousEnd = stop;
  }
  return merged(std::move(windows));
}

std::int64_t wireBytesOf(Kind kind, std::int64_t bytes, int n) {
  if (n <= 0) n = 1;
  switch (kind) {
  case Kind::AllGather:
  case Kind::ReduceScatter: return bytes * (n - 1) / n;
  case Kind::AllReduce: return 2 * bytes * (n - 1) / n;
  case Kind::Broadcast: return bytes;
  case Kind::Send: return bytes;
  default: return 0; // a receive sends nothing
  }
}

// A rank record's text field, empty where it is missing or not a string (a damaged
// record may hold any JSON there).
std::string textOf(const nlohmann::json& meta, const char* key) {
  const auto it = meta.find(key);
  return it != meta.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

std::string formatBytes(std::int64_t bytes) {
  char buf[32];
  const double b = static_cast<double>(bytes);
  if (bytes < 0) return "-" + formatBytes(-bytes);
  if (bytes < 1024) std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
  else if (bytes < 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024.0);
  else if (bytes < 1024LL * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1024.0 * 1024.0));
  else std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

std::string OutOfMemoryReport::message() const {
  return "out of memory on rank " + std::to_string(rank) + ": needs " + formatBytes(needed) +
         " (" + std::string(toString(category)) + (unit == "-" ? "" : " of " + unit) +
         "), budget " + formatBytes(budget) + ", holding " + formatBytes(holding);
}

double theoreticalBubble(Schedule schedule, int p, int m, int v) {
  if (p <= 1) return 0.0;
  if (schedule == Schedule::Naive) m = 1;
  if (schedule != Schedule::Interleaved) v = 1;
  // Zero bubble (Qi et al., ICLR 2024) with T_F = T_B = T_W: a step is 3m op times of
  // work per stage, and rank 0, which sets the pace, idles p - 1 of them under ZB-H1
  // (m >= p; the paper's (p-1)(T_F+T_B-T_W)) and none under ZB-H2 (m >= 2p - 1); with
  // fewer micro-batches the warm-up is cut short and rank 0 idles 2p - 1 - m
  // (PipelineSchedule.ZeroBubbleIdleWithEqualTimesIsThePapers runs the schedules so).
  if (schedule == Schedule::ZbH1 || schedule == Schedule::ZbH2) {
    const int idle = std::max(schedule == Schedule::ZbH1 ? p - 1 : 0, 2 * p - 1 - m);
    return static_cast<double>(idle) / (3.0 * m + idle);
  }
  return static_cast<double>(p - 1) / (static_cast<double>(v) * m + p - 1);
}

int heldAtPeak(Schedule schedule, int p, int rank, int m) {
  switch (schedule) {
  case Schedule::Naive: return 1;
  case Schedule::GPipe: return m;
  case Schedule::OneFOneB: return std::min(p - rank, m);
  case Schedule::ZbH1: return std::min(p, m);
  case Schedule::ZbH2: return std::min(2 * p - 1, m);
  case Schedule::Interleaved: return -1;
  }
  return -1;
}

Summary summarizeMeasured(const Trace& trace) {
  Summary s;
  const std::optional<JobConfig> config = trace.config();
  s.strategy = config ? std::string(name(config->strategy)) : "?";
  s.device = config ? std::string(name(config->device)) : "?";
  if (config && config->strategy == StrategyKind::Fsdp) {
    ShardingSummary sh;
    sh.name = std::string(name(config->sharding));
    sh.pytorch = std::string(pytorchName(config->sharding));
    sh.zeroStage = zeroStage(config->sharding);
    sh.shardDegree = config->shardDegree();
    sh.replicas = sh.shardDegree > 0 ? config->ranks / sh.shardDegree : 1;
    sh.backwardPrefetch = std::string(name(config->backwardPrefetch));
    sh.forwardPrefetch = config->forwardPrefetch;
    sh.limitAllGathers = config->limitAllGathers.value_or(0);
    sh.paramDtype = std::string(name(config->paramDtype));
    sh.reduceDtype = std::string(name(config->reduceDtype));
    s.sharding = sh;
  }
  s.steps = config ? config->steps : 0;
  s.ranks = trace.rankCount();
  for (const auto& e : trace.events) s.ranks = std::max(s.ranks, e.rank + 1);
  if (trace.job) {
    s.parameters = trace.job->model.parameters;
    s.units = static_cast<int>(trace.job->model.units.size());
  }

  const auto R = static_cast<std::size_t>(s.ranks);
  s.ranksDetail.resize(R);
  std::vector<std::vector<Interval>> compute(R), comm(R), bubbleIdle(R), collectiveIdle(R);
  std::vector<std::map<int, Interval>> stepExtent(R); // per rank, step -> first and last record time
  std::vector<std::map<int, std::int64_t>> stepEnds(R);
  std::vector<std::int64_t> coreWait(R, 0);
  std::vector<bool> cpuTimesRecorded(R, false);
  std::vector<std::array<std::int64_t, kCategoryCount>> current(R);
  std::vector<std::int64_t> total(R, 0), lastStepTotal(R, 0);
  std::vector<std::int64_t> lastStepEnd(R, -1), firstTime(R, -1);
  std::vector<std::map<std::string, CollectiveStats>> perRankColl(R);
  // Whether every call of a kind (per rank) and every sending call (per rank) carried
  // measured wire bytes: a sum over some of them would pass for the whole.
  std::vector<std::map<std::string, bool>> kindMeasured(R);
  std::vector<bool> rankMeasured(R, true);
  std::vector<std::int64_t> measuredSent(R, 0);
  // Per step: summed loss and tokens over ranks.
  std::map<int, std::pair<double, std::int64_t>> lossByStep;
  std::map<std::pair<int, int>, std::int64_t> stepEnd; // (rank, step) -> t
  std::int64_t tMin = INT64_MAX, tMax = 0;

  for (std::size_t r = 0; r < R; ++r) {
    auto& rs = s.ranksDetail[r];
    rs.rank = static_cast<int>(r);
    current[r].fill(0);
    if (const auto* info = trace.rankInfo(static_cast<int>(r)); info && info->meta.is_object())
      rs.device = textOf(info->meta, "device");
  }

  for (const auto& e : trace.events) {
    const auto r = static_cast<std::size_t>(e.rank);
    if (r >= R) continue;
    auto& rs = s.ranksDetail[r];
    tMin = std::min(tMin, e.t0);
    tMax = std::max(tMax, e.t1);
    if (firstTime[r] < 0) firstTime[r] = e.t0;
    if ((e.record == Record::Op || e.record == Record::Collective || e.record == Record::Idle) && e.step >= 0) {
      auto [it, fresh] = stepExtent[r].try_emplace(e.step, e.t0, e.t1);
      if (!fresh) it->second = {std::min(it->second.first, e.t0), std::max(it->second.second, e.t1)};
    }
    switch (e.record) {
    case Record::Op:
      compute[r].emplace_back(e.t0, e.t1);
      if (e.kind == Kind::Forward) ++rs.forwardOps;
      if (e.kind == Kind::Forward && e.recompute) ++rs.recomputeOps;
      if (isBackward(e.kind)) ++rs.backwardOps; // the whole backward, or its B or W half
      if (e.kind == Kind::Optimizer) ++rs.optimizerOps;
      if (e.cpuNs >= 0) {
        cpuTimesRecorded[r] = true;
        coreWait[r] += std::max<std::int64_t>(0, e.t1 - e.t0 - e.cpuNs);
      }
      break;
    case Record::Collective: {
      comm[r].emplace_back(e.t0, e.t1);
      auto& c = perRankColl[r][std::string(toString(e.kind))];
      const int n = std::popcount(e.participants);
      c.count += 1;
      c.bytes += e.bytes;
      const auto wire = wireBytesOf(e.kind, e.bytes, n);
      c.wireBytes += wire;
      c.seconds += static_cast<double>(e.t1 - e.t0) * 1e-9;
      rs.sentBytes += wire;
      const bool measured = e.wireBytes >= 0;
      kindMeasured[r].try_emplace(std::string(toString(e.kind)), true).first->second &= measured;
      c.measuredWireBytes = c.measuredWireBytes.value_or(0) + std::max<std::int64_t>(e.wireBytes, 0);
      if (e.kind != Kind::Recv) { // a receive sends nothing: it neither adds nor spoils the rank's total
        rankMeasured[r] = rankMeasured[r] && measured;
        measuredSent[r] += std::max<std::int64_t>(e.wireBytes, 0);
      }
      break;
    }
    case Record::Memory: {
      const auto c = static_cast<std::size_t>(e.category);
      if (c < static_cast<std::size_t>(kCategoryCount)) {
        current[r][c] = e.value;
        rs.peakByCategory[c] = std::max(rs.peakByCategory[c], e.value);
      }
      total[r] = e.total;
      rs.peakBytes = std::max(rs.peakBytes, e.total);
      break;
    }
    case Record::Step: {
      auto& l = lossByStep[e.step];
      l.first += e.loss;
      l.second += e.value;
      stepEnd[{e.rank, e.step}] = e.t0;
      stepEnds[r][e.step] = e.t0;
      stepExtent[r].try_emplace(e.step, e.t0, e.t0);
      lastStepTotal[r] = total[r];
      lastStepEnd[r] = e.t0;
      break;
    }
    case Record::Idle:
      (e.kind == Kind::WaitCollective ? collectiveIdle : bubbleIdle)[r].emplace_back(e.t0, e.t1);
      rs.idleS += static_cast<double>(e.t1 - e.t0) * 1e-9;
      break;
    case Record::OutOfMemory: {
      const OutOfMemoryReport report{e.rank, e.category, trace.unitName(e.unit), e.bytes, e.value, e.total};
      if (!s.outOfMemory) s.outOfMemory = report;
      rs.failure = report.message();
      break;
    }
    case Record::Failure:
      if (!rs.failure && e.text < trace.texts.size()) rs.failure = trace.texts[e.text];
      break;
    case Record::End:
      rs.finished = true;
      break;
    case Record::DeviceMemory:
    case Record::Flight: break; // hangReport() reads the flight recorder
    }
  }

  for (std::size_t r = 0; r < R; ++r) {
    auto& rs = s.ranksDetail[r];
    // The identity: the step windows split into compute, exposed communication,
    // other idle and untracked time, each instant counted once, in the first of
    // compute, a pipeline wait (the bubble: a send still pending then does not make
    // it communication), communication, a wait for a collective (past the collective's
    // own end: the wake-up).
    const auto windows = stepWindows(stepEnds[r], stepExtent[r]);
    const auto cm = intersection(merged(compute[r]), windows);
    const auto cc = intersection(merged(comm[r]), windows);
    const auto bubble = intersection(merged(bubbleIdle[r]), windows);
    const auto waits = intersection(merged(collectiveIdle[r]), windows);
    const auto computeOrBubble = unite(cm, bubble);
    const auto recorded = unite(unite(computeOrBubble, cc), waits);
    rs.stepS = static_cast<double>(length(windows)) * 1e-9;
    rs.computeS = static_cast<double>(length(cm)) * 1e-9;
    rs.commS = static_cast<double>(length(cc)) * 1e-9;
    rs.exposedCommS = static_cast<double>(uncovered(cc, computeOrBubble)) * 1e-9;
    rs.otherIdleS =
        static_cast<double>(uncovered(bubble, cm) + uncovered(waits, unite(computeOrBubble, cc))) * 1e-9;
    rs.untrackedS = static_cast<double>(uncovered(windows, recorded)) * 1e-9;
    if (cpuTimesRecorded[r]) rs.coreWaitS = static_cast<double>(coreWait[r]) * 1e-9;
    rs.persistentBytes = lastStepTotal[r];
    bool sentAnything = false;
    for (auto& [kind, c] : perRankColl[r]) {
      if (!kindMeasured[r][kind]) c.measuredWireBytes.reset();
      sentAnything = sentAnything || kind != toString(Kind::Recv);
    }
    if (rankMeasured[r] && sentAnything) rs.measuredSentBytes = measuredSent[r];
    for (const auto& [kind, c] : perRankColl[r]) {
      auto& agg = s.collectives[kind];
      if (c.count > agg.count || (c.count == agg.count && c.bytes > agg.bytes)) agg = c;
    }
  }

  for (const auto& [step, l] : lossByStep)
    if (l.second > 0) s.lossPerStep.push_back(l.first / static_cast<double>(l.second));
  s.stepsCompleted = static_cast<int>(s.lossPerStep.size());
  if (tMin != INT64_MAX) s.wallS = static_cast<double>(tMax - tMin) * 1e-9;
  {
    // Step time: the slowest rank's step ends, over the steps every rank finished.
    std::map<int, std::int64_t> slowestEnd;
    std::map<int, int> ranksAt;
    for (const auto& [key, t] : stepEnd) {
      slowestEnd[key.second] = std::max(slowestEnd[key.second], t);
      ++ranksAt[key.second];
    }
    // An imported trace records no loss (a PyTorch profiler trace has none): its
    // completed steps are its ProfilerStep ranges every rank ended.
    if (trace.job && trace.job->imported) {
      s.stepsCompleted = 0;
      for (const auto& [step, n] : ranksAt)
        if (n == s.ranks) ++s.stepsCompleted;
    }
    std::vector<std::int64_t> ends;
    for (const auto& [step, t] : slowestEnd)
      if (ranksAt[step] == s.ranks) ends.push_back(t);
    if (ends.size() >= 2)
      s.stepTimeS = static_cast<double>(ends.back() - ends.front()) * 1e-9 / static_cast<double>(ends.size() - 1);
    else if (ends.size() == 1)
      s.stepTimeS = static_cast<double>(ends.front()) * 1e-9;
  }

  // Bubble: idle over stage time in the steady steps (step 0 warms caches up).
  if (config && config->strategy == StrategyKind::Pipeline) {
    auto& b = s.bubble;
    b.present = true;
    b.schedule = std::string(name(config->schedule));
    b.stages = s.ranks;
    b.microbatches = config->microbatches;
    b.virtualStages = config->virtualStages;
    b.theory = theoreticalBubble(config->schedule, b.stages, b.microbatches, b.virtualStages);
    const int firstSteady = s.stepsCompleted > 1 ? 1 : 0;
    std::vector<std::int64_t> idle(R, 0), span(R, 0);
    std::int64_t opSum = 0;
    std::map<Kind, std::int64_t> timeByKind; // the steady steps' op time, recomputes aside
    // Idle counts only inside the steps whose span is counted below: a steady step the
    // rank finished (a failed run's unfinished last step would inflate the fraction).
    for (const auto& e : trace.events) {
      if ((e.record != Record::Idle && e.record != Record::Op) || e.step < firstSteady || e.step >= s.stepsCompleted)
        continue;
      if (static_cast<std::size_t>(e.rank) >= R || !stepEnd.count({e.rank, e.step})) continue;
      if (e.record == Record::Op) opSum += e.t1 - e.t0;
      if (e.record == Record::Op && !e.recompute) timeByKind[e.kind] += e.t1 - e.t0;
      else idle[static_cast<std::size_t>(e.rank)] += e.t1 - e.t0;
    }
    for (std::size_t r = 0; r < R; ++r) {
      const int rank = static_cast<int>(r);
      for (int st = firstSteady; st < s.stepsCompleted; ++st) {
        auto end = stepEnd.find({rank, st});
        if (end == stepEnd.end()) continue;
        std::int64_t start = firstTime[r];
        if (auto prev = stepEnd.find({rank, st - 1}); prev != stepEnd.end()) start = prev->second;
        span[r] += end->second - start;
      }
    }
    std::int64_t idleSum = 0, spanSum = 0;
    for (std::size_t r = 0; r < R; ++r) {
      b.perStage.push_back(span[r] > 0 ? static_cast<double>(idle[r]) / static_cast<double>(span[r]) : 0.0);
      idleSum += idle[r];
      spanSum += span[r];
    }
    b.measured = spanSum > 0 ? static_cast<double>(idleSum) / static_cast<double>(spanSum) : 0.0;
    const int countedSteps = s.stepsCompleted - firstSteady;
    if (config->schedule == Schedule::ZbH1 && countedSteps > 0 && b.stages > 1) {
      const double ops = static_cast<double>(b.stages) * b.microbatches * countedSteps * 1e9;
      const double tF = static_cast<double>(timeByKind[Kind::Forward]) / ops,
                   tB = static_cast<double>(timeByKind[Kind::BackwardInput]) / ops,
                   tW = static_cast<double>(timeByKind[Kind::BackwardWeight]) / ops;
      const double bubbleTime = (b.stages - 1) * std::max(0.0, tF + tB - tW);
      const double work = b.microbatches * (tF + tB + tW);
      if (work + bubbleTime > 0) b.theoryOwnTimes = bubbleTime / (work + bubbleTime);
    }
    for (const auto& rank : s.ranksDetail) {
      b.peakActivations.push_back(rank.peakByCategory[static_cast<std::size_t>(Category::Activations)]);
      b.heldAtPeak.push_back(heldAtPeak(config->schedule, b.stages, rank.rank, b.microbatches));
    }
    b.stageS = static_cast<double>(spanSum) * 1e-9;
    b.opS = static_cast<double>(opSum) * 1e-9;
  }
  return s;
}

nlohmann::json Summary::toJson() const {
  using nlohmann::json;
  json j;
  j["strategy"] = strategy;
  if (sharding)
    j["sharding"] = {{"name", sharding->name},
                     {"pytorch", sharding->pytorch},
                     {"zero_stage", sharding->zeroStage},
                     {"shard_degree", sharding->shardDegree},
                     {"replicas", sharding->replicas},
                     {"backward_prefetch", sharding->backwardPrefetch},
                     {"forward_prefetch", sharding->forwardPrefetch},
                     {"limit_all_gathers", sharding->limitAllGathers > 0 ? json(sharding->limitAllGathers) : json()},
                     {"param_dtype", sharding->paramDtype},
                     {"reduce_dtype", sharding->reduceDtype}};
  j["ranks"] = ranks;
  j["device"] = device;
  j["step_time_s"] = stepTimeS;
  j["steps"] = steps;
  j["steps_completed"] = stepsCompleted;
  j["wall_s"] = wallS;
  j["model"] = {{"parameters", parameters}, {"units", units}};
  j["loss"] = {{"first", lossPerStep.empty() ? json() : json(lossPerStep.front())},
               {"last", lossPerStep.empty() ? json() : json(lossPerStep.back())},
               {"per_step", lossPerStep}};
  json detail = json::array();
  for (const auto& r : ranksDetail) {
    json peaks = json::object();
    for (int c = 0; c < kCategoryCount; ++c)
      peaks[std::string(toString(static_cast<Category>(c)))] = r.peakByCategory[static_cast<std::size_t>(c)];
    detail.push_back({{"rank", r.rank},
                      {"device", r.device},
                      {"persistent_bytes", r.persistentBytes},
                      {"peak_bytes", r.peakBytes},
                      {"peak_by_category", peaks},
                      {"step_s", r.stepS},
                      {"compute_s", r.computeS},
                      {"comm_s", r.commS},
                      {"exposed_comm_s", r.exposedCommS},
                      {"other_idle_s", r.otherIdleS},
                      {"untracked_s", r.untrackedS},
                      {"idle_s", r.idleS},
                      {"core_wait_s", r.coreWaitS ? json(*r.coreWaitS) : json()},
                      {"sent_bytes", r.sentBytes},
                      {"measured_sent_bytes", r.measuredSentBytes ? json(*r.measuredSentBytes) : json()},
                      {"ops", {{"forward", r.forwardOps}, {"recompute", r.recomputeOps}, {"backward", r.backwardOps},
                               {"optimizer", r.optimizerOps}}},
                      {"finished", r.finished},
                      {"failure", r.failure ? json(*r.failure) : json()}});
  }
  j["ranks_detail"] = detail;
  json coll = json::object();
  for (const char* kind : {"all_gather", "reduce_scatter", "all_reduce", "send", "recv", "broadcast"}) {
    CollectiveStats c;
    if (auto it = collectives.find(kind); it != collectives.end()) c = it->second;
    coll[kind] = {{"count", c.count},
                  {"per_step", stepsCompleted > 0 ? static_cast<double>(c.count) / stepsCompleted : 0.0},
                  {"bytes", c.bytes},
                  {"wire_bytes", c.wireBytes},
                  {"measured_wire_bytes", c.measuredWireBytes ? json(*c.measuredWireBytes) : json()},
                  {"seconds", c.seconds}};
  }
  j["collectives"] = coll;
  if (bubble.present)
    j["bubble"] = {{"per_stage", bubble.perStage}, {"measured", bubble.measured}, {"theory", bubble.theory},
                   {"schedule", bubble.schedule}, {"stages", bubble.stages},
                   {"microbatches", bubble.microbatches}, {"virtual_stages", bubble.virtualStages}};
  if (bubble.present && bubble.theoryOwnTimes >= 0) j["bubble"]["theory_own_times"] = bubble.theoryOwnTimes;
  if (bubble.present) {
    j["bubble"]["peak_activations_bytes"] = bubble.peakActivations;
    j["bubble"]["held_at_peak"] = bubble.heldAtPeak;
  }
  if (!replay.notReplayed.empty()) j["replay"] = {{"not_replayed", replay.notReplayed}};
  if (replay.present) {
    json r = {{"note", replay.timesNote}, {"stopped_at", replay.stoppedAt ? json(*replay.stoppedAt) : json()}};
    for (const auto& result : replay.results) {
      json mode = {{"step_s", result.stepS}, {"exposed_comm_s", result.exposedCommS}};
      if (result.bubble) mode["bubble"] = *result.bubble;
      if (result.mode == ReplayMode::Fitted) {
        json model = json::object();
        for (const auto& [kind, f] : replay.fitted)
          model[kind] = {{"alpha_s", f.alphaS}, {"beta_s_per_byte", f.betaSPerByte}, {"samples", f.samples}};
        mode["model"] = model;
      }
      if (result.mode == ReplayMode::Reference) mode["interconnect"] = std::string(kReferenceInterconnect.name);
      r[std::string(toString(result.mode))] = mode;
    }
    if (replay.breakdown) {
      const auto& b = *replay.breakdown;
      r["bubble_breakdown"] = {{"measured", b.measured},
                               {"theory", b.theory},
                               {"schedule_alone", b.scheduleAlone},
                               {"schedule_as_run", b.scheduleAsRun},
                               {"handoffs", b.handoffs},
                               {"slower_ops", b.slowerOps},
                               {"core_waits", b.cpuTimes ? json(b.coreWaits) : json()},
                               {"unexplained", b.unexplained},
                               {"tolerance", kBreakdownTolerance},
                               {"not_computing", b.notComputing},
                               {"ops_above_fastest", b.opsAboveFastest},
                               {"untracked", b.untracked}};
    }
    j["replay"] = r;
  }
  j["out_of_memory"] = outOfMemory ? json({{"rank", outOfMemory->rank},
                                           {"category", std::string(toString(outOfMemory->category))},
                                           {"unit", outOfMemory->unit},
                                           {"needed_bytes", outOfMemory->needed},
                                           {"budget_bytes", outOfMemory->budget},
                                           {"holding_bytes", outOfMemory->holding},
                                           {"message", outOfMemory->message()}})
                                   : json();
  return j;
}

std::string Summary::toTable() const {
  std::ostringstream o;
  char line[256];
  o << "ShardLab run: " << strategy << " on " << ranks << (ranks == 1 ? " rank" : " ranks") << ", device " << device << ", "
    << stepsCompleted << "/" << steps << " steps, " << parameters << " parameters in " << units << " units\n";
  if (sharding) {
    o << "sharding: " << sharding->name << " (" << sharding->pytorch << ", ZeRO-" << sharding->zeroStage
      << "), each unit sharded over " << sharding->shardDegree << (sharding->shardDegree == 1 ? " rank" : " ranks");
    if (sharding->replicas > 1) o << ", " << sharding->replicas << " replicas";
    o << "; backward prefetch " << sharding->backwardPrefetch << ", forward prefetch "
      << (sharding->forwardPrefetch ? "on" : "off") << ", all-gathers "
      << (sharding->limitAllGathers > 0 ? "limited to " + std::to_string(sharding->limitAllGathers) : std::string("unlimited"));
    if (sharding->paramDtype != "fp32" || sharding->reduceDtype != "fp32")
      o << "; parameters gathered in " << sharding->paramDtype << ", gradients reduced in " << sharding->reduceDtype;
    o << "\n";
  }
  if (!lossPerStep.empty()) {
    std::snprintf(line, sizeof line, "loss: %.4f -> %.4f\n", lossPerStep.front(), lossPerStep.back());
    o << line;
  }
  std::snprintf(line, sizeof line, "step time: %.4f s (mean steady step, slowest rank)\n", stepTimeS);
  o << line;
  o << "rank  persistent     peak           in_steps_s compute_s  comm_s     exposed_s  other_idle untracked  "
       "idle_s     core_wait  sent\n";
  for (const auto& r : ranksDetail) {
    char coreWait[16] = "-";
    if (r.coreWaitS) std::snprintf(coreWait, sizeof coreWait, "%.4f", *r.coreWaitS);
    std::snprintf(line, sizeof line,
                  "%-5d %-14s %-14s %-10.4f %-10.4f %-10.4f %-10.4f %-10.4f %-10.4f %-10.4f %-10s %s\n", r.rank,
                  formatBytes(r.persistentBytes).c_str(), formatBytes(r.peakBytes).c_str(), r.stepS, r.computeS,
                  r.commS, r.exposedCommS, r.otherIdleS, r.untrackedS, r.idleS, coreWait,
                  formatBytes(r.sentBytes).c_str());
    o << line;
  }
  for (const auto& [kind, c] : collectives) {
    const std::string measured = c.measuredWireBytes ? formatBytes(*c.measuredWireBytes) + " measured" : "not measured";
    std::snprintf(line, sizeof line, "%-15s %6lld calls/rank  %12s buffer  %12s on the wire (ring model), %s  %.4f s\n",
                  kind.c_str(), static_cast<long long>(c.count), formatBytes(c.bytes).c_str(),
                  formatBytes(c.wireBytes).c_str(), measured.c_str(), c.seconds);
    o << line;
  }
  if (bubble.present) {
    std::snprintf(line, sizeof line, "bubble (%s, p=%d, m=%d, v=%d): measured %.3f, theory %.3f\n",
                  bubble.schedule.c_str(), bubble.stages, bubble.microbatches, bubble.virtualStages, bubble.measured,
                  bubble.theory);
    o << line;
    if (bubble.theoryOwnTimes >= 0) {
      std::snprintf(line, sizeof line, "  theory with this run's F, B, W times %.3f\n", bubble.theoryOwnTimes);
      o << line;
    }
    if (!bubble.peakActivations.empty()) {
      o << "  peak activations per stage:";
      for (std::size_t r = 0; r < bubble.peakActivations.size(); ++r) {
        o << (r ? ", " : " ") << formatBytes(bubble.peakActivations[r]);
        if (r < bubble.heldAtPeak.size() && bubble.heldAtPeak[r] > 0)
          o << " (" << bubble.heldAtPeak[r] << (bubble.heldAtPeak[r] == 1 ? " micro-batch" : " micro-batches") << ")";
      }
      o << "; in brackets: the most the schedule holds at once\n";
    }
  }
  if (!replay.notReplayed.empty()) o << "replay: " << replay.notReplayed << "\n";
  if (replay.present) {
    // Units as in the JSON: a step is one steady step; exposed communication is the whole
    // run's (as exposed_s in the rank table), so it may be larger than a step.
    o << "replay, a computation on this trace (" << replay.timesNote << "); step: one steady step, exposed: whole run:\n";
    for (const auto& result : replay.results) {
      std::snprintf(line, sizeof line, "  %-15s step %.4f s  exposed %.4f s", std::string(toString(result.mode)).c_str(),
                    result.stepS, result.exposedCommS);
      o << line;
      if (result.bubble) {
        std::snprintf(line, sizeof line, "  bubble %.3f", *result.bubble);
        o << line;
      }
      o << "\n";
    }
    if (replay.breakdown) {
      const auto& b = *replay.breakdown;
      char coreWaits[16] = "-";
      if (b.cpuTimes) std::snprintf(coreWaits, sizeof coreWaits, "%.3f", b.coreWaits);
      std::snprintf(line, sizeof line,
                    "  bubble %.3f = theory %.3f %+.3f schedule as run (optimizer step, stage split) %+.3f hand-offs "
                    "%+.3f slower ops %+.3f waiting for cores (%s) %+.3f unexplained\n",
                    b.measured, b.theory, b.scheduleAsRun, b.handoffs, b.slowerOps, b.cpuTimes ? b.coreWaits : 0.0,
                    b.cpuTimes ? "measured" : "no CPU times: in slower ops", b.unexplained);
      o << line;
      std::snprintf(line, sizeof line,
                    "  stage time not computing at the ops' fastest pace %.3f = bubble %.3f + ops slower than their "
                    "fastest %.3f + untracked %.3f\n",
                    b.notComputing, b.measured, b.opsAboveFastest, b.untracked);
      o << line;
    }
    if (replay.stoppedAt) o << "replay stopped: " << *replay.stoppedAt << "\n";
  }
  if (outOfMemory) o << outOfMemory->message() << "\n";
  for (const auto& r : ranksDetail)
    if (r.failure && !(outOfMemory && outOfMemory->rank == r.rank))
      o << "rank " << r.rank << " failed: " << *r.failure << "\n";
  return o.str();
}

} // namespace shardlab::trace
