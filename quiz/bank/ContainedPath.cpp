#include "quiz/bank/ContainedPath.h"

#include <algorithm>

namespace shardlab::quiz {

namespace {

bool isWithin(const std::filesystem::path& inner, const std::filesystem::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue; // trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

} // namespace

std::optional<std::filesystem::path> ContainedPath::resolve(const std::filesystem::path& folder,
                                                            const std::string& relative, std::string& problem) {
  const std::filesystem::path rel(relative);
  if (relative.empty()) {
    problem = "the path is empty";
    return std::nullopt;
  }
  if (rel.is_absolute() || rel.has_root_name() || rel.has_root_directory()) {
    problem = "\"" + relative + "\" is absolute; paths must be relative to the file's folder";
    return std::nullopt;
  }
  const auto normal = rel.lexically_normal();
  if (!normal.empty() && *normal.begin() == "..") {
    problem = "\"" + relative + "\" points outside the file's folder";
    return std::nullopt;
  }
  std::error_code ec;
  const auto base = std::filesystem::weakly_canonical(std::filesystem::absolute(folder, ec), ec);
  const auto target = std::filesystem::weakly_canonical(base / normal, ec);
  if (ec || !isWithin(target, base)) {
    problem = "\"" + relative + "\" leads outside the file's folder (through a symbolic link)";
    return std::nullopt;
  }
  return target;
}

} // namespace shardlab::quiz
