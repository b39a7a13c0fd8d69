#include "quiz/bank/Diagnostics.h"

namespace shardlab::quiz {

std::string Diagnostic::toString() const {
  return file.string() + ":" + (where.empty() ? std::string("/") : where) + ": " + rule + ": " + message;
}

void Diagnostics::add(std::filesystem::path file, std::string where, std::string rule, std::string message) {
  items_.push_back({std::move(file), std::move(where), std::move(rule), std::move(message)});
}

std::string Diagnostics::toString() const {
  std::string out;
  for (const auto& d : items_) out += d.toString() + "\n";
  return out;
}

ValidationError::ValidationError(Diagnostics diagnostics)
    : std::runtime_error(diagnostics.toString()), diagnostics_(std::move(diagnostics)) {}

} // namespace shardlab::quiz
