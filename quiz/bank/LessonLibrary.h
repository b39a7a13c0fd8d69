// Every lesson under assets/lessons/ (one <id>.json each, guides beside it),
// loaded and validated against the fixed lesson ids, the job settings rules
// and the question bank.
#pragma once

#include "quiz/bank/Diagnostics.h"
#include "quiz/bank/Lesson.h"
#include "quiz/bank/QuestionBank.h"

#include <filesystem>
#include <string_view>
#include <vector>

namespace shardlab::quiz {

class LessonLibrary {
public:
  static constexpr int kFormat = 1;

  // `bank` may be null: question ids are then not checked.
  static LessonLibrary load(const std::filesystem::path& dir, const QuestionBank* bank, Diagnostics& diagnostics);
  // Throws ValidationError on any error.
  static LessonLibrary loadDirectory(const std::filesystem::path& dir, const QuestionBank* bank);
  // One lesson file; nullopt (with diagnostics) when invalid.
  static std::optional<Lesson> loadFile(const std::filesystem::path& file, const QuestionBank* bank,
                                        Diagnostics& diagnostics);

  const std::vector<Lesson>& lessons() const { return lessons_; }
  const Lesson* find(std::string_view id) const;

private:
  std::vector<Lesson> lessons_;
};

} // namespace shardlab::quiz
