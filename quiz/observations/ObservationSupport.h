// Internal helpers of the observation templates (Observation*.cpp, also used by
// EvidenceMoment and PredictionCheck): the run's strategy and model size, building a
// 4-choice question with distinct choices, picking plausible wrong numbers, the
// lesson of a strategy. Not part of the quiz library's interface.
#pragma once

#include "quiz/observations/Observation.h"
#include "quiz/observations/ObservationText.h"

#include "job/JobConfig.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace shardlab::quiz::observation {

// The strategy the trace's job ran (Trace::config()); nullopt when it has no job record.
std::optional<StrategyKind> strategyOf(const trace::Trace& t);
// The model's fp32 parameter bytes (JobConfig::modelJson); 0 without a job record.
std::int64_t modelBytes(const trace::Trace& t);
int blockCount(const trace::Trace& t);
// The lesson that teaches a strategy's run: ddp-replicas, fsdp-shard-gather-free, ...
std::string lessonFor(const trace::Trace& t);

struct Draft {
  std::string templateId, lesson, moment;
  LocalizedText text, correct;
  std::vector<LocalizedText> wrong; // candidates, best first; the first 3 distinct ones are used
  LocalizedText explanation;
  std::optional<NumericAnswer> numeric;
  int evidenceRun = 0;
};

// The question with the correct choice first and three distinct wrong ones; nullopt
// when fewer than three distinct wrong choices exist. Finds the evidence moment in
// the evidence run (its sentence is shown beside the explanation, not inside it).
std::optional<ObservedQuestion> finish(Draft draft, const ObservationInput& in);

// Up to `count` candidates that differ from `correct` and from each other by at
// least `minGap` (relative to the larger value when `relative`, else absolute).
std::vector<double> distinctFrom(double correct, const std::vector<double>& candidates, double minGap, bool relative,
                                 std::size_t count = 3);

// "DDP", "FSDP", "pipeline", "tensor-parallel" in each language.
LocalizedText strategyName(StrategyKind strategy);
// A memory category's name in each language ("optimizer state", "état de
// l'optimiseur", "состояние оптимизатора"), never its raw id.
LocalizedText categoryName(trace::Category category);
// The same text in all three languages (a number, a unit name).
LocalizedText same(const std::string& s);

std::vector<std::unique_ptr<ObservationTemplate>> fsdpTemplates();
std::vector<std::unique_ptr<ObservationTemplate>> memoryTemplates();
std::vector<std::unique_ptr<ObservationTemplate>> modelParallelTemplates();

} // namespace shardlab::quiz::observation
