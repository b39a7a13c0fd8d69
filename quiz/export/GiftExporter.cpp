#include "quiz/export/GiftExporter.h"

#include "quiz/bank/Attempt.h"

namespace shardlab::quiz {

std::string GiftExporter::escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '\\': case '~': case '=': case '#': case '{': case '}': case ':':
      out += '\\';
      out += c;
      break;
    case '\n': out += "\\n"; break;
    case '\r': break;
    default: out += c;
    }
  }
  return out;
}

std::string GiftExporter::render(const QuestionBank& bank, std::string_view lang, std::uint64_t seed) {
  std::string g = "// ShardLab question bank (" + std::string(lang) + "), exported by shardlab-quiz\n\n";
  for (const auto& quiz : bank.quizzes()) {
    g += "$CATEGORY: $course$/top/ShardLab/" + quiz.id + "\n\n";
    const auto attempt = Attempt::create(bank.ofQuiz(quiz.id), seed);
    for (const auto& item : attempt.items()) {
      const auto& q = item.question;
      g += "::" + escape(q.id) + "::[plain]" + escape(q.text.get(lang)) + " {\n";
      for (std::size_t shown = 0; shown < item.order.size(); ++shown)
        g += std::string(shown == item.correctShown ? "\t=" : "\t~") + escape(item.shownChoice(shown).get(lang)) + "\n";
      g += "\t####" + escape(q.explanation.get(lang)) + "\n}\n\n";
    }
  }
  return g;
}

} // namespace shardlab::quiz
