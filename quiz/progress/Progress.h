// The learner's progress: answers, quiz scores and predictions, kept as JSON at a
// path the caller chooses (the app passes a QStandardPaths location). save()
// replaces the file atomically. Answers are stored by the choice's index in the
// bank (not its shuffled position), so they keep their meaning across attempts.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shardlab::quiz {

struct AnswerRecord {
  std::size_t choice = 0; // index in the bank's choice list
  bool correct = false;
  int attempts = 0;       // how many times the question was answered
  int correctCount = 0;   // how many of those were correct
  std::string run;        // observation questions: hash of the trace they were about ("" for none)
};

struct ScoreRecord {
  std::string quiz; // quiz or lesson id
  std::string lang;
  std::uint64_t seed = 0;
  std::size_t correct = 0, total = 0;
  std::int64_t unixTime = 0;
  std::string run; // hash of the trace the quiz was about ("" for none)
};

// A run that answers were about: the trace file's hash and the job's settings, so an
// instructor can tell which run an answer refers to.
struct RunRecord {
  std::string hash;      // "fnv1a64:<16 hex digits>" of the trace file (TraceHash.h)
  std::string traceFile; // where the trace was when answered
  nlohmann::json config = nlohmann::json::object(); // the trace's job settings (strategy, ranks, ...)
};

struct PredictionRecord {
  std::string lesson;
  std::string prediction; // prediction id within the lesson
  std::string kind;       // bytes | ratio | percent | count | milliseconds
  double value = 0;
  std::optional<double> actual; // filled in once the run has shown it
};

class Progress {
public:
  static constexpr int kFormat = 1;

  explicit Progress(std::filesystem::path file) : file_(std::move(file)) {}
  // A missing file gives empty progress; an unreadable or invalid one throws
  // std::runtime_error naming the file (the caller decides whether to start over).
  static Progress load(const std::filesystem::path& file);
  void save() const;

  // `run`: the trace hash of the run an observation question was about ("" for none).
  void recordAnswer(const std::string& questionId, std::size_t choice, bool correct, const std::string& run = {});
  // Remembers a run answers refer to (by its hash; a later record replaces an earlier one).
  void recordRun(RunRecord run);
  void recordScore(ScoreRecord score);
  // Replaces an earlier prediction with the same lesson and prediction id.
  void recordPrediction(PredictionRecord prediction);

  const std::filesystem::path& file() const { return file_; }
  const std::map<std::string, AnswerRecord>& answers() const { return answers_; }
  const std::vector<ScoreRecord>& scores() const { return scores_; }
  const std::vector<PredictionRecord>& predictions() const { return predictions_; }
  const std::map<std::string, RunRecord>& runs() const { return runs_; }

  nlohmann::json toJson() const;
  static Progress fromJson(const nlohmann::json& j, std::filesystem::path file); // throws on a bad document

private:
  std::filesystem::path file_;
  std::map<std::string, AnswerRecord> answers_;
  std::vector<ScoreRecord> scores_;
  std::vector<PredictionRecord> predictions_;
  std::map<std::string, RunRecord> runs_; // by hash
};

} // namespace shardlab::quiz
