#include "quiz/export/MoodleXmlExporter.h"

#include "quiz/bank/Attempt.h"

namespace shardlab::quiz {

namespace {

std::string htmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

} // namespace

std::string MoodleXmlExporter::cdata(std::string_view text) {
  // After escaping, the text holds no '>' and so cannot end the CDATA section.
  return "<![CDATA[" + htmlEscape(text) + "]]>";
}

std::string MoodleXmlExporter::render(const QuestionBank& bank, std::string_view lang, std::uint64_t seed) {
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n";
  for (const auto& quiz : bank.quizzes()) {
    x += "  <question type=\"category\">\n    <category><text>$course$/top/ShardLab/" + htmlEscape(quiz.id) +
         "</text></category>\n    <info format=\"html\"><text>" + cdata(quiz.title.get(lang)) +
         "</text></info>\n  </question>\n";
    const auto attempt = Attempt::create(bank.ofQuiz(quiz.id), seed);
    for (const auto& item : attempt.items()) {
      const auto& q = item.question;
      x += "  <question type=\"multichoice\">\n";
      x += "    <name><text>" + htmlEscape(q.id) + "</text></name>\n";
      x += "    <questiontext format=\"html\"><text>" + cdata(q.text.get(lang)) + "</text></questiontext>\n";
      x += "    <generalfeedback format=\"html\"><text>" + cdata(q.explanation.get(lang)) + "</text></generalfeedback>\n";
      x += "    <defaultgrade>1</defaultgrade>\n    <penalty>0.3333333</penalty>\n    <hidden>0</hidden>\n";
      x += "    <idnumber>" + htmlEscape(q.id) + "</idnumber>\n";
      x += "    <single>true</single>\n    <shuffleanswers>1</shuffleanswers>\n    <answernumbering>abc</answernumbering>\n";
      for (std::size_t shown = 0; shown < item.order.size(); ++shown) {
        const bool correct = shown == item.correctShown;
        x += std::string("    <answer fraction=\"") + (correct ? "100" : "0") + "\" format=\"html\">\n";
        x += "      <text>" + cdata(item.shownChoice(shown).get(lang)) + "</text>\n";
        x += "      <feedback format=\"html\"><text></text></feedback>\n    </answer>\n";
      }
      x += "  </question>\n";
    }
  }
  x += "</quiz>\n";
  return x;
}

} // namespace shardlab::quiz
