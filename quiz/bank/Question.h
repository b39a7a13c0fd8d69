// One multiple-choice question of the bank, in every language.
#pragma once

#include "quiz/bank/LocalizedText.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace shardlab::quiz {

// The moment of a lesson's run that shows the answer (moment ids: KnownIds.h).
struct Evidence {
  std::string lesson;
  std::string moment;
};

struct Choice {
  LocalizedText text;
  bool correct = false;
};

struct Question {
  std::string id;   // "fsdp-3"
  std::string quiz; // id of the quiz file it belongs to: "fsdp"
  LocalizedText text;
  std::vector<Choice> choices; // in file order; exactly one is correct
  LocalizedText explanation;
  std::optional<Evidence> evidence; // nullopt: no run shows it

  std::size_t correctIndex() const {
    for (std::size_t i = 0; i < choices.size(); ++i)
      if (choices[i].correct) return i;
    return 0;
  }
};

// A quiz file of the bank: a topic with its questions.
struct QuizInfo {
  std::string id; // "fsdp"
  LocalizedText title;
  std::filesystem::path file;
};

} // namespace shardlab::quiz
