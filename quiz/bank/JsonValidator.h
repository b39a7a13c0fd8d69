// Checks on one JSON document that report into Diagnostics with the document's
// file name and the JSON pointer of the offending value. Each accessor returns
// nullopt (or nullptr) after reporting, so callers go on and collect every error.
#pragma once

#include "quiz/bank/Diagnostics.h"
#include "quiz/bank/JsonPath.h"
#include "quiz/bank/LocalizedText.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab::quiz {

class JsonValidator {
public:
  JsonValidator(std::filesystem::path file, Diagnostics& diagnostics)
      : file_(std::move(file)), diagnostics_(diagnostics) {}

  void error(const JsonPath& where, std::string rule, std::string message);
  const std::filesystem::path& file() const { return file_; }
  std::size_t errorCount() const { return diagnostics_.size(); }

  // Reports "wrong-type" unless `value` is an object.
  bool requireObject(const nlohmann::json& value, const JsonPath& where);
  // The member `key` of `object`; reports "missing-field" when required and absent.
  const nlohmann::json* member(const nlohmann::json& object, const JsonPath& where, std::string_view key,
                               bool required = true);
  std::optional<std::string> string(const nlohmann::json& object, const JsonPath& where, std::string_view key,
                                    bool required = true);
  // An id: a string matching isWellFormedId ("bad-id" otherwise).
  std::optional<std::string> id(const nlohmann::json& object, const JsonPath& where, std::string_view key,
                                bool required = true);
  std::optional<std::vector<std::string>> stringList(const nlohmann::json& object, const JsonPath& where,
                                                     std::string_view key, bool required = true);
  // {"en": "...", "fr": "...", "ru": "..."}; with allLanguages every supported
  // language must be there and non-empty ("missing-language", "empty-text"),
  // otherwise at least "en". Unknown languages are "unknown-language".
  std::optional<LocalizedText> localized(const nlohmann::json& value, const JsonPath& where, bool allLanguages = true);
  // Reports "unknown-key" for each member not in `allowed`.
  void rejectUnknownKeys(const nlohmann::json& object, const JsonPath& where,
                         std::initializer_list<std::string_view> allowed);

private:
  std::filesystem::path file_;
  Diagnostics& diagnostics_;
};

// "object", "array", "string", "number", ... for messages.
std::string jsonTypeName(const nlohmann::json& value);

} // namespace shardlab::quiz
