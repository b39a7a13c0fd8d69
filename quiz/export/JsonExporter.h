// The question bank in one language as plain JSON for other tools:
// {"format":1,"lang":..,"quizzes":[{"id","title","questions":[{"id","text",
// "choices":[{"text","correct"}],"explanation","evidence"}]}]}, choices in the
// order of Attempt::permutation(seed).
#pragma once

#include "quiz/bank/QuestionBank.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace shardlab::quiz {

class JsonExporter {
public:
  static std::string render(const QuestionBank& bank, std::string_view lang, std::uint64_t seed = 1);
};

} // namespace shardlab::quiz
