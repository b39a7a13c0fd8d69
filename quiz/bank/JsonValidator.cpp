#include "quiz/bank/JsonValidator.h"

#include "quiz/bank/KnownIds.h"
#include "quiz/bank/Languages.h"

#include <algorithm>

namespace shardlab::quiz {

std::string jsonTypeName(const nlohmann::json& value) {
  if (value.is_number_integer()) return "integer";
  return value.type_name();
}

void JsonValidator::error(const JsonPath& where, std::string rule, std::string message) {
  diagnostics_.add(file_, where.str(), std::move(rule), std::move(message));
}

bool JsonValidator::requireObject(const nlohmann::json& value, const JsonPath& where) {
  if (value.is_object()) return true;
  error(where, "wrong-type", "expected an object, found " + jsonTypeName(value));
  return false;
}

const nlohmann::json* JsonValidator::member(const nlohmann::json& object, const JsonPath& where, std::string_view key,
                                            bool required) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(std::string(key));
  if (it == object.end()) {
    if (required) error(where / key, "missing-field", "required field \"" + std::string(key) + "\" is missing");
    return nullptr;
  }
  return &*it;
}

std::optional<std::string> JsonValidator::string(const nlohmann::json& object, const JsonPath& where,
                                                 std::string_view key, bool required) {
  const auto* v = member(object, where, key, required);
  if (!v) return std::nullopt;
  if (!v->is_string()) {
    error(where / key, "wrong-type", "expected a string, found " + jsonTypeName(*v));
    return std::nullopt;
  }
  auto s = v->get<std::string>();
  if (s.empty()) {
    error(where / key, "empty-text", "must not be empty");
    return std::nullopt;
  }
  return s;
}

std::optional<std::string> JsonValidator::id(const nlohmann::json& object, const JsonPath& where,
                                             std::string_view key, bool required) {
  auto s = string(object, where, key, required);
  if (s && !isWellFormedId(*s)) {
    error(where / key, "bad-id", "\"" + *s + "\" is not an id (lower-case letters, digits, '-' and '_')");
    return std::nullopt;
  }
  return s;
}

std::optional<std::vector<std::string>> JsonValidator::stringList(const nlohmann::json& object, const JsonPath& where,
                                                                  std::string_view key, bool required) {
  const auto* v = member(object, where, key, required);
  if (!v) return std::nullopt;
  if (!v->is_array()) {
    error(where / key, "wrong-type", "expected an array of strings, found " + jsonTypeName(*v));
    return std::nullopt;
  }
  std::vector<std::string> out;
  bool ok = true;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const auto& item = (*v)[i];
    if (!item.is_string() || item.get_ref<const std::string&>().empty()) {
      error(where / key / i, "wrong-type", "expected a non-empty string, found " + jsonTypeName(item));
      ok = false;
      continue;
    }
    out.push_back(item.get<std::string>());
  }
  if (!ok) return std::nullopt;
  return out;
}

std::optional<LocalizedText> JsonValidator::localized(const nlohmann::json& value, const JsonPath& where,
                                                      bool allLanguages) {
  if (!value.is_object()) {
    error(where, "wrong-type",
          "expected an object of texts by language ({\"en\": ..., \"fr\": ..., \"ru\": ...}), found " +
              jsonTypeName(value));
    return std::nullopt;
  }
  const std::size_t before = errorCount();
  LocalizedText text;
  for (const auto& [lang, item] : value.items()) {
    if (!isSupportedLanguage(lang)) {
      error(where / lang, "unknown-language", "\"" + lang + "\" is not one of en, fr, ru");
      continue;
    }
    if (!item.is_string()) {
      error(where / lang, "wrong-type", "expected a string, found " + jsonTypeName(item));
      continue;
    }
    const auto& s = item.get_ref<const std::string&>();
    if (std::all_of(s.begin(), s.end(), [](unsigned char c) { return c == ' ' || c == '\n' || c == '\t'; })) {
      error(where / lang, "empty-text", "the " + lang + " text is empty");
      continue;
    }
    text.set(lang, s);
  }
  for (auto lang : kLanguages) {
    if (!allLanguages && lang != "en") continue;
    if (!value.contains(std::string(lang)))
      error(where / lang, "missing-language", "the " + std::string(lang) + " text is missing");
  }
  if (errorCount() != before) return std::nullopt;
  return text;
}

void JsonValidator::rejectUnknownKeys(const nlohmann::json& object, const JsonPath& where,
                                      std::initializer_list<std::string_view> allowed) {
  if (!object.is_object()) return;
  for (const auto& [key, value] : object.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string list;
      for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      error(where / key, "unknown-key", "unknown field \"" + key + "\" (expected one of: " + list + ")");
    }
  }
}

} // namespace shardlab::quiz
