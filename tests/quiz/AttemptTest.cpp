#include "quiz/bank/Attempt.h"
#include "quiz/bank/QuestionBank.h"
#include "TestSupport.h"

#include <algorithm>
#include <map>
#include <set>

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

TEST(Attempt, SameSeedSameOrder) {
  const auto a = Attempt::create(bank().questions(), 42);
  const auto b = Attempt::create(bank().questions(), 42);
  ASSERT_EQ(a.size(), 20u);
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a.items()[i].order, b.items()[i].order);
}

TEST(Attempt, EachOrderIsAPermutationAndKeepsTheCorrectText) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const auto a = Attempt::create(bank().questions(), seed);
    for (const auto& item : a.items()) {
      auto sorted = item.order;
      std::sort(sorted.begin(), sorted.end());
      ASSERT_EQ(sorted, (std::vector<std::size_t>{0, 1, 2, 3}));
      const auto& q = item.question;
      for (const char* lang : {"en", "fr", "ru"})
        ASSERT_EQ(item.shownChoice(item.correctShown).get(lang), q.choices[q.correctIndex()].text.get(lang));
      for (std::size_t shown = 0; shown < 4; ++shown)
        if (shown != item.correctShown) {
          ASSERT_FALSE(q.choices[item.order[shown]].correct);
        }
    }
  }
}

TEST(Attempt, CorrectPositionVariesAcrossSeeds) {
  // Over many seeds, every question's correct answer lands in every position, and
  // in no position much more often than 1/4 of the time.
  constexpr int kSeeds = 400;
  for (const auto& q : bank().questions()) {
    std::map<std::size_t, int> counts;
    for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
      const auto a = Attempt::create({q}, seed);
      ++counts[a.items()[0].correctShown];
    }
    ASSERT_EQ(counts.size(), 4u) << q.id;
    for (const auto& [pos, n] : counts) EXPECT_LT(n, kSeeds / 4 + 60) << q.id << " position " << pos;
  }
}

TEST(Attempt, OneAttemptDoesNotFollowTheFilePattern) {
  // The bank's key is 0,1,2,3,0,1,2,3 by file order; a shuffled attempt must not be.
  int samePattern = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const auto a = Attempt::create(bank().ofQuiz("fsdp"), seed);
    bool same = true;
    for (std::size_t i = 0; i < a.size(); ++i) same = same && a.items()[i].correctShown == i % 4;
    samePattern += same ? 1 : 0;
  }
  EXPECT_EQ(samePattern, 0);
}

TEST(Attempt, DifferentSeedsGiveDifferentOrders) {
  const auto a = Attempt::create(bank().questions(), 1);
  const auto b = Attempt::create(bank().questions(), 2);
  int differing = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differing += a.items()[i].order != b.items()[i].order ? 1 : 0;
  EXPECT_GT(differing, 8);
}

TEST(Attempt, QuestionOrderShufflesOnlyOnRequest) {
  const auto kept = Attempt::create(bank().questions(), 5);
  for (std::size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(kept.items()[i].question.id, bank().questions()[i].id);
  const auto shuffled = Attempt::create(bank().questions(), 5, true);
  std::set<std::string> ids;
  int moved = 0;
  for (std::size_t i = 0; i < shuffled.size(); ++i) {
    ids.insert(shuffled.items()[i].question.id);
    moved += shuffled.items()[i].question.id != bank().questions()[i].id ? 1 : 0;
  }
  EXPECT_EQ(ids.size(), 20u);
  EXPECT_GT(moved, 0);
}

TEST(Attempt, PermutationIsStableAcrossPlatforms) {
  // Pinned values: the shuffle uses its own generator (SplitMix64 + Fisher-Yates),
  // not std::shuffle, so a saved attempt replays the same on every platform.
  using V = std::vector<std::size_t>;
  EXPECT_EQ(Attempt::permutation(4, 12345, "pipeline-3"), (V{2, 1, 3, 0}));
  EXPECT_EQ(Attempt::permutation(4, 42, "fsdp-1"), (V{2, 3, 1, 0}));
  EXPECT_EQ(Attempt::permutation(4, 7, "fsdp-8"), (V{3, 0, 2, 1}));
}
