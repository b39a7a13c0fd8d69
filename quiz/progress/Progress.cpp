#include "quiz/progress/Progress.h"

#include "quiz/progress/AtomicFile.h"
#include "quiz/bank/JsonFile.h"

#include <stdexcept>

namespace shardlab::quiz {

void Progress::recordAnswer(const std::string& questionId, std::size_t choice, bool correct, const std::string& run) {
  auto& a = answers_[questionId];
  a.choice = choice;
  a.correct = correct;
  a.run = run;
  ++a.attempts;
  if (correct) ++a.correctCount;
}

void Progress::recordScore(ScoreRecord score) { scores_.push_back(std::move(score)); }

void Progress::recordRun(RunRecord run) {
  const std::string key = run.hash;
  runs_[key] = std::move(run);
}

void Progress::recordPrediction(PredictionRecord prediction) {
  for (auto& p : predictions_) {
    if (p.lesson == prediction.lesson && p.prediction == prediction.prediction) {
      p = std::move(prediction);
      return;
    }
  }
  predictions_.push_back(std::move(prediction));
}

nlohmann::json Progress::toJson() const {
  nlohmann::json answers = nlohmann::json::object();
  for (const auto& [id, a] : answers_) {
    answers[id] = {{"choice", a.choice}, {"correct", a.correct}, {"attempts", a.attempts},
                   {"correct_count", a.correctCount}};
    if (!a.run.empty()) answers[id]["run"] = a.run;
  }
  nlohmann::json scores = nlohmann::json::array();
  for (const auto& s : scores_) {
    scores.push_back({{"quiz", s.quiz}, {"lang", s.lang}, {"seed", s.seed}, {"correct", s.correct},
                      {"total", s.total}, {"unix_time", s.unixTime}});
    if (!s.run.empty()) scores.back()["run"] = s.run;
  }
  nlohmann::json predictions = nlohmann::json::array();
  for (const auto& p : predictions_) {
    nlohmann::json jp = {{"lesson", p.lesson}, {"prediction", p.prediction}, {"kind", p.kind}, {"value", p.value}};
    jp["actual"] = p.actual ? nlohmann::json(*p.actual) : nlohmann::json(nullptr);
    predictions.push_back(std::move(jp));
  }
  nlohmann::json j = {{"format", kFormat}, {"answers", answers}, {"scores", scores}, {"predictions", predictions}};
  if (!runs_.empty()) {
    nlohmann::json runs = nlohmann::json::object();
    for (const auto& [hash, r] : runs_) runs[hash] = {{"trace", r.traceFile}, {"config", r.config}};
    j["runs"] = runs;
  }
  return j;
}

Progress Progress::fromJson(const nlohmann::json& j, std::filesystem::path file) {
  Progress p(std::move(file));
  if (!j.is_object() || j.value("format", 0) != kFormat)
    throw std::runtime_error(p.file_.string() + ": not a ShardLab progress file of format 1");
  try {
    for (const auto& [id, a] : j.at("answers").items())
      p.answers_[id] = {a.at("choice").get<std::size_t>(), a.at("correct").get<bool>(), a.at("attempts").get<int>(),
                        a.value("correct_count", 0), a.value("run", std::string())};
    for (const auto& s : j.at("scores"))
      p.scores_.push_back({s.at("quiz").get<std::string>(), s.at("lang").get<std::string>(),
                           s.at("seed").get<std::uint64_t>(), s.at("correct").get<std::size_t>(),
                           s.at("total").get<std::size_t>(), s.value("unix_time", std::int64_t{0}),
                           s.value("run", std::string())});
    for (const auto& jp : j.at("predictions")) {
      PredictionRecord r{jp.at("lesson").get<std::string>(), jp.at("prediction").get<std::string>(),
                         jp.at("kind").get<std::string>(), jp.at("value").get<double>(), std::nullopt};
      if (jp.contains("actual") && !jp["actual"].is_null()) r.actual = jp["actual"].get<double>();
      p.predictions_.push_back(std::move(r));
    }
    if (j.contains("runs"))
      for (const auto& [hash, r] : j.at("runs").items())
        p.runs_[hash] = {hash, r.value("trace", std::string()), r.value("config", nlohmann::json::object())};
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(p.file_.string() + ": invalid progress file: " + e.what());
  }
  return p;
}

Progress Progress::load(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return Progress(file);
  Diagnostics diagnostics;
  auto doc = JsonFile::read(file, diagnostics);
  if (!doc) throw std::runtime_error(diagnostics.toString());
  return fromJson(*doc, file);
}

void Progress::save() const {
  if (file_.has_parent_path()) std::filesystem::create_directories(file_.parent_path());
  AtomicFile::write(file_, toJson().dump(2) + "\n");
}

} // namespace shardlab::quiz
