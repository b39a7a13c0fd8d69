// Where learners' progress files live. The app keeps them in its data folder
// (QStandardPaths::AppDataLocation, on Linux $XDG_DATA_HOME/<organization>/<application>,
// else ~/.local/share/...): progress.json for a learner with no name (and files of
// format 1, written before learners had names), learners/<name>.json for each named
// learner. shardlab-quiz finds the same folder without Qt through dataDirectory().
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace shardlab::quiz {

// The folder QStandardPaths::AppDataLocation gives on Linux for this organization and
// application ("ShardLab", "shardlab" for the app).
std::filesystem::path dataDirectory(const std::string& organization = "ShardLab", const std::string& application = "shardlab");
// The learner's progress file inside `dataDir`: progress.json for "", else
// learners/<the name with characters unsafe in a file name replaced>-<8 hex of its hash>.json.
std::filesystem::path progressFile(const std::filesystem::path& dataDir, const std::string& learner);
// Every progress file in `dataDir`: progress.json (when present), then learners/*.json by name.
std::vector<std::filesystem::path> progressFiles(const std::filesystem::path& dataDir);

} // namespace shardlab::quiz
