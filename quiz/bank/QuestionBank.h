// The question bank: every quiz file under assets/quiz/, loaded and validated.
// Rules (each a diagnostic with file, JSON pointer and rule id): json-syntax,
// missing-field, wrong-type, unknown-key, bad-id, missing-language, empty-text,
// unknown-language, choice-count (exactly 4), correct-count (exactly one correct),
// duplicate-id (across all files), unknown-lesson, unknown-moment, format.
#pragma once

#include "quiz/bank/Diagnostics.h"
#include "quiz/bank/Question.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab::quiz {

class QuestionBank {
public:
  static constexpr int kFormat = 1;
  static constexpr std::size_t kChoiceCount = 4;

  // Loads what is valid and reports everything that is not.
  static QuestionBank load(const std::vector<std::filesystem::path>& files, Diagnostics& diagnostics);
  // Every *.json of `dir`, sorted by name; throws ValidationError on any error.
  static QuestionBank loadDirectory(const std::filesystem::path& dir);
  static std::vector<std::filesystem::path> jsonFilesIn(const std::filesystem::path& dir);

  const std::vector<Question>& questions() const { return questions_; }
  const std::vector<QuizInfo>& quizzes() const { return quizzes_; }
  const Question* find(std::string_view id) const;
  std::vector<Question> ofQuiz(std::string_view quizId) const;

private:
  void loadFile(const std::filesystem::path& file, Diagnostics& diagnostics);

  std::vector<Question> questions_;
  std::vector<QuizInfo> quizzes_;
  std::map<std::string, std::string> idPlaces_; // id -> "file /questions/N" of its first use
};

} // namespace shardlab::quiz
