#include "quiz/export/ResultsExporter.h"

#include <sstream>

namespace shardlab::quiz {
namespace {

std::string configValue(const nlohmann::json& config, const char* key) {
  if (!config.is_object() || !config.contains(key)) return "";
  const auto& v = config[key];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

} // namespace

std::string ResultsExporter::csvField(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string ResultsExporter::renderCsv(const Progress& progress) {
  std::ostringstream o;
  o << "record,id,lang,seed,choice,correct,attempts,correct_count,total,unix_time,trace_hash,strategy,ranks,steps,config\n";
  auto runColumns = [&](const std::string& hash) {
    const auto it = progress.runs().find(hash);
    const nlohmann::json config = it == progress.runs().end() ? nlohmann::json::object() : it->second.config;
    return csvField(hash) + "," + csvField(configValue(config, "strategy")) + "," + csvField(configValue(config, "ranks")) +
           "," + csvField(configValue(config, "steps")) + "," + csvField(hash.empty() ? "" : config.dump());
  };
  for (const auto& [id, a] : progress.answers())
    o << "answer," << csvField(id) << ",,," << a.choice << "," << (a.correct ? "true" : "false") << "," << a.attempts
      << "," << a.correctCount << ",,," << runColumns(a.run) << "\n";
  for (const auto& s : progress.scores())
    o << "score," << csvField(s.quiz) << "," << csvField(s.lang) << "," << s.seed << ",," << s.correct << ",,,"
      << s.total << "," << s.unixTime << "," << runColumns(s.run) << "\n";
  return o.str();
}

std::string ResultsExporter::renderJson(const Progress& progress) {
  nlohmann::json answers = nlohmann::json::array();
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
  for (const auto& [id, a] : progress.answers())
    answers.push_back({{"id", id}, {"choice", a.choice}, {"correct", a.correct}, {"attempts", a.attempts},
                       {"correct_count", a.correctCount}, {"run", runOf(a.run)}});
  nlohmann::json scores = nlohmann::json::array();
  for (const auto& s : progress.scores())
    scores.push_back({{"quiz", s.quiz}, {"lang", s.lang}, {"seed", s.seed}, {"correct", s.correct}, {"total", s.total},
                      {"unix_time", s.unixTime}, {"run", runOf(s.run)}});
  const auto full = progress.toJson();
  nlohmann::json runs = nlohmann::json::object();
  for (const auto& [hash, r] : progress.runs()) runs[hash] = {{"trace", r.traceFile}, {"config", r.config}};
  return nlohmann::json{{"format", 1}, {"answers", answers}, {"scores", scores}, {"predictions", full["predictions"]},
                        {"runs", runs}}
             .dump(2) +
         "\n";
}

} // namespace shardlab::quiz
