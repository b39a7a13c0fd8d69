// Resolves a relative path written in a lesson or lab file against that file's
// folder, refusing anything that would leave the folder: absolute paths, ".."
// that climbs out, and symbolic links that lead outside.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace shardlab::quiz {

class ContainedPath {
public:
  // The resolved path, or nullopt with `problem` saying why it is refused.
  // Does not require the file to exist (callers report "file-not-found" apart).
  static std::optional<std::filesystem::path> resolve(const std::filesystem::path& folder, const std::string& relative,
                                                      std::string& problem);
};

} // namespace shardlab::quiz
