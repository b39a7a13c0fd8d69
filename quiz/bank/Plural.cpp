#include "quiz/bank/Plural.h"

#include <algorithm>
#include <vector>

namespace shardlab::quiz {

int pluralFormCount(std::string_view lang) { return lang == "ru" ? 3 : 2; }

int pluralForm(std::string_view lang, std::int64_t n) {
  const std::int64_t a = n < 0 ? -n : n;
  if (lang == "ru") {
    const std::int64_t last = a % 10, lastTwo = a % 100;
    if (last == 1 && lastTwo != 11) return 0;
    if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return 1;
    return 2;
  }
  if (lang == "fr") return a <= 1 ? 0 : 1;
  return a == 1 ? 0 : 1;
}

std::string withNoun(std::string_view lang, std::int64_t n, std::string_view forms) {
  std::vector<std::string_view> split;
  for (std::size_t from = 0;;) {
    const std::size_t bar = forms.find('|', from);
    split.push_back(forms.substr(from, bar == std::string_view::npos ? std::string_view::npos : bar - from));
    if (bar == std::string_view::npos) break;
    from = bar + 1;
  }
  const auto index = std::min(static_cast<std::size_t>(pluralForm(lang, n)), split.size() - 1);
  return std::to_string(n) + " " + std::string(split[index]);
}

} // namespace shardlab::quiz
