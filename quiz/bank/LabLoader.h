// Loads and validates an instructor's lab file. Every error is collected (not
// just the first), each naming the lab file, the JSON pointer and the rule:
// json-syntax, format, missing-field, wrong-type, unknown-key, bad-id,
// missing-language, unknown-lesson, unknown-question, unknown-observation,
// path-outside-folder, file-not-found, empty, and for the job settings the ids of
// the engine's rules (engine/job/JobRules.cpp: choice, range, batch-divisible-by-ranks, ...).
#pragma once

#include "quiz/bank/Diagnostics.h"
#include "quiz/bank/Lab.h"
#include "quiz/bank/LessonLibrary.h"
#include "quiz/bank/QuestionBank.h"

#include <filesystem>
#include <optional>
#include <set>
#include <string>

namespace shardlab::quiz {

class LabLoader {
public:
  static constexpr int kFormat = 1;

  // With `observationTemplates` unset, observation ids are only checked for
  // form; once the templates exist, pass their ids to check them too.
  LabLoader(const QuestionBank& bank, const LessonLibrary& lessons,
            std::optional<std::set<std::string>> observationTemplates = std::nullopt)
      : bank_(bank), lessons_(lessons), observationTemplates_(std::move(observationTemplates)) {}

  // The lab when valid; nullopt with every problem in `diagnostics` otherwise.
  std::optional<Lab> load(const std::filesystem::path& file, Diagnostics& diagnostics) const;
  // Throws ValidationError.
  Lab loadOrThrow(const std::filesystem::path& file) const;

private:
  const QuestionBank& bank_;
  const LessonLibrary& lessons_;
  std::optional<std::set<std::string>> observationTemplates_;
};

} // namespace shardlab::quiz
