#include "quiz/bank/QuestionBank.h"
#include "quiz/progress/Score.h"
#include "TestSupport.h"

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {
Attempt fsdpAttempt(std::uint64_t seed) {
  return Attempt::create(bank().ofQuiz("fsdp"), seed);
}
} // namespace

TEST(Score, CountsCorrectShownChoices) {
  const auto a = fsdpAttempt(9);
  Score s(a);
  EXPECT_EQ(s.total(), 8u);
  EXPECT_EQ(s.answered(), 0u);
  EXPECT_TRUE(s.answer(0, a.items()[0].correctShown));
  EXPECT_FALSE(s.answer(1, (a.items()[1].correctShown + 1) % 4));
  EXPECT_TRUE(s.answer(2, a.items()[2].correctShown));
  EXPECT_EQ(s.answered(), 3u);
  EXPECT_EQ(s.correct(), 2u);
  EXPECT_FALSE(s.complete());
  EXPECT_DOUBLE_EQ(s.percent(), 25.0);
  EXPECT_EQ(s.isCorrect(1), false);
  EXPECT_EQ(s.isCorrect(3), std::nullopt);
}

TEST(Score, FileOrderAnswersDoNotScoreFullMarks) {
  // Answering "a, b, c, d, a, b, c, d" (the source's key pattern) on a shuffled attempt.
  const auto a = fsdpAttempt(17);
  Score s(a);
  for (std::size_t i = 0; i < a.size(); ++i) s.answer(i, i % 4);
  EXPECT_TRUE(s.complete());
  EXPECT_LT(s.correct(), 8u);
}

TEST(Score, AllCorrectIs100AndReansweringReplaces) {
  const auto a = fsdpAttempt(3);
  Score s(a);
  for (std::size_t i = 0; i < a.size(); ++i) s.answer(i, a.items()[i].correctShown);
  EXPECT_DOUBLE_EQ(s.percent(), 100.0);
  s.answer(0, (a.items()[0].correctShown + 1) % 4);
  EXPECT_EQ(s.correct(), 7u);
  EXPECT_EQ(s.answered(), 8u);
}

TEST(Score, RejectsUnknownQuestionOrChoice) {
  const auto a = fsdpAttempt(3);
  Score s(a);
  EXPECT_THROW(s.answer(8, 0), std::out_of_range);
  EXPECT_THROW(s.answer(0, 4), std::out_of_range);
  EXPECT_EQ(s.answered(), 0u);
}
