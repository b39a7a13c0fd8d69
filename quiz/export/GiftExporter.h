// The question bank in one language as Moodle GIFT: "::id::[plain]text{ =right
// ~wrong ... ####explanation }", a $CATEGORY per quiz. Special characters
// ~ = # { } : and the backslash are escaped with a backslash; line breaks as \n.
#pragma once

#include "quiz/bank/QuestionBank.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace shardlab::quiz {

class GiftExporter {
public:
  static std::string render(const QuestionBank& bank, std::string_view lang, std::uint64_t seed = 1);
  static std::string escape(std::string_view text);
};

} // namespace shardlab::quiz
