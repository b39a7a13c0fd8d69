// Reads and parses a JSON file; a missing file, one that is not a regular file (a
// directory, /dev/zero, a FIFO) or one larger than its cap (job/BoundedFile.h), or a
// syntax error becomes a diagnostic ("file-unreadable", "file-too-large", "json-too-deep" past
// kJsonNestingCap levels, "json-syntax" with line and column).
#pragma once

#include "job/BoundedFile.h"
#include "quiz/bank/Diagnostics.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace shardlab::quiz {

class JsonFile {
public:
  static std::optional<nlohmann::json> read(const std::filesystem::path& file, Diagnostics& diagnostics,
                                            FileCap cap = kQuizFileCap);
  // Whole file as bytes; nullopt when it cannot be read (`problem`, when given, says why).
  static std::optional<std::string> readText(const std::filesystem::path& file, FileCap cap = kQuizFileCap,
                                             FileProblem* problem = nullptr);
};

} // namespace shardlab::quiz
