// The plural rule of each language and the texts built with it: "{ranks|ранг|ранга|рангов}"
// gives "4 ранга", never "4 рангов"; numbers and sizes follow the language's conventions.
#include "quiz/bank/Plural.h"
#include "quiz/observations/ObservationText.h"

#include <stdexcept>

#include <gtest/gtest.h>

using namespace shardlab::quiz;

TEST(Plural, RussianOneFewMany) {
  for (int n : {1, 21, 101, 1001}) EXPECT_EQ(pluralForm("ru", n), 0) << n;
  for (int n : {2, 3, 4, 22, 34, 102}) EXPECT_EQ(pluralForm("ru", n), 1) << n;
  for (int n : {0, 5, 6, 11, 12, 13, 14, 20, 111, 112}) EXPECT_EQ(pluralForm("ru", n), 2) << n;
}

TEST(Plural, FrenchCountsZeroAndOneAsSingular) {
  EXPECT_EQ(pluralForm("fr", 0), 0);
  EXPECT_EQ(pluralForm("fr", 1), 0);
  EXPECT_EQ(pluralForm("fr", 2), 1);
  EXPECT_EQ(pluralForm("fr", 8), 1);
}

TEST(Plural, EnglishSingularOnlyForOne) {
  EXPECT_EQ(pluralForm("en", 0), 1);
  EXPECT_EQ(pluralForm("en", 1), 0);
  EXPECT_EQ(pluralForm("en", 4), 1);
}

TEST(Plural, WithNounPicksTheForm) {
  EXPECT_EQ(withNoun("ru", 4, "ранг|ранга|рангов"), "4 ранга");
  EXPECT_EQ(withNoun("ru", 11, "ранг|ранга|рангов"), "11 рангов");
  EXPECT_EQ(withNoun("ru", 21, "ранг|ранга|рангов"), "21 ранг");
  EXPECT_EQ(withNoun("fr", 1, "rang|rangs"), "1 rang");
  EXPECT_EQ(withNoun("fr", 2, "rang|rangs"), "2 rangs");
  EXPECT_EQ(withNoun("en", 1, "rank|ranks"), "1 rank");
  EXPECT_EQ(withNoun("ru", 5, "шаг"), "5 шаг"); // one form given: it stands for all
}

// The message's own plural forms, filled from the shipped assets/observations/fsdp.json.
TEST(ObservationText, FillsPluralPlaceholdersPerLanguage) {
  const auto t = text::message("collective-count.ddp-question", {{"ranks", "4"}, {"units", "6"}});
  EXPECT_NE(t.get("en").find("(4 ranks, 6 units)"), std::string::npos) << t.get("en");
  EXPECT_NE(t.get("fr").find("(4 rangs, 6 unités)"), std::string::npos) << t.get("fr");
  EXPECT_NE(t.get("ru").find("(4 ранга, 6 модулей)"), std::string::npos) << t.get("ru");
  const auto one = text::message("collective-count.ddp-question", {{"ranks", "21"}, {"units", "1"}});
  EXPECT_NE(one.get("ru").find("(21 ранг, 1 модуль)"), std::string::npos) << one.get("ru");
}

TEST(ObservationText, AMissingParameterOrAnUndeclaredIdIsAProgrammingError) {
  EXPECT_THROW(text::message("collective-count.ddp-question", {{"ranks", "4"}}), std::logic_error);
  EXPECT_THROW(text::message("no-such-message"), std::logic_error);
}

TEST(ObservationText, NumbersAndSizesFollowTheLanguage) {
  EXPECT_EQ(text::localNumber("en", "1.50 MiB"), "1.50 MiB");
  EXPECT_EQ(text::localNumber("fr", "1.50 MiB"), "1,50 Mio");
  EXPECT_EQ(text::localNumber("ru", "1.50 MiB"), "1,50 МиБ");
  EXPECT_EQ(text::localNumber("fr", "129.3 KiB"), "129,3 Kio");
  EXPECT_EQ(text::localNumber("ru", "129.3 KiB"), "129,3 КиБ");
  EXPECT_EQ(text::localNumber("fr", "512 B"), "512 o");
  EXPECT_EQ(text::localNumber("ru", "12.5 %"), "12,5 %");
  EXPECT_EQ(text::localNumber("fr", "block.1"), "block.1"); // only a point between digits is a decimal point
  const auto t = text::same("0.273");
  EXPECT_EQ(t.get("en"), "0.273");
  EXPECT_EQ(t.get("fr"), "0,273");
  EXPECT_EQ(t.get("ru"), "0,273");
}
