#include "quiz/export/JsonExporter.h"

#include "quiz/bank/Attempt.h"

#include <nlohmann/json.hpp>

namespace shardlab::quiz {

std::string JsonExporter::render(const QuestionBank& bank, std::string_view lang, std::uint64_t seed) {
  nlohmann::json quizzes = nlohmann::json::array();
  for (const auto& quiz : bank.quizzes()) {
    nlohmann::json questions = nlohmann::json::array();
    const auto attempt = Attempt::create(bank.ofQuiz(quiz.id), seed);
    for (const auto& item : attempt.items()) {
      const auto& q = item.question;
      nlohmann::json choices = nlohmann::json::array();
      for (std::size_t shown = 0; shown < item.order.size(); ++shown)
        choices.push_back({{"text", item.shownChoice(shown).get(lang)}, {"correct", shown == item.correctShown}});
      nlohmann::json evidence = nullptr;
      if (q.evidence) evidence = {{"lesson", q.evidence->lesson}, {"moment", q.evidence->moment}};
      questions.push_back({{"id", q.id}, {"text", q.text.get(lang)}, {"choices", choices},
                           {"explanation", q.explanation.get(lang)}, {"evidence", evidence}});
    }
    quizzes.push_back({{"id", quiz.id}, {"title", quiz.title.get(lang)}, {"questions", questions}});
  }
  nlohmann::json doc = {{"format", 1}, {"lang", std::string(lang)}, {"quizzes", quizzes}};
  return doc.dump(2) + "\n";
}

} // namespace shardlab::quiz
