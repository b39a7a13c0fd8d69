// Where ShardLab's assets (quiz/, lessons/, labs/, ...) are. The app and the
// command line tools share this one lookup.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>

namespace shardlab::quiz {

class AssetsNotFound : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// In order:
//   1. `explicitDir` (e.g. --assets DIR): must be a folder;
//   2. the environment variable SHARDLAB_ASSETS, when set and not empty: must be a folder;
//   3. <executableDir>/../share/shardlab/assets, when it holds a quiz/ folder;
//   4. the source tree's assets/ baked in at compile time, when it holds a quiz/ folder.
// Throws AssetsNotFound listing what was tried. Pass an empty executableDir to
// skip step 3 (the app passes QCoreApplication::applicationDirPath()).
std::filesystem::path findAssetsDir(const std::optional<std::filesystem::path>& explicitDir,
                                    const std::filesystem::path& executableDir);

// The folder of the running executable (from /proc/self/exe); empty if unknown.
std::filesystem::path currentExecutableDir();

} // namespace shardlab::quiz
