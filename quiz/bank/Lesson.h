// A lesson: a tiny job to run (or two to compare), the questions it answers, a
// guide page per language and a prediction to make before running.
#pragma once

#include "quiz/bank/JobSpec.h"
#include "quiz/bank/LessonSizing.h"
#include "quiz/bank/LocalizedText.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace shardlab::quiz {

struct LessonRun {
  LocalizedText label; // e.g. "DDP", "FSDP"; empty for a single-run lesson
  JobSpec spec;
};

// A number the learner guesses before running, then compares with the run.
struct Prediction {
  std::string id;
  std::string kind; // bytes | ratio | percent | count | milliseconds
  LocalizedText text;
  std::optional<std::string> moment; // the moment of the run that shows the answer
};

struct Lesson {
  std::string id;
  LocalizedText title;
  std::vector<LessonRun> runs; // one, or two for a comparison lesson
  std::vector<std::string> questionIds;
  std::map<std::string, std::filesystem::path> guides; // language -> Markdown file
  std::optional<Prediction> prediction;
  // What the lesson must make visible, and its time budget; absent: the job runs as written.
  std::optional<LessonSizingRule> sizing;
  std::filesystem::path file;

  bool isComparison() const { return runs.size() > 1; }
};

} // namespace shardlab::quiz
