// The observation sentences are data (assets/observations/*.json): the shipped files
// hold every message the code asks for, in every language, and a broken file is a
// validation error naming the file and the JSON pointer, in the library and in
// `shardlab-quiz validate`.
#include "TestSupport.h"

#include "quiz/observations/ObservationMessages.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <string>

namespace fs = std::filesystem;
using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {

constexpr const char* kId = "collective-count.ddp-question"; // in fsdp.json, parameters ranks and units

// A copy of the shipped assets whose fsdp.json the test breaks.
class BrokenAssets {
public:
  BrokenAssets() {
    fs::copy(assetsDir(), dir_.path() / "assets", fs::copy_options::recursive);
    doc_ = readJson(fsdpFile());
  }
  fs::path observations() const { return dir_.path() / "assets" / "observations"; }
  fs::path fsdpFile() const { return observations() / "fsdp.json"; }
  nlohmann::json& message() { return doc_["messages"][kId]; }
  nlohmann::json& doc() { return doc_; }
  Diagnostics load() {
    writeText(fsdpFile(), doc_.dump(2));
    Diagnostics d;
    ObservationMessages::load(observations(), d);
    return d;
  }

private:
  TempDir dir_;
  nlohmann::json doc_;
};

const std::string kWhere = std::string("/messages/") + kId;

} // namespace

TEST(ObservationMessages, ShippedFilesHoldEveryMessageInEveryLanguage) {
  Diagnostics d;
  ObservationMessages::load(assetsDir() / "observations", d);
  EXPECT_TRUE(d.empty()) << d.toString();
  std::set<std::string> ids;
  for (const auto& spec : observationMessageSpecs())
    EXPECT_TRUE(ids.insert(std::string(spec.id)).second) << "declared twice: " << spec.id;
}

TEST(ObservationMessages, AMissingMessageNamesTheFileAndItsPlace) {
  BrokenAssets a;
  a.doc()["messages"].erase(kId);
  const auto d = a.load();
  EXPECT_DIAGNOSTIC(d, a.fsdpFile(), "missing-message", kWhere);
}

TEST(ObservationMessages, AMissingLanguageIsAnError) {
  BrokenAssets a;
  a.message().erase("fr");
  const auto d = a.load();
  EXPECT_DIAGNOSTIC(d, a.fsdpFile(), "missing-language", kWhere + "/fr");
}

TEST(ObservationMessages, AnUnknownPlaceholderIsAnError) {
  BrokenAssets a;
  auto ru = a.message()["ru"].get<std::string>();
  ru.replace(ru.find("{ranks|"), 7, "{rank|");
  a.message()["ru"] = ru;
  const auto d = a.load();
  EXPECT_DIAGNOSTIC(d, a.fsdpFile(), "placeholder", kWhere + "/ru");
  EXPECT_NE(findDiagnostic(d, "placeholder")->message.find("unknown placeholder {rank|"), std::string::npos) << d.toString();
}

TEST(ObservationMessages, AWrongNumberOfPluralFormsIsAnError) {
  BrokenAssets a;
  a.message()["ru"] = "Ваш запуск DDP ({ranks|ранг|рангов}, {units|модуль|модуля|модулей})";
  a.message()["en"] = "Your DDP run ({ranks|rank|ranks}, {units|unit|units|units})";
  const auto d = a.load();
  EXPECT_DIAGNOSTIC(d, a.fsdpFile(), "placeholder", kWhere + "/ru");
  EXPECT_DIAGNOSTIC(d, a.fsdpFile(), "placeholder", kWhere + "/en");
  EXPECT_NE(d.toString().find("gives 2 plural forms; ru needs 3 (one|few|many)"), std::string::npos) << d.toString();
  EXPECT_NE(d.toString().find("gives 3 plural forms; en needs 2 (one|other)"), std::string::npos) << d.toString();
}

TEST(ObservationMessages, AMessageNoCodeAsksForIsAnError) {
  BrokenAssets a;
  a.doc()["messages"]["collective-count.no-such-message"] = {{"en", "a"}, {"fr", "b"}, {"ru", "c"}};
  const auto d = a.load();
  EXPECT_DIAGNOSTIC(d, a.fsdpFile(), "unknown-message", "/messages/collective-count.no-such-message");
}

TEST(ObservationMessages, LoadOrThrowCarriesEveryDiagnostic) {
  BrokenAssets a;
  a.doc()["messages"].erase(kId);
  a.load();
  try {
    ObservationMessages::loadOrThrow(a.observations());
    FAIL() << "a missing message was accepted";
  } catch (const ValidationError& e) {
    EXPECT_NE(findDiagnostic(e.diagnostics(), "missing-message"), nullptr) << e.what();
  }
}

// shardlab-quiz validate checks the observation messages with the question bank and lessons.
TEST(ObservationMessages, ValidateCommandReportsABrokenMessage) {
  BrokenAssets a;
  a.message().erase("ru");
  a.load();
  const std::string command =
      std::string(SHARDLAB_QUIZ_EXE) + " --assets '" + (a.observations().parent_path()).string() + "' validate 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  ASSERT_NE(pipe, nullptr);
  std::string out;
  std::array<char, 4096> buf{};
  while (const auto n = std::fread(buf.data(), 1, buf.size(), pipe.get())) out.append(buf.data(), n);
  const int status = pclose(pipe.release());
  EXPECT_NE(status, 0) << out;
  EXPECT_NE(out.find(a.fsdpFile().string() + ":" + kWhere + "/ru: missing-language"), std::string::npos) << out;
}
