// Replaces a file's content all at once: writes a temporary file in the same
// folder, fsyncs it, renames it over the target and fsyncs the folder. A reader
// sees the old content or the new one, never a part; if anything fails, the old
// file is left untouched and the temporary file removed.
#pragma once

#include <filesystem>
#include <string_view>

namespace shardlab::quiz {

class AtomicFile {
public:
  // Throws std::system_error (message names the path) on failure.
  static void write(const std::filesystem::path& target, std::string_view content);
};

} // namespace shardlab::quiz
