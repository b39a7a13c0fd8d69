#include "quiz/progress/ProgressLocation.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace shardlab::quiz {

std::filesystem::path dataDirectory(const std::string& organization, const std::string& application) {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg && std::filesystem::path(xdg).is_absolute())
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::filesystem::path(home) / ".local" / "share";
  else
    base = std::filesystem::current_path();
  return base / organization / application;
}

std::filesystem::path progressFile(const std::filesystem::path& dataDir, const std::string& learner) {
  if (learner.empty()) return dataDir / "progress.json";
  // Letters of any script (UTF-8 bytes above 0x7f), digits, '-' and '_' stay; the hash keeps
  // "Anna K" and "Anna_K" apart.
  std::string safe;
  std::uint64_t hash = 0xCBF29CE484222325ULL;
  for (unsigned char c : learner) {
    hash = (hash ^ c) * 0x100000001B3ULL;
    const bool keep = c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_';
    safe += keep ? static_cast<char>(c) : '_';
  }
  char suffix[10];
  std::snprintf(suffix, sizeof suffix, "-%08x", static_cast<unsigned>(hash & 0xffffffffU));
  return dataDir / "learners" / (safe.substr(0, 64) + suffix + ".json");
}

std::vector<std::filesystem::path> progressFiles(const std::filesystem::path& dataDir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  if (std::filesystem::is_regular_file(dataDir / "progress.json", ec)) files.push_back(dataDir / "progress.json");
  std::vector<std::filesystem::path> learners;
  for (std::filesystem::directory_iterator it(dataDir / "learners", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json" && it->is_regular_file(ec)) learners.push_back(it->path());
  std::sort(learners.begin(), learners.end());
  files.insert(files.end(), learners.begin(), learners.end());
  return files;
}

} // namespace shardlab::quiz
