// Guide pages and lab notes name the job through placeholders filled from the job
// that actually ran and the machine, never "4 ranks" written out:
//   {ranks} {stages} {microbatches} {virtual_stages} {layers} {units} {hidden}
//   {batch} {steps} {cores} {gpus}
// A placeholder may carry the noun's plural forms, and then prints the number with the
// form the language's rule picks: {ranks|ранг|ранга|рангов} (ru: one|few|many),
// {ranks|rank|ranks} (en, fr: one|other) -> "4 ранга", "4 ranks", "1 rang".
#pragma once

#include "quiz/bank/Diagnostics.h"
#include "quiz/bank/Plural.h"

#include "job/Calibration.h"
#include "job/JobConfig.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab::quiz {

// What a page can name: the job that ran and the machine it ran on.
struct PlaceholderValues {
  JobConfig job;
  int cores = 1;
  int gpus = 0;
};

// The values of a run: its job, and the machine its trace's job record describes
// (`calibration`: cores and GPUs; none in traces without one: 1 core, no GPU).
PlaceholderValues placeholderValues(const JobConfig& job, const std::optional<Calibration>& machine);

const std::vector<std::string>& knownPlaceholders();

struct PlaceholderIssue {
  int line = 0;  // 1-based
  std::string message;
};

// Each unknown placeholder, unclosed brace or wrong number of plural forms, by line.
std::vector<PlaceholderIssue> checkPlaceholders(std::string_view text, std::string_view language);

// Reads a guide page or lab note and reports each issue as "FILE:line L: placeholder: ...".
void checkPlaceholderFile(const std::filesystem::path& file, std::string_view language, Diagnostics& diagnostics);

// The text with every placeholder replaced; a malformed one is left as written
// (validation refuses it before any page is shown).
std::string fillPlaceholders(std::string_view text, std::string_view language, const PlaceholderValues& values);

} // namespace shardlab::quiz
