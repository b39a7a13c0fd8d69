#include "quiz/observations/ObservationText.h"

#include "trace/Summary.h"

#include <cctype>
#include <cstdio>

namespace shardlab::quiz::text {

std::string fill(std::string pattern, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string key = "{" + std::to_string(i) + "}";
    for (std::size_t at = pattern.find(key); at != std::string::npos; at = pattern.find(key, at + args[i].size()))
      pattern.replace(at, key.size(), args[i]);
  }
  return pattern;
}

namespace {

// Russian writes the millisecond "мс" (as the app's playback bar does).
std::string russianUnits(std::string s) {
  for (std::size_t at = s.find(" ms"); at != std::string::npos; at = s.find(" ms", at + 1))
    if (at + 3 == s.size() || !std::isalpha(static_cast<unsigned char>(s[at + 3]))) s.replace(at, 3, " мс");
  return s;
}

} // namespace

LocalizedText localized(const std::string& en, const std::string& fr, const std::string& ru,
                        const std::vector<std::string>& args) {
  LocalizedText t;
  t.set("en", fill(en, args));
  t.set("fr", fill(fr, args));
  t.set("ru", russianUnits(fill(ru, args)));
  return t;
}

LocalizedText localized(const std::string& en, const std::string& fr, const std::string& ru,
                        const std::vector<LocalizedText>& args) {
  auto argsIn = [&](const char* lang) {
    std::vector<std::string> out;
    for (const auto& a : args) out.push_back(a.get(lang));
    return out;
  };
  LocalizedText t;
  t.set("en", fill(en, argsIn("en")));
  t.set("fr", fill(fr, argsIn("fr")));
  t.set("ru", russianUnits(fill(ru, argsIn("ru"))));
  return t;
}

std::string bytes(std::int64_t b) { return trace::formatBytes(b); }

std::string ms(std::int64_t ns) { return fixed(static_cast<double>(ns) / 1e6, 2) + " ms"; }

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string percent(double fraction) { return fixed(fraction * 100.0, 1) + " %"; }

std::string times(double ratio) { return fixed(ratio, 2) + "×"; }

std::string integer(std::int64_t v) { return std::to_string(v); }

std::string rankList(const std::vector<int>& ranks) {
  std::string s;
  for (std::size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
}

} // namespace shardlab::quiz::text
