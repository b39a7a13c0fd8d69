// Validation errors: each names the file, the place in it (a JSON pointer such as
// "/questions/3/choices/2/fr", or "line 4, column 7" for a syntax error) and the
// rule it breaks. Loaders collect every error instead of stopping at the first.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace shardlab::quiz {

struct Diagnostic {
  std::filesystem::path file;
  std::string where;   // JSON pointer, "" for the whole document, or "line L, column C"
  std::string rule;    // stable rule id, e.g. "missing-language", "correct-count"
  std::string message; // what is wrong, for a person

  // "FILE:WHERE: RULE: MESSAGE"
  std::string toString() const;
};

class Diagnostics {
public:
  void add(std::filesystem::path file, std::string where, std::string rule, std::string message);
  bool empty() const { return items_.empty(); }
  std::size_t size() const { return items_.size(); }
  const std::vector<Diagnostic>& all() const { return items_; }
  // One line per diagnostic.
  std::string toString() const;

private:
  std::vector<Diagnostic> items_;
};

// Thrown by the load-or-throw entry points; carries every diagnostic.
class ValidationError : public std::runtime_error {
public:
  explicit ValidationError(Diagnostics diagnostics);
  const Diagnostics& diagnostics() const { return diagnostics_; }

private:
  Diagnostics diagnostics_;
};

} // namespace shardlab::quiz
