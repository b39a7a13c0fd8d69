#include "quiz/bank/AssetLocator.h"

#include <cstdlib>
#include <string>

#ifndef SHARDLAB_SOURCE_ASSETS_DIR
#define SHARDLAB_SOURCE_ASSETS_DIR ""
#endif

namespace shardlab::quiz {

namespace {

bool isDir(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_directory(p, ec);
}

} // namespace

std::filesystem::path findAssetsDir(const std::optional<std::filesystem::path>& explicitDir,
                                    const std::filesystem::path& executableDir) {
  if (explicitDir) {
    if (!isDir(*explicitDir)) throw AssetsNotFound("--assets " + explicitDir->string() + ": no such folder");
    return *explicitDir;
  }
  if (const char* env = std::getenv("SHARDLAB_ASSETS"); env && *env) {
    if (!isDir(env)) throw AssetsNotFound(std::string("SHARDLAB_ASSETS=") + env + ": no such folder");
    return env;
  }
  std::string tried;
  if (!executableDir.empty()) {
    const auto installed = (executableDir / ".." / "share" / "shardlab" / "assets").lexically_normal();
    if (isDir(installed / "quiz")) return installed;
    tried += " " + installed.string();
  }
  const std::filesystem::path source(SHARDLAB_SOURCE_ASSETS_DIR);
  if (!source.empty() && isDir(source / "quiz")) return source;
  tried += " " + source.string();
  throw AssetsNotFound("cannot find ShardLab's assets (use --assets DIR or set SHARDLAB_ASSETS); tried:" + tried);
}

std::filesystem::path currentExecutableDir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

} // namespace shardlab::quiz
