// The languages every text of the question bank and the lessons is written in.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace shardlab::quiz {

inline constexpr std::array<std::string_view, 3> kLanguages{"en", "fr", "ru"};

inline bool isSupportedLanguage(std::string_view lang) {
  return std::find(kLanguages.begin(), kLanguages.end(), lang) != kLanguages.end();
}

} // namespace shardlab::quiz
