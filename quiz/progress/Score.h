// The learner's answers to one Attempt and the resulting score.
#pragma once

#include "quiz/bank/Attempt.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace shardlab::quiz {

class Score {
public:
  explicit Score(const Attempt& attempt);

  // Records the choice shown at `shownChoice` for item `item` (a later answer
  // replaces an earlier one); returns whether it is correct. Throws
  // std::out_of_range for an item or choice that does not exist.
  bool answer(std::size_t item, std::size_t shownChoice);

  std::size_t total() const { return correctShown_.size(); }
  std::size_t answered() const;
  std::size_t correct() const;
  bool complete() const { return answered() == total(); }
  // Correct answers over all questions, 0..100 (0 for an empty attempt).
  double percent() const;
  std::optional<bool> isCorrect(std::size_t item) const;
  std::optional<std::size_t> shownAnswer(std::size_t item) const { return answers_.at(item); }

private:
  std::vector<std::size_t> correctShown_;
  std::vector<std::size_t> choiceCounts_;
  std::vector<std::optional<std::size_t>> answers_;
};

} // namespace shardlab::quiz
