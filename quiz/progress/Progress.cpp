#include "quiz/progress/Progress.h"

#include "quiz/progress/AtomicFile.h"
#include "quiz/bank/JsonFile.h"

#include <ctime>
#include <stdexcept>

namespace shardlab::quiz {

std::string isoUtc(std::chrono::system_clock::time_point time) {
  const std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

void Progress::recordAnswer(const AnswerKey& key, std::size_t choice, bool correct,
                            std::chrono::system_clock::time_point when) {
  auto& a = answers_[key];
  if (a.attempts == 0) a.firstAttemptCorrect = correct;
  a.choice = choice;
  a.correct = correct;
  a.answeredAt = isoUtc(when);
  ++a.attempts;
  if (correct) ++a.correctCount;
}

const AnswerRecord* Progress::findAnswer(const AnswerKey& key) const {
  const auto it = answers_.find(key);
  return it == answers_.end() ? nullptr : &it->second;
}

std::set<std::string> Progress::questionsAnsweredIn(const std::string& lesson) const {
  std::set<std::string> ids;
  for (const auto& [key, a] : answers_)
    if (key.lesson == lesson) ids.insert(key.question);
  return ids;
}

void Progress::recordScore(ScoreRecord score) { scores_.push_back(std::move(score)); }

void Progress::recordRun(RunRecord run) {
  const std::string key = run.hash;
  runs_[key] = std::move(run);
}

void Progress::recordPrediction(PredictionRecord prediction) {
  for (auto& p : predictions_) {
    if (p.lesson == prediction.lesson && p.prediction == prediction.prediction && p.session == prediction.session) {
      p = std::move(prediction);
      return;
    }
  }
  predictions_.push_back(std::move(prediction));
}

const PredictionRecord* Progress::findPrediction(const std::string& lesson, const std::string& prediction,
                                                 const std::string& session) const {
  for (const auto& p : predictions_)
    if (p.lesson == lesson && p.prediction == prediction && p.session == session) return &p;
  return nullptr;
}

void Progress::clear() {
  answers_.clear();
  scores_.clear();
  predictions_.clear();
  runs_.clear();
}

nlohmann::json Progress::toJson() const {
  nlohmann::json answers = nlohmann::json::array();
  for (const auto& [key, a] : answers_) {
    answers.push_back({{"question", key.question}, {"run", key.run}, {"lesson", key.lesson}, {"choice", a.choice},
                       {"correct", a.correct}, {"attempts", a.attempts}, {"correct_count", a.correctCount},
                       {"answered_at", a.answeredAt}});
    answers.back()["first_attempt_correct"] = a.firstAttemptCorrect ? nlohmann::json(*a.firstAttemptCorrect) : nlohmann::json(nullptr);
  }
  nlohmann::json scores = nlohmann::json::array();
  for (const auto& s : scores_) {
    scores.push_back({{"quiz", s.quiz}, {"lang", s.lang}, {"seed", s.seed}, {"correct", s.correct},
                      {"total", s.total}, {"unix_time", s.unixTime}});
    if (!s.run.empty()) scores.back()["run"] = s.run;
  }
  nlohmann::json predictions = nlohmann::json::array();
  for (const auto& p : predictions_) {
    nlohmann::json jp = {{"lesson", p.lesson}, {"prediction", p.prediction}, {"kind", p.kind}, {"value", p.value},
                         {"session", p.session}};
    jp["actual"] = p.actual ? nlohmann::json(*p.actual) : nlohmann::json(nullptr);
    predictions.push_back(std::move(jp));
  }
  nlohmann::json j = {{"format", kFormat}, {"learner", learner_}, {"answers", answers}, {"scores", scores},
                      {"predictions", predictions}};
  if (!runs_.empty()) {
    nlohmann::json runs = nlohmann::json::object();
    for (const auto& [hash, r] : runs_) runs[hash] = {{"trace", r.traceFile}, {"config", r.config}};
    j["runs"] = runs;
  }
  return j;
}

namespace {

std::optional<bool> optionalBool(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<bool>();
}

} // namespace

Progress Progress::fromJson(const nlohmann::json& j, std::filesystem::path file) {
  Progress p(std::move(file));
  const int format = j.is_object() && j.contains("format") && j["format"].is_number_integer() ? j["format"].get<int>() : 0;
  if (format != 1 && format != kFormat)
    throw std::runtime_error(p.file_.string() + ": not a ShardLab progress file of format 1 or 2");
  try {
    p.learner_ = j.value("learner", std::string());
    if (format == 1) {
      // Format 1 keyed answers by question id alone: keep them for the run they name,
      // in no lesson, with no time and no first-attempt result.
      for (const auto& [id, a] : j.at("answers").items())
        p.answers_[{id, a.value("run", std::string()), std::string()}] =
            {a.at("choice").get<std::size_t>(), a.at("correct").get<bool>(), std::nullopt, a.at("attempts").get<int>(),
             a.value("correct_count", 0), std::string()};
    } else {
      for (const auto& a : j.at("answers"))
        p.answers_[{a.at("question").get<std::string>(), a.value("run", std::string()), a.value("lesson", std::string())}] =
            {a.at("choice").get<std::size_t>(), a.at("correct").get<bool>(), optionalBool(a, "first_attempt_correct"),
             a.at("attempts").get<int>(), a.value("correct_count", 0), a.value("answered_at", std::string())};
    }
    for (const auto& s : j.at("scores"))
      p.scores_.push_back({s.at("quiz").get<std::string>(), s.at("lang").get<std::string>(),
                           s.at("seed").get<std::uint64_t>(), s.at("correct").get<std::size_t>(),
                           s.at("total").get<std::size_t>(), s.value("unix_time", std::int64_t{0}),
                           s.value("run", std::string())});
    for (const auto& jp : j.at("predictions")) {
      PredictionRecord r{jp.at("lesson").get<std::string>(), jp.at("prediction").get<std::string>(),
                         jp.at("kind").get<std::string>(), jp.at("value").get<double>(), std::nullopt,
                         jp.value("session", std::string())};
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
  auto doc = JsonFile::read(file, diagnostics, kProgressFileCap);
  if (!doc) throw std::runtime_error(diagnostics.toString());
  return fromJson(*doc, file);
}

Progress Progress::loadOrSetAside(const std::filesystem::path& file, std::string& problem) {
  problem.clear();
  try {
    return load(file);
  } catch (const std::exception& e) {
    problem = e.what();
  }
  const std::time_t t = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
  std::filesystem::path aside = file.string() + ".corrupt-" + stamp;
  for (int n = 2; std::filesystem::exists(aside); ++n) aside = file.string() + ".corrupt-" + stamp + "-" + std::to_string(n);
  std::error_code ec;
  std::filesystem::rename(file, aside, ec);
  if (ec) problem += "; it could not be kept aside (" + ec.message() + "): answering replaces it";
  else problem += "; the file is kept as " + aside.string() + " and a new one starts";
  return Progress(file);
}

void Progress::save() const {
  if (file_.has_parent_path()) std::filesystem::create_directories(file_.parent_path());
  AtomicFile::write(file_, toJson().dump(2) + "\n");
}

} // namespace shardlab::quiz
