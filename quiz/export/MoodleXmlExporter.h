// The question bank in one language as Moodle XML: a category per quiz, then
// <question type="multichoice"> with <single>true</single>,
// <shuffleanswers>1</shuffleanswers>, one <answer fraction="100"> and three
// fraction="0". Texts are HTML-escaped inside CDATA. Choices are written in the
// order of Attempt::permutation(seed), not the bank's.
#pragma once

#include "quiz/bank/QuestionBank.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace shardlab::quiz {

class MoodleXmlExporter {
public:
  static std::string render(const QuestionBank& bank, std::string_view lang, std::uint64_t seed = 1);
  // & < > " escaped, wrapped in <![CDATA[...]]>.
  static std::string cdata(std::string_view text);
};

} // namespace shardlab::quiz
