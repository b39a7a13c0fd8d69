// Reads and parses a JSON file; a missing file or a syntax error becomes a
// diagnostic ("file-unreadable", "json-syntax" with line and column).
#pragma once

#include "quiz/bank/Diagnostics.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace shardlab::quiz {

class JsonFile {
public:
  static std::optional<nlohmann::json> read(const std::filesystem::path& file, Diagnostics& diagnostics);
  // Whole file as bytes; nullopt when it cannot be read.
  static std::optional<std::string> readText(const std::filesystem::path& file);
};

} // namespace shardlab::quiz
