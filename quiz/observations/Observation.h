// Observation questions: multiple-choice questions generated from the learner's
// own trace(s). Each template reads the run through summarize() (so its numbers
// are the ones the app and shardlab-run show), computes the answer from the trace,
// builds plausible wrong choices, writes the text in en/fr/ru and points at the
// moment of the run that shows the answer. A template whose data is missing (a DDP
// run has no all-gather; a run that stopped has no step) yields no question.
#pragma once

#include "quiz/observations/EvidenceMoment.h"
#include "quiz/bank/Question.h"

#include "trace/Summary.h"
#include "trace/Trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab::quiz {

// The quiz id observation questions carry (Question::quiz).
inline constexpr std::string_view kObservationQuiz = "observations";

// A numeric answer: right when |given - value| <= tolerance.
struct NumericAnswer {
  double value = 0;
  double tolerance = 0;
  std::string unit; // bytes | count | ratio | fraction
  bool accepts(double given) const { return given >= value - tolerance && given <= value + tolerance; }
};

// One run (or two to compare) to ask about. The summaries are summarize() of the traces.
struct ObservationInput {
  const trace::Trace& trace;
  const trace::Summary& summary;
  const trace::Trace* second = nullptr;
  const trace::Summary* secondSummary = nullptr;
};

struct ObservedQuestion {
  std::string templateId;
  // id "obs-<template>", quiz "observations", exactly 4 choices (the first is the
  // correct one in this source order: show them through Attempt), evidence {lesson, moment}.
  Question question;
  std::optional<NumericAnswer> numeric;
  int evidenceRun = 0; // 0: the first trace, 1: the second
  std::optional<MomentLocation> evidenceAt; // the moment found in that run, when it has it

  // {"id","template","text","choices":[{"text","correct"}] (shuffled for seed),"answer","numeric",
  //  "explanation","evidence":{"lesson","moment","run","time_ns",...,"sentence"}}
  nlohmann::json toJson(std::string_view lang, std::uint64_t seed) const;
};

class ObservationTemplate {
public:
  virtual ~ObservationTemplate() = default;
  virtual std::string id() const = 0;
  virtual bool needsTwoRuns() const { return false; }
  // nullopt when the run(s) lack what the question is about.
  virtual std::optional<ObservedQuestion> generate(const ObservationInput& in) const = 0;
};

// Every template, in a fixed order (Observation.cpp gathers those of ObservationFsdp,
// ObservationMemory and ObservationModelParallel).
const std::vector<std::unique_ptr<ObservationTemplate>>& observationTemplates();
std::vector<std::string> observationTemplateIds();
const ObservationTemplate* findObservationTemplate(std::string_view id);

// The questions every template (or only those of `only`, when given) makes of the
// run(s). Templates that need two runs are tried on (trace, second) and (second, trace).
std::vector<ObservedQuestion> observe(const trace::Trace& trace, const trace::Trace* second = nullptr,
                                      const std::vector<std::string>* only = nullptr);

} // namespace shardlab::quiz
