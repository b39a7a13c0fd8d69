#include "quiz/bank/LocalizedText.h"

#include <nlohmann/json.hpp>

namespace shardlab::quiz {

const std::string& LocalizedText::get(std::string_view lang) const {
  static const std::string empty;
  if (auto it = texts_.find(lang); it != texts_.end()) return it->second;
  if (auto it = texts_.find(std::string_view("en")); it != texts_.end()) return it->second;
  return empty;
}

nlohmann::json LocalizedText::toJson() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [lang, text] : texts_) j[lang] = text;
  return j;
}

} // namespace shardlab::quiz
