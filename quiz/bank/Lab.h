// An instructor's lab: a sequence of lessons with the instructor's own job
// settings, guide questions, observation templates and notes.
#pragma once

#include "quiz/bank/JobSpec.h"
#include "quiz/bank/LocalizedText.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace shardlab::quiz {

struct LabStep {
  std::string lesson;
  JobSpec overrides;                         // the lab's settings for the lesson (its step's "spec")
  std::vector<JobSpec> runs;                 // the lesson's runs with the lab's settings applied
  std::vector<std::string> questionIds;      // guide questions (default: the lesson's)
  std::vector<std::string> observationIds;   // observation template ids
  std::map<std::string, std::filesystem::path> notes; // language -> Markdown file inside the lab's folder
};

struct Lab {
  std::string id;
  LocalizedText title;
  LocalizedText description;                 // optional: what the lab is about
  std::vector<LabStep> steps;
  std::filesystem::path file;
};

} // namespace shardlab::quiz
