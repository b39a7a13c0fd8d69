#include "quiz/export/ResultsExporter.h"

#include <map>
#include <set>
#include <sstream>
#include <string_view>

namespace shardlab::quiz {
namespace {

std::string configValue(const nlohmann::json& config, const char* key) {
  if (!config.is_object() || !config.contains(key)) return "";
  const auto& v = config[key];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string boolField(bool b) { return b ? "true" : "false"; }
std::string boolField(const std::optional<bool>& b) { return b ? boolField(*b) : ""; }

} // namespace

std::string ResultsExporter::csvField(const std::string& text) {
  // A learner chooses their name: a cell starting with = + - @ (or a tab or carriage
  // return) would be a live formula in a spreadsheet (=HYPERLINK(...)), so it starts
  // with ' instead, which shows the text as typed; a NUL byte is dropped.
  std::string s;
  for (char c : text)
    if (c != '\0') s += c;
  if (!s.empty() && std::string_view("=+-@\t\r").find(s.front()) != std::string_view::npos) s.insert(0, 1, '\'');
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string ResultsExporter::renderCsv(const std::vector<Progress>& learners) {
  std::ostringstream o;
  o << "learner,record,id,lesson,lang,seed,choice,correct,first_attempt_correct,attempts,correct_count,total,"
       "answered_at,unix_time,trace_hash,strategy,ranks,steps,config\n";
  for (const auto& progress : learners) {
    auto runColumns = [&](const std::string& hash) {
      const auto it = progress.runs().find(hash);
      const nlohmann::json config = it == progress.runs().end() ? nlohmann::json::object() : it->second.config;
      return csvField(hash) + "," + csvField(configValue(config, "strategy")) + "," +
             csvField(configValue(config, "ranks")) + "," + csvField(configValue(config, "steps")) + "," +
             csvField(hash.empty() ? "" : config.dump());
    };
    const std::string learner = csvField(progress.learner());
    for (const auto& [key, a] : progress.answers())
      o << learner << ",answer," << csvField(key.question) << "," << csvField(key.lesson) << ",,," << a.choice << ","
        << boolField(a.correct) << "," << boolField(a.firstAttemptCorrect) << "," << a.attempts << ","
        << a.correctCount << ",," << csvField(a.answeredAt) << ",," << runColumns(key.run) << "\n";
    for (const auto& s : progress.scores())
      o << learner << ",score," << csvField(s.quiz) << ",," << csvField(s.lang) << "," << s.seed << ",," << s.correct
        << ",,,," << s.total << ",," << s.unixTime << "," << runColumns(s.run) << "\n";
  }
  return o.str();
}

std::string ResultsExporter::renderClassCsv(const std::vector<Progress>& learners) {
  std::ostringstream o;
  o << "learner,question,lessons,runs,attempts,first_attempt_correct,correct,answered_at,file\n";
  for (const auto& progress : learners) {
    // One row per question: the first answer ever given decides first_attempt_correct,
    // the latest one decides correct and answered_at (ISO times sort as text).
    struct Row {
      std::set<std::string> lessons, runs;
      int attempts = 0;
      const AnswerRecord* first = nullptr;
      const AnswerRecord* last = nullptr;
    };
    std::map<std::string, Row> rows;
    for (const auto& [key, a] : progress.answers()) {
      auto& row = rows[key.question];
      if (!key.lesson.empty()) row.lessons.insert(key.lesson);
      if (!key.run.empty()) row.runs.insert(key.run);
      row.attempts += a.attempts;
      if (!row.first || a.answeredAt < row.first->answeredAt) row.first = &a;
      if (!row.last || a.answeredAt >= row.last->answeredAt) row.last = &a;
    }
    for (const auto& [question, row] : rows) {
      std::string lessons;
      for (const auto& l : row.lessons) lessons += (lessons.empty() ? "" : ";") + l;
      o << csvField(progress.learner()) << "," << csvField(question) << "," << csvField(lessons) << ","
        << row.runs.size() << "," << row.attempts << "," << boolField(row.first->firstAttemptCorrect) << ","
        << boolField(row.last->correct) << "," << csvField(row.last->answeredAt) << ","
        << csvField(progress.file().string()) << "\n";
    }
  }
  return o.str();
}

std::string ResultsExporter::renderJson(const std::vector<Progress>& learners) {
  nlohmann::json out = {{"format", Progress::kFormat}, {"learners", nlohmann::json::array()}};
  for (const auto& progress : learners) {
    auto runOf = [&](const std::string& hash) -> nlohmann::json {
      if (hash.empty()) return nullptr;
      const auto it = progress.runs().find(hash);
      nlohmann::json r = {{"trace_hash", hash}};
      if (it != progress.runs().end()) {
        r["trace"] = it->second.traceFile;
        r["config"] = it->second.config;
      }
      return r;
    };
    nlohmann::json answers = nlohmann::json::array();
    for (const auto& [key, a] : progress.answers()) {
      answers.push_back({{"learner", progress.learner()}, {"question", key.question}, {"lesson", key.lesson},
                         {"choice", a.choice}, {"correct", a.correct}, {"attempts", a.attempts},
                         {"correct_count", a.correctCount}, {"answered_at", a.answeredAt}, {"run", runOf(key.run)}});
      answers.back()["first_attempt_correct"] =
          a.firstAttemptCorrect ? nlohmann::json(*a.firstAttemptCorrect) : nlohmann::json(nullptr);
    }
    nlohmann::json scores = nlohmann::json::array();
    for (const auto& s : progress.scores())
      scores.push_back({{"quiz", s.quiz}, {"lang", s.lang}, {"seed", s.seed}, {"correct", s.correct},
                        {"total", s.total}, {"unix_time", s.unixTime}, {"run", runOf(s.run)}});
    const auto full = progress.toJson();
    nlohmann::json runs = nlohmann::json::object();
    for (const auto& [hash, r] : progress.runs()) runs[hash] = {{"trace", r.traceFile}, {"config", r.config}};
    out["learners"].push_back({{"learner", progress.learner()}, {"file", progress.file().string()},
                               {"answers", answers}, {"scores", scores}, {"predictions", full["predictions"]},
                               {"runs", runs}});
  }
  return out.dump(2) + "\n";
}

} // namespace shardlab::quiz
