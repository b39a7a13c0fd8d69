#include "quiz/observations/PredictionCheck.h"

#include "quiz/observations/ObservationSupport.h"
#include "quiz/observations/ObservationText.h"

#include "job/JobConfig.h"

#include "trace/Summary.h"

#include <algorithm>
#include <functional>
#include <cmath>
#include <map>
#include <vector>

namespace shardlab::quiz {
namespace {

using observation::modelBytes;
using observation::strategyOf;

const trace::Trace* pick(const trace::Trace& a, const trace::Trace* b, const std::function<bool(const trace::Trace&)>& ok) {
  if (ok(a)) return &a;
  if (b && ok(*b)) return b;
  return nullptr;
}

// Most micro-batches whose forward has started and whose backward has not ended, on rank 0.
std::optional<double> inFlight(const trace::Trace& t) {
  std::map<std::pair<int, int>, std::pair<std::int64_t, std::int64_t>> spans; // (step, micro) -> [first forward, last backward]
  for (const auto& e : t.events) {
    if (e.rank != 0 || e.record != trace::Record::Op || e.micro < 0) continue;
    auto& s = spans.try_emplace({e.step, e.micro}, INT64_MAX, INT64_MIN).first->second;
    if (e.kind == trace::Kind::Forward) s.first = std::min(s.first, e.t0);
    if (trace::isBackward(e.kind)) s.second = std::max(s.second, e.t1);
  }
  std::vector<std::pair<std::int64_t, int>> edges;
  for (const auto& [key, s] : spans)
    if (s.first != INT64_MAX && s.second != INT64_MIN) {
      edges.push_back({s.first, +1});
      edges.push_back({s.second, -1});
    }
  if (edges.empty()) return std::nullopt;
  std::sort(edges.begin(), edges.end()); // at equal times the end (-1) comes first
  int now = 0, most = 0;
  for (const auto& [time, d] : edges) most = std::max(most, now += d);
  return most;
}

} // namespace

std::string PredictionMeasurement::format(double value) const {
  if (kind == "bytes") return text::bytes(static_cast<std::int64_t>(std::llround(value)));
  if (kind == "percent") return text::fixed(value, 1) + " %";
  if (kind == "count") return text::integer(std::llround(value));
  if (kind == "milliseconds") return text::fixed(value, 2) + " ms";
  return text::fixed(value, 2);
}

LocalizedText PredictionMeasurement::compare(double predicted) const {
  const text::Params args{{"predicted", format(predicted)}, {"actual", format(actual)}};
  if (fromModel)
    return close(predicted) ? text::message("prediction.model-close", args)
                            : text::message("prediction.model-far", args);
  return close(predicted) ? text::message("prediction.measured-close", args)
                          : text::message("prediction.measured-far", args);
}

std::optional<PredictionMeasurement> measurePrediction(std::string_view id, const trace::Trace& run,
                                                       const trace::Trace* second) {
  if (id == "rank0-persistent-bytes") {
    const auto s = trace::summarizeMeasured(run);
    if (s.stepsCompleted <= 0 || s.ranksDetail.empty() || s.ranksDetail[0].persistentBytes <= 0) return std::nullopt;
    const double v = static_cast<double>(s.ranksDetail[0].persistentBytes);
    return PredictionMeasurement{v, 0.1 * v, "bytes"};
  }
  if (id == "extra-peak-bytes") {
    if (!second) return std::nullopt;
    const auto prefetch = [](const trace::Trace& t) {
      const auto config = t.config();
      return config && config->prefetches();
    };
    const trace::Trace* on = prefetch(run) ? &run : prefetch(*second) ? second : nullptr;
    const trace::Trace* off = on == &run ? second : &run;
    if (!on || prefetch(*off)) return std::nullopt;
    // The peak of gathered parameters, not the total peak: the total also holds gradients
    // whose reduce-scatter has not finished yet, which varies from run to run.
    const auto a = trace::summarizeMeasured(*on), b = trace::summarizeMeasured(*off);
    if (a.ranksDetail.empty() || b.ranksDetail.empty()) return std::nullopt;
    constexpr auto gathered = static_cast<std::size_t>(trace::Category::GatheredParams);
    const double v = static_cast<double>(a.ranksDetail[0].peakByCategory[gathered] -
                                         b.ranksDetail[0].peakByCategory[gathered]);
    return PredictionMeasurement{v, std::max(0.1 * std::abs(v), 4096.0), "bytes"};
  }
  if (id == "checkpoint-activation-bytes-saved") {
    // Rank 0's activation peak without checkpointing minus with it (docs/sharding.md).
    if (!second) return std::nullopt;
    const auto checkpoints = [](const trace::Trace& t) {
      const auto config = t.config();
      return config && config->checkpointActivations;
    };
    const trace::Trace* on = checkpoints(run) ? &run : checkpoints(*second) ? second : nullptr;
    const trace::Trace* off = on == &run ? second : &run;
    if (!on || checkpoints(*off)) return std::nullopt;
    const auto a = trace::summarizeMeasured(*on), b = trace::summarizeMeasured(*off);
    if (a.ranksDetail.empty() || b.ranksDetail.empty()) return std::nullopt;
    constexpr auto activations = static_cast<std::size_t>(trace::Category::Activations);
    const double v = static_cast<double>(b.ranksDetail[0].peakByCategory[activations] -
                                         a.ranksDetail[0].peakByCategory[activations]);
    return PredictionMeasurement{v, std::max(0.1 * std::abs(v), 4096.0), "bytes"};
  }
  if (id == "bf16-all-gather-bytes-ratio" || id == "no-sync-all-reduce-ratio") {
    // bf16: the bf16 run's all-gather bytes over the fp32 run's (measured on the wire
    // where Open MPI's monitoring counted every call, else the recorded buffers);
    // no_sync: all-reduces per step without no_sync over with it.
    if (!second) return std::nullopt;
    const bool bf16 = id == "bf16-all-gather-bytes-ratio";
    const auto marked = [&](const trace::Trace& t) {
      const auto config = t.config();
      return config && (bf16 ? config->paramDtype == Dtype::Bf16 : config->noSync);
    };
    const trace::Trace* num = bf16 ? (marked(run) ? &run : marked(*second) ? second : nullptr)
                                   : (!marked(run) ? &run : !marked(*second) ? second : nullptr);
    const trace::Trace* den = num == &run ? second : &run;
    if (!num || marked(*num) != bf16 || marked(*den) == bf16) return std::nullopt;
    const auto a = trace::summarizeMeasured(*num), b = trace::summarizeMeasured(*den);
    const char* kind = bf16 ? "all_gather" : "all_reduce";
    const auto ia = a.collectives.find(kind), ib = b.collectives.find(kind);
    if (ia == a.collectives.end() || ib == b.collectives.end()) return std::nullopt;
    double x = 0, y = 0;
    if (bf16) {
      x = static_cast<double>(ia->second.measuredWireBytes.value_or(ia->second.wireBytes));
      y = static_cast<double>(ib->second.measuredWireBytes.value_or(ib->second.wireBytes));
    } else if (a.stepsCompleted > 0 && b.stepsCompleted > 0) {
      x = static_cast<double>(ia->second.count) / a.stepsCompleted;
      y = static_cast<double>(ib->second.count) / b.stepsCompleted;
    }
    if (y <= 0) return std::nullopt;
    return PredictionMeasurement{x / y, bf16 ? 0.02 : 0.0, "ratio"};
  }
  if (id == "zero-persistent-ratio") {
    // Two FSDP runs of the same job under two sharding strategies (ZeRO stages): rank 0's
    // persistent bytes in the run that keeps more over the run that keeps less
    // (docs/sharding.md, "Memory per rank, in Ψ").
    if (!second || strategyOf(run) != StrategyKind::Fsdp || strategyOf(*second) != StrategyKind::Fsdp) return std::nullopt;
    if (run.config()->sharding == second->config()->sharding) return std::nullopt;
    const auto a = trace::summarizeMeasured(run), b = trace::summarizeMeasured(*second);
    if (a.stepsCompleted <= 0 || b.stepsCompleted <= 0 || a.ranksDetail.empty() || b.ranksDetail.empty()) return std::nullopt;
    const double x = static_cast<double>(a.ranksDetail[0].persistentBytes),
                 y = static_cast<double>(b.ranksDetail[0].persistentBytes);
    if (x <= 0 || y <= 0) return std::nullopt;
    const double v = std::max(x, y) / std::min(x, y);
    return PredictionMeasurement{v, 0.05 * v, "ratio"};
  }
  if (id == "stage0-activations-in-flight") {
    const auto* t = pick(run, second, [](const trace::Trace& x) {
      const auto config = x.config();
      return config && config->strategy == StrategyKind::Pipeline && config->schedule == Schedule::OneFOneB;
    });
    if (!t) return std::nullopt;
    const auto v = inFlight(*t);
    if (!v) return std::nullopt;
    return PredictionMeasurement{*v, 0.0, "count"};
  }
  if (id == "zb-h1-bubble-ratio") {
    // The one bubble figure (bubble.measured) of the ZB-H1 run over the 1F1B run's.
    if (!second) return std::nullopt;
    const auto scheduled = [](const trace::Trace& x, Schedule schedule) {
      const auto config = x.config();
      return config && config->strategy == StrategyKind::Pipeline && config->schedule == schedule;
    };
    const auto* zb = pick(run, second, [&](const trace::Trace& x) { return scheduled(x, Schedule::ZbH1); });
    const auto* oneF = pick(run, second, [&](const trace::Trace& x) { return scheduled(x, Schedule::OneFOneB); });
    if (!zb || !oneF) return std::nullopt;
    const auto a = trace::summarizeMeasured(*zb), b = trace::summarizeMeasured(*oneF);
    if (!a.bubble.present || !b.bubble.present || b.bubble.measured <= 0) return std::nullopt;
    const double v = a.bubble.measured / b.bubble.measured;
    return PredictionMeasurement{v, 0.15, "ratio"};
  }
  if (id == "ddp-bytes-needed") {
    const auto* t = pick(run, second, [](const trace::Trace& x) { return strategyOf(x) == StrategyKind::Ddp; });
    if (!t) return std::nullopt;
    const double v = 4.0 * static_cast<double>(modelBytes(*t));
    PredictionMeasurement m{v, 0.1 * v, "bytes"};
    m.fromModel = true;
    return m;
  }
  if (id == "naive-bubble") {
    const auto* t = pick(run, second, [](const trace::Trace& x) {
      const auto config = x.config();
      return config && config->strategy == StrategyKind::Pipeline && config->schedule == Schedule::Naive;
    });
    if (!t) return std::nullopt;
    const auto s = trace::summarizeMeasured(*t);
    if (!s.bubble.present) return std::nullopt;
    return PredictionMeasurement{100.0 * s.bubble.measured, 5.0, "percent"};
  }
  if (id == "interleaved-messages-ratio") {
    // Every stage-to-stage message of the run (activations forward, their gradients back),
    // interleaved over the other schedule: (V·p − 1)/(p − 1) chunk boundaries per micro-batch.
    if (!second) return std::nullopt;
    const auto interleaved = [](const trace::Trace& t) {
      const auto config = t.config();
      return config && config->strategy == StrategyKind::Pipeline && config->schedule == Schedule::Interleaved;
    };
    const trace::Trace* on = interleaved(run) ? &run : interleaved(*second) ? second : nullptr;
    const trace::Trace* off = on == &run ? second : &run;
    if (!on || interleaved(*off) || strategyOf(*off) != StrategyKind::Pipeline) return std::nullopt;
    const auto sends = [](const trace::Trace& t) {
      return std::count_if(t.events.begin(), t.events.end(), [](const trace::Event& e) {
        return e.record == trace::Record::Collective && e.kind == trace::Kind::Send;
      });
    };
    const auto a = sends(*on), b = sends(*off);
    if (b <= 0) return std::nullopt;
    const double v = static_cast<double>(a) / static_cast<double>(b);
    return PredictionMeasurement{v, 0.1 * v, "ratio"};
  }
  if (id == "straggler-wait-percent") {
    // Rank 0's collective waits over its step time, in the steps the straggler is slow
    // in (from `from_step`, and from step 1: step 0's window starts at setup).
    const auto config = run.config();
    if (!config || !config->straggler || config->straggler->rank == 0) return std::nullopt;
    const int from = std::max(1, config->straggler->fromStep);
    std::map<int, std::int64_t> stepEnd;
    double waited = 0;
    for (const auto& e : run.events) {
      if (e.rank != 0) continue;
      if (e.record == trace::Record::Step) stepEnd[e.step] = e.t0;
      if (e.record == trace::Record::Idle && e.kind == trace::Kind::WaitCollective && e.step >= from)
        waited += static_cast<double>(e.t1 - e.t0);
    }
    double window = 0;
    for (const auto& [step, end] : stepEnd)
      if (step >= from && stepEnd.count(step - 1)) window += static_cast<double>(end - stepEnd.at(step - 1));
    if (window <= 0) return std::nullopt;
    return PredictionMeasurement{100.0 * waited / window, 15.0, "percent"};
  }
  if (id == "all-reduces-per-step") {
    const auto s = trace::summarizeMeasured(run);
    const auto it = s.collectives.find("all_reduce");
    if (s.stepsCompleted <= 0 || it == s.collectives.end()) return std::nullopt;
    return PredictionMeasurement{static_cast<double>(it->second.count) / s.stepsCompleted, 0.0, "count"};
  }
  return std::nullopt;
}

std::optional<double> parsePredictionValue(std::string_view kind, const std::string& input) {
  std::string s = input;
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  std::replace(s.begin(), s.end(), ',', '.');
  if (s.empty()) return std::nullopt;
  if (kind == "bytes") {
    if (auto b = parseBytes(s)) return static_cast<double>(*b);
  }
  if (kind == "percent" && s.back() == '%') s.pop_back();
  if (kind == "milliseconds" && s.size() > 2 && s.ends_with("ms")) s.resize(s.size() - 2);
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used != s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

} // namespace shardlab::quiz
