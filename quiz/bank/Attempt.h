// One sitting of a quiz: the questions with each one's choices in a shuffled
// order. The bank keeps the source's choice order (where the key is always
// 1,2,3,4,1,2,3,4), so nothing may show choices without going through here.
// The order depends only on (seed, question id): the same seed gives the same
// attempt on every platform (own SplitMix64 + Fisher-Yates, no std::shuffle).
#pragma once

#include "quiz/bank/Question.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace shardlab::quiz {

struct AttemptItem {
  Question question;
  std::vector<std::size_t> order; // order[shown position] = index in question.choices
  std::size_t correctShown = 0;   // shown position of the correct choice

  const LocalizedText& shownChoice(std::size_t shown) const { return question.choices.at(order.at(shown)).text; }
};

class Attempt {
public:
  // Every question in the given order, choices shuffled; with shuffleQuestions
  // the question order is shuffled too.
  static Attempt create(const std::vector<Question>& questions, std::uint64_t seed, bool shuffleQuestions = false);
  // The permutation of n choices for one question (exposed for the exporters and tests).
  static std::vector<std::size_t> permutation(std::size_t n, std::uint64_t seed, std::string_view questionId);

  std::uint64_t seed() const { return seed_; }
  const std::vector<AttemptItem>& items() const { return items_; }
  std::size_t size() const { return items_.size(); }

private:
  std::uint64_t seed_ = 0;
  std::vector<AttemptItem> items_;
};

} // namespace shardlab::quiz
