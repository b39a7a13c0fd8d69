// libFuzzer target: the lesson loader (quiz/bank/LessonLibrary::loadFile) against the
// shipped question bank. The input is written as <id>.json beside copies of the
// shipped guides (a lesson's file name must be its id). A lesson is returned exactly
// when no diagnostic was raised.
#include "FuzzSupport.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace shardlab::quiz;

namespace {
// The input's "id" when it could be a file name; otherwise "fuzz".
std::string fileStem(const std::uint8_t* data, std::size_t size) {
  const auto j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string()) return "fuzz";
  const auto id = j["id"].get<std::string>();
  if (id.empty() || id.size() > 64) return "fuzz";
  for (char c : id)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return "fuzz";
  return id;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto& dir = fuzz::scratch(fuzz::assetsDir() / "lessons");
  const auto file = dir / (fileStem(data, size) + ".json");
  fuzz::writeFile(file, data, size);
  Diagnostics diagnostics;
  const auto lesson = LessonLibrary::loadFile(file, &fuzz::bank(), diagnostics);
  (void)diagnostics.toString();
  if (lesson.has_value() != diagnostics.empty()) std::abort();
  // Leave the folder as it was: the shipped lesson of that id back, any other file gone.
  std::error_code ec;
  if (std::filesystem::exists(fuzz::assetsDir() / "lessons" / file.filename()))
    std::filesystem::copy_file(fuzz::assetsDir() / "lessons" / file.filename(), file,
                               std::filesystem::copy_options::overwrite_existing, ec);
  else
    std::filesystem::remove(file, ec);
  return 0;
}
