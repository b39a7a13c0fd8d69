// Shared by the lesson and lab fuzz targets: the loaders read files, so each input is
// written to a scratch folder (in /dev/shm when there is one) that holds copies of the
// shipped guides, so that paths in the input can resolve.
#pragma once

#include "quiz/bank/LessonLibrary.h"
#include "quiz/bank/QuestionBank.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace shardlab::quiz::fuzz {

inline std::filesystem::path assetsDir() { return SHARDLAB_FUZZ_ASSETS_DIR; }

inline const QuestionBank& bank() {
  static const auto b = QuestionBank::loadDirectory(assetsDir() / "quiz");
  return b;
}

// A scratch folder per process, with `copyFrom`'s files copied in; removed at exit.
inline const std::filesystem::path& scratch(const std::filesystem::path& copyFrom) {
  static const std::filesystem::path dir = [&] {
    const std::filesystem::path base = std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    auto d = base / ("shardlab-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    std::filesystem::copy(copyFrom, d, std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing);
    static struct Remove {
      std::filesystem::path p;
      ~Remove() {
        std::error_code ec;
        std::filesystem::remove_all(p, ec);
      }
    } remove{d};
    return d;
  }();
  return dir;
}

inline void writeFile(const std::filesystem::path& file, const std::uint8_t* data, std::size_t size) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

} // namespace shardlab::quiz::fuzz
