#include "quiz/bank/KnownIds.h"
#include "quiz/bank/Languages.h"
#include "quiz/bank/QuestionBank.h"
#include "TestSupport.h"

#include <set>

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {

// Writes a mutated copy of the shipped FSDP quiz and loads it alone.
struct MutatedBank {
  TempDir dir;
  std::filesystem::path file;
  Diagnostics diagnostics;
  QuestionBank bank;

  template <class F> explicit MutatedBank(F mutate) {
    auto doc = readJson(assetsDir() / "quiz" / "fsdp.json");
    mutate(doc);
    file = dir.path() / "fsdp.json";
    writeText(file, doc.dump(2));
    bank = QuestionBank::load({file}, diagnostics);
  }
};

} // namespace

TEST(QuestionBank, ShippedBankHas20QuestionsIn3Languages) {
  const auto bank = QuestionBank::loadDirectory(assetsDir() / "quiz");
  ASSERT_EQ(bank.questions().size(), 20u);
  ASSERT_EQ(bank.quizzes().size(), 3u);
  std::set<std::string> ids;
  for (const auto& q : bank.questions()) {
    ids.insert(q.id);
    ASSERT_EQ(q.choices.size(), 4u) << q.id;
    int correct = 0;
    for (auto lang : kLanguages) {
      EXPECT_FALSE(q.text.get(lang).empty()) << q.id << " " << lang;
      EXPECT_TRUE(q.text.has(lang) && q.explanation.has(lang)) << q.id << " " << lang;
      for (const auto& c : q.choices) EXPECT_TRUE(c.text.has(lang)) << q.id << " " << lang;
    }
    for (const auto& c : q.choices) correct += c.correct ? 1 : 0;
    EXPECT_EQ(correct, 1) << q.id;
  }
  for (int i = 1; i <= 8; ++i) {
    EXPECT_TRUE(ids.count("fsdp-" + std::to_string(i)));
    EXPECT_TRUE(ids.count("pipeline-" + std::to_string(i)));
  }
  EXPECT_TRUE(ids.count("ddp-1") && ids.count("ddp-2")) << "lesson 1 asks about DDP, not FSDP";
}

TEST(QuestionBank, KeyMatchesTheSeedReadme) {
  // The source's key is 1,2,3,4,1,2,3,4 in file order; the bank keeps that order
  // (Attempt shuffles), so this checks the data against the README's key.
  const auto bank = QuestionBank::loadDirectory(assetsDir() / "quiz");
  for (const auto* quiz : {"fsdp", "pipeline"}) {
    const auto qs = bank.ofQuiz(quiz);
    ASSERT_EQ(qs.size(), 8u);
    for (std::size_t i = 0; i < qs.size(); ++i) EXPECT_EQ(qs[i].correctIndex(), i % 4) << qs[i].id;
  }
}

TEST(QuestionBank, EvidencePointsToKnownLessonsAndMoments) {
  const auto bank = QuestionBank::loadDirectory(assetsDir() / "quiz");
  for (const auto& q : bank.questions()) {
    if (q.id == "fsdp-4" || q.id == "pipeline-6") {
      EXPECT_FALSE(q.evidence) << q.id << ": a history question has no run to show it";
      continue;
    }
    ASSERT_TRUE(q.evidence) << q.id;
    EXPECT_TRUE(isKnownLessonId(q.evidence->lesson)) << q.id;
    EXPECT_TRUE(isKnownMomentId(q.evidence->moment)) << q.id;
  }
}

TEST(QuestionBank, KnownMistranslationsAreGone) {
  const auto bank = QuestionBank::loadDirectory(assetsDir() / "quiz");
  const std::pair<const char*, const char*> wrong[] = {
      {"fr", "partagé"},        {"fr", "dégradé"},   {"fr", "grille tarifaire"}, {"fr", "Rassemblement"},
      {"fr", "réduction de la diffusion"}, {"fr", "Duplication de tout"}, {"ru", "трансформатор"},
      {"ru", "микропарти"},     {"ru", "уровень"},   {"ru", "полное сокращение"}, {"ru", "Панды"}};
  for (const auto& q : bank.questions()) {
    std::map<std::string, std::string> all;
    for (auto lang : kLanguages) {
      std::string& s = all[std::string(lang)];
      s += q.text.get(lang) + "\n" + q.explanation.get(lang);
      for (const auto& c : q.choices) s += "\n" + c.text.get(lang);
    }
    for (const auto& [lang, term] : wrong) EXPECT_EQ(all[lang].find(term), std::string::npos) << q.id << ": " << term;
  }
  EXPECT_NE(bank.find("pipeline-6")->text.get("ru").find("трансформеров"), std::string::npos);
}

TEST(QuestionBank, MalformedJsonNamesFileLineAndColumn) {
  TempDir dir;
  const auto file = dir.path() / "broken.json";
  writeText(file, "{\n  \"format\": 1,\n  \"quiz\": \"x\",,\n}\n");
  Diagnostics d;
  QuestionBank::load({file}, d);
  EXPECT_DIAGNOSTIC(d, file, "json-syntax", "line 3, column 15");
}

TEST(QuestionBank, MissingLanguageIsRejected) {
  MutatedBank m([](nlohmann::json& doc) { doc["questions"][3]["choices"][2].erase("ru"); });
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "missing-language", "/questions/3/choices/2/ru");
  EXPECT_EQ(m.bank.find("fsdp-4"), nullptr);
  EXPECT_EQ(m.bank.questions().size(), 7u);
}

TEST(QuestionBank, MissingExplanationLanguageIsRejected) {
  MutatedBank m([](nlohmann::json& doc) { doc["questions"][0]["explanation"].erase("fr"); });
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "missing-language", "/questions/0/explanation/fr");
}

TEST(QuestionBank, TwoCorrectChoicesAreRejected) {
  MutatedBank m([](nlohmann::json& doc) { doc["questions"][5]["choices"][0]["correct"] = true; });
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "correct-count", "/questions/5/choices");
}

TEST(QuestionBank, NoCorrectChoiceIsRejected) {
  MutatedBank m([](nlohmann::json& doc) { doc["questions"][0]["choices"][0].erase("correct"); });
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "correct-count", "/questions/0/choices");
}

TEST(QuestionBank, ThreeChoicesAreRejected) {
  MutatedBank m([](nlohmann::json& doc) { doc["questions"][1]["choices"].erase(3); });
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "choice-count", "/questions/1/choices");
}

TEST(QuestionBank, DuplicateIdsAreRejected) {
  MutatedBank m([](nlohmann::json& doc) { doc["questions"][6]["id"] = "fsdp-2"; });
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "duplicate-id", "/questions/6/id");
  EXPECT_NE(findDiagnostic(m.diagnostics, "duplicate-id")->message.find("/questions/1"), std::string::npos);
}

TEST(QuestionBank, DuplicateIdsAcrossFilesAreRejected) {
  TempDir dir;
  auto doc = readJson(assetsDir() / "quiz" / "fsdp.json");
  writeText(dir.path() / "a.json", doc.dump());
  doc["quiz"] = "other";
  writeText(dir.path() / "b.json", doc.dump());
  Diagnostics d;
  QuestionBank::load(QuestionBank::jsonFilesIn(dir.path()), d);
  EXPECT_DIAGNOSTIC(d, dir.path() / "b.json", "duplicate-id", "/questions/0/id");
  EXPECT_EQ(d.size(), 8u) << d.toString();
}

TEST(QuestionBank, UnknownEvidenceLessonAndMomentAreRejected) {
  MutatedBank m([](nlohmann::json& doc) {
    doc["questions"][1]["evidence"]["lesson"] = "fsdp-magic";
    doc["questions"][2]["evidence"]["moment"] = "first_broadcast";
  });
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "unknown-lesson", "/questions/1/evidence/lesson");
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "unknown-moment", "/questions/2/evidence/moment");
}

TEST(QuestionBank, AllErrorsAreCollected) {
  MutatedBank m([](nlohmann::json& doc) {
    doc["questions"][0]["text"].erase("en");
    doc["questions"][4]["choices"][1]["correct"] = true;
    doc["questions"][7]["bogus"] = 1;
  });
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "missing-language", "/questions/0/text/en");
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "correct-count", "/questions/4/choices");
  EXPECT_DIAGNOSTIC(m.diagnostics, m.file, "unknown-key", "/questions/7/bogus");
  EXPECT_EQ(m.diagnostics.size(), 3u) << m.diagnostics.toString();
}

TEST(QuestionBank, LoadDirectoryThrowsWithEveryDiagnostic) {
  TempDir dir;
  auto doc = readJson(assetsDir() / "quiz" / "fsdp.json");
  doc["questions"][0]["choices"][0]["fr"] = "";
  writeText(dir.path() / "fsdp.json", doc.dump());
  try {
    QuestionBank::loadDirectory(dir.path());
    FAIL() << "expected ValidationError";
  } catch (const ValidationError& e) {
    EXPECT_DIAGNOSTIC(e.diagnostics(), dir.path() / "fsdp.json", "empty-text", "/questions/0/choices/0/fr");
  }
}
