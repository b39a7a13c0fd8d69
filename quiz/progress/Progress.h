// The learner's progress: answers, quiz scores and predictions, kept as JSON at a
// path the caller chooses (the app passes one file per learner, ProgressLocation.h).
// save() replaces the file atomically.
//
// An answer is keyed by the question, the run it was about and the lesson it was
// asked in (AnswerKey): an observation question's choices are generated from one run,
// so its answer means nothing for another run's question of the same template. The
// choice is stored by its index in that question's choice list (not its shuffled
// position), so it keeps its meaning across attempts.
//
// Format 2 (written): {"format":2,"learner","answers":[{question,run,lesson,choice,correct,
// first_attempt_correct,attempts,correct_count,answered_at}],"scores","predictions","runs"}.
// Format 1 (read, migrated in memory): answers keyed by question id only; they load
// with no lesson, no time and no first-attempt result (docs/quiz-format.md).
#pragma once

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace shardlab::quiz {

struct AnswerKey {
  std::string question; // question id ("fsdp-2", "obs-collective-count")
  std::string run;      // observation questions: hash of the trace they were about; "" for guide questions
  std::string lesson;   // the lesson it was asked in; "" for a free experiment or an opened trace
  auto operator<=>(const AnswerKey&) const = default;
};

struct AnswerRecord {
  std::size_t choice = 0; // the last answer: index in the question's choice list
  bool correct = false;   // the last answer was right
  std::optional<bool> firstAttemptCorrect; // the first answer was right (unknown for format-1 files)
  int attempts = 0;       // how many times the question was answered
  int correctCount = 0;   // how many of those were correct
  std::string answeredAt; // the last answer's time, ISO 8601 UTC ("" for format-1 files)
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
  // The app session that made it: a later start never shows it back ("" in format-1 files).
  std::string session;
};

// ISO 8601 UTC with seconds: "2026-12-01T10:40:35Z".
std::string isoUtc(std::chrono::system_clock::time_point time);

class Progress {
public:
  static constexpr int kFormat = 2;

  explicit Progress(std::filesystem::path file) : file_(std::move(file)) {}
  // A missing file gives empty progress; an unreadable or invalid one throws
  // std::runtime_error naming the file (the caller decides whether to start over).
  static Progress load(const std::filesystem::path& file);
  // As load, but a file that cannot be read as progress is first moved aside, to
  // FILE.corrupt-YYYYMMDDTHHMMSSZ beside it, so that the next save() cannot lose the
  // answers it may still hold; an empty progress starts and `problem` says what was
  // wrong and where the old file now is (empty when the file loaded).
  static Progress loadOrSetAside(const std::filesystem::path& file, std::string& problem);
  void save() const;

  void recordAnswer(const AnswerKey& key, std::size_t choice, bool correct,
                    std::chrono::system_clock::time_point when = std::chrono::system_clock::now());
  const AnswerRecord* findAnswer(const AnswerKey& key) const;
  // The ids of the questions answered in `lesson` (any run).
  std::set<std::string> questionsAnsweredIn(const std::string& lesson) const;
  // Remembers a run answers refer to (by its hash; a later record replaces an earlier one).
  void recordRun(RunRecord run);
  void recordScore(ScoreRecord score);
  // Replaces an earlier prediction with the same lesson, prediction id and session.
  void recordPrediction(PredictionRecord prediction);
  const PredictionRecord* findPrediction(const std::string& lesson, const std::string& prediction,
                                         const std::string& session) const;
  // Forgets every answer, score, prediction and run (the learner's name stays).
  void clear();

  const std::string& learner() const { return learner_; }
  void setLearner(std::string name) { learner_ = std::move(name); }
  const std::filesystem::path& file() const { return file_; }
  const std::map<AnswerKey, AnswerRecord>& answers() const { return answers_; }
  const std::vector<ScoreRecord>& scores() const { return scores_; }
  const std::vector<PredictionRecord>& predictions() const { return predictions_; }
  const std::map<std::string, RunRecord>& runs() const { return runs_; }

  nlohmann::json toJson() const;
  static Progress fromJson(const nlohmann::json& j, std::filesystem::path file); // throws on a bad document

private:
  std::filesystem::path file_;
  std::string learner_;
  std::map<AnswerKey, AnswerRecord> answers_;
  std::vector<ScoreRecord> scores_;
  std::vector<PredictionRecord> predictions_;
  std::map<std::string, RunRecord> runs_; // by hash
};

} // namespace shardlab::quiz
