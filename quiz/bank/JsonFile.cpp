#include "quiz/bank/JsonFile.h"

#include <fstream>
#include <sstream>

namespace shardlab::quiz {

std::optional<std::string> JsonFile::readText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return ss.str();
}

std::optional<nlohmann::json> JsonFile::read(const std::filesystem::path& file, Diagnostics& diagnostics) {
  auto text = readText(file);
  if (!text) {
    diagnostics.add(file, "", "file-unreadable", "cannot read the file");
    return std::nullopt;
  }
  try {
    return nlohmann::json::parse(*text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based and points at the offending character (or one past the end).
    const std::size_t offset = e.byte > 0 ? std::min<std::size_t>(e.byte - 1, text->size()) : 0;
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < offset; ++i) {
      if ((*text)[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();
    if (auto pos = what.find("parse error"); pos != std::string::npos) what = what.substr(pos);
    diagnostics.add(file, "line " + std::to_string(line) + ", column " + std::to_string(column), "json-syntax",
                    what);
    return std::nullopt;
  } catch (const nlohmann::json::exception& e) {
    // Well-formed JSON the parser still refuses: a number beyond a double (1e4544445),
    // found by fuzz_lesson_loader; it terminated the app and shardlab-quiz.
    diagnostics.add(file, "", "json-syntax", e.what());
    return std::nullopt;
  }
}

} // namespace shardlab::quiz
