#include "quiz/bank/Attempt.h"

#include <algorithm>
#include <numeric>
#include <string_view>

namespace shardlab::quiz {

namespace {

class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t state) : state_(state) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by rejection, so every permutation is equally likely.
  std::uint64_t below(std::uint64_t bound) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    std::uint64_t x;
    do x = next();
    while (x >= limit);
    return x % bound;
  }

private:
  std::uint64_t state_;
};

std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001B3ULL;
  }
  return h;
}

template <class T> void fisherYates(std::vector<T>& items, SplitMix64& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.below(i));
    std::swap(items[i - 1], items[j]);
  }
}

} // namespace

std::vector<std::size_t> Attempt::permutation(std::size_t n, std::uint64_t seed, std::string_view questionId) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  SplitMix64 rng(seed ^ fnv1a(questionId));
  fisherYates(order, rng);
  return order;
}

Attempt Attempt::create(const std::vector<Question>& questions, std::uint64_t seed, bool shuffleQuestions) {
  Attempt a;
  a.seed_ = seed;
  for (const auto& q : questions) {
    AttemptItem item;
    item.question = q;
    item.order = permutation(q.choices.size(), seed, q.id);
    const auto correct = q.correctIndex();
    item.correctShown = static_cast<std::size_t>(
        std::find(item.order.begin(), item.order.end(), correct) - item.order.begin());
    a.items_.push_back(std::move(item));
  }
  if (shuffleQuestions) {
    SplitMix64 rng(seed ^ 0x5155495A4F524445ULL);
    fisherYates(a.items_, rng);
  }
  return a;
}

} // namespace shardlab::quiz
