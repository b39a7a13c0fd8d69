// One text in several languages ("en", "fr", "ru").
#pragma once

#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace shardlab::quiz {

class LocalizedText {
public:
  LocalizedText() = default;
  explicit LocalizedText(std::map<std::string, std::string, std::less<>> texts) : texts_(std::move(texts)) {}

  // The text in `lang`, else the English one, else "".
  const std::string& get(std::string_view lang) const;
  bool has(std::string_view lang) const { return texts_.find(lang) != texts_.end(); }
  void set(std::string lang, std::string text) { texts_[std::move(lang)] = std::move(text); }
  const std::map<std::string, std::string, std::less<>>& all() const { return texts_; }

  nlohmann::json toJson() const;

private:
  std::map<std::string, std::string, std::less<>> texts_;
};

} // namespace shardlab::quiz
