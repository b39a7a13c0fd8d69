#include "quiz/progress/Score.h"

#include <stdexcept>
#include <string>

namespace shardlab::quiz {

Score::Score(const Attempt& attempt) {
  for (const auto& item : attempt.items()) {
    correctShown_.push_back(item.correctShown);
    choiceCounts_.push_back(item.order.size());
  }
  answers_.resize(correctShown_.size());
}

bool Score::answer(std::size_t item, std::size_t shownChoice) {
  if (item >= total()) throw std::out_of_range("no question " + std::to_string(item) + " in this attempt");
  if (shownChoice >= choiceCounts_[item])
    throw std::out_of_range("question " + std::to_string(item) + " has no choice " + std::to_string(shownChoice));
  answers_[item] = shownChoice;
  return shownChoice == correctShown_[item];
}

std::size_t Score::answered() const {
  std::size_t n = 0;
  for (const auto& a : answers_) n += a.has_value() ? 1 : 0;
  return n;
}

std::size_t Score::correct() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < answers_.size(); ++i) n += (answers_[i] && *answers_[i] == correctShown_[i]) ? 1 : 0;
  return n;
}

double Score::percent() const {
  if (total() == 0) return 0.0;
  return 100.0 * static_cast<double>(correct()) / static_cast<double>(total());
}

std::optional<bool> Score::isCorrect(std::size_t item) const {
  const auto& a = answers_.at(item);
  if (!a) return std::nullopt;
  return *a == correctShown_[item];
}

} // namespace shardlab::quiz
