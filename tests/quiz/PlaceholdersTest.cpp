#include "quiz/bank/LessonLibrary.h"
#include "quiz/bank/Placeholders.h"
#include "TestSupport.h"

using namespace shardlab;
using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {

PlaceholderValues values(int ranks) {
  PlaceholderValues v;
  v.job.strategy = StrategyKind::Pipeline;
  v.job.ranks = ranks;
  v.job.layers = 6;
  v.job.hidden = 384;
  v.job.batch = 256;
  v.job.steps = 10;
  v.job.microbatches = 8;
  v.cores = 2;
  v.gpus = 0;
  return v;
}

} // namespace

TEST(Placeholders, RussianNumbersAgreeWithTheirNoun) {
  const std::string text = "{ranks|ранг|ранга|рангов}";
  EXPECT_EQ(fillPlaceholders(text, "ru", values(1)), "1 ранг");
  EXPECT_EQ(fillPlaceholders(text, "ru", values(2)), "2 ранга");
  EXPECT_EQ(fillPlaceholders(text, "ru", values(4)), "4 ранга");
  EXPECT_EQ(fillPlaceholders(text, "ru", values(5)), "5 рангов");
  EXPECT_EQ(fillPlaceholders(text, "ru", values(11)), "11 рангов");
  EXPECT_EQ(fillPlaceholders(text, "ru", values(12)), "12 рангов");
  EXPECT_EQ(fillPlaceholders(text, "ru", values(21)), "21 ранг");
  EXPECT_EQ(fillPlaceholders(text, "ru", values(22)), "22 ранга");
  EXPECT_EQ(fillPlaceholders(text, "ru", values(64)), "64 ранга");
  EXPECT_EQ(pluralForm("ru", 0), 2);
}

TEST(Placeholders, FrenchCountsZeroAndOneAsSingularEnglishOnlyOne) {
  EXPECT_EQ(fillPlaceholders("{ranks|rang|rangs}", "fr", values(1)), "1 rang");
  EXPECT_EQ(fillPlaceholders("{ranks|rang|rangs}", "fr", values(2)), "2 rangs");
  EXPECT_EQ(pluralForm("fr", 0), 0);
  EXPECT_EQ(pluralForm("en", 0), 1);
  EXPECT_EQ(fillPlaceholders("{ranks|rank|ranks}", "en", values(1)), "1 rank");
  EXPECT_EQ(fillPlaceholders("{ranks|rank|ranks}", "en", values(3)), "3 ranks");
}

TEST(Placeholders, EveryNameIsFilledFromTheJobAndTheMachine) {
  auto v = values(4);
  v.job.schedule = Schedule::Interleaved;
  v.job.virtualStages = 2;
  v.gpus = 1;
  EXPECT_EQ(fillPlaceholders("{ranks} {stages} {microbatches} {virtual_stages} {layers} {units} {hidden} {batch} "
                             "{steps} {cores} {gpus}",
                             "en", v),
            "4 4 8 2 6 8 384 256 10 2 1");
  EXPECT_EQ(fillPlaceholders("no placeholder; a } alone", "en", v), "no placeholder; a } alone");
}

TEST(Placeholders, UnknownNamesAndWrongFormCountsAreReportedByLine) {
  const auto issues = checkPlaceholders("line one {ranks}\n\nthe {gpu_count} and {ranks|ранг|ранга}\n{cores", "ru");
  ASSERT_EQ(issues.size(), 3u);
  EXPECT_EQ(issues[0].line, 3);
  EXPECT_NE(issues[0].message.find("unknown placeholder {gpu_count}"), std::string::npos) << issues[0].message;
  EXPECT_EQ(issues[1].line, 3);
  EXPECT_NE(issues[1].message.find("ru needs 3"), std::string::npos) << issues[1].message;
  EXPECT_EQ(issues[2].line, 4);
  EXPECT_TRUE(checkPlaceholders("{ranks|rang|rangs}", "fr").empty());
  EXPECT_FALSE(checkPlaceholders("{ranks|rang|rangs}", "ru").empty());
}

TEST(Placeholders, AGuideWithAnUnknownPlaceholderIsRefusedNamingFileAndLine) {
  TempDir dir;
  auto doc = readJson(assetsDir() / "lessons" / "pipeline-bubble.json");
  doc["guide"] = nlohmann::json::object();
  for (const auto* lang : {"en", "fr", "ru"}) {
    writeText(dir.path() / (std::string("g.") + lang + ".md"), "# Title\n\nWith {ranks} ranks.\n");
    doc["guide"][lang] = std::string("g.") + lang + ".md";
  }
  writeText(dir.path() / "g.fr.md", "# Titre\n\nAvec {rangs} rangs.\n");
  const auto file = dir.path() / "pipeline-bubble.json";
  writeText(file, doc.dump());
  Diagnostics d;
  EXPECT_FALSE(LessonLibrary::loadFile(file, &bank(), d));
  EXPECT_DIAGNOSTIC(d, dir.path() / "g.fr.md", "placeholder", "line 3");
  EXPECT_EQ(d.size(), 1u) << d.toString();
}

TEST(Placeholders, APredictionTextWithAnUnknownPlaceholderIsRefused) {
  TempDir dir;
  auto doc = readJson(assetsDir() / "lessons" / "ddp-replicas.json");
  doc["guide"] = nlohmann::json::object();
  for (const auto* lang : {"en", "fr", "ru"}) {
    writeText(dir.path() / (std::string("g.") + lang + ".md"), "x\n");
    doc["guide"][lang] = std::string("g.") + lang + ".md";
  }
  doc["prediction"]["text"]["ru"] = "при {ranks|ранге|рангах}?";
  const auto file = dir.path() / "ddp-replicas.json";
  writeText(file, doc.dump());
  Diagnostics d;
  EXPECT_FALSE(LessonLibrary::loadFile(file, &bank(), d));
  EXPECT_DIAGNOSTIC(d, file, "placeholder", "/prediction/text/ru");
}
