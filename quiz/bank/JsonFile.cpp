#include "quiz/bank/JsonFile.h"


namespace shardlab::quiz {

std::optional<std::string> JsonFile::readText(const std::filesystem::path& file, FileCap cap, FileProblem* problem) {
  FileProblem why;
  auto text = readBoundedFile(file.string(), cap, why);
  if (!text && problem) *problem = why;
  return text;
}

std::optional<nlohmann::json> JsonFile::read(const std::filesystem::path& file, Diagnostics& diagnostics, FileCap cap) {
  FileProblem why;
  auto text = readText(file, cap, &why);
  if (!text) {
    diagnostics.add(file, "", why.kind == FileProblem::Kind::TooLarge ? "file-too-large" : "file-unreadable",
                    "the file " + why.text);
    return std::nullopt;
  }
  if (auto deep = jsonNestingProblem(*text)) {
    diagnostics.add(file, "", "json-too-deep", "the file " + *deep);
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
