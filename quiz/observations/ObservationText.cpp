#include "quiz/observations/ObservationText.h"

#include "quiz/bank/Plural.h"
#include "trace/Summary.h"

#include <cctype>
#include <cstdio>
#include <utility>

namespace shardlab::quiz::text {

std::string fill(std::string_view lang, const std::string& pattern, const std::vector<std::string>& args) {
  std::string out;
  for (std::size_t at = 0; at < pattern.size();) {
    const std::size_t open = pattern.find('{', at);
    const std::size_t close = open == std::string::npos ? std::string::npos : pattern.find('}', open);
    if (close == std::string::npos) {
      out += pattern.substr(at);
      break;
    }
    out += pattern.substr(at, open - at);
    const std::string inside = pattern.substr(open + 1, close - open - 1);
    const std::size_t bar = inside.find('|');
    const std::string key = inside.substr(0, bar);
    const bool isIndex = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
    const std::size_t index = isIndex ? std::stoul(key) : args.size();
    if (index >= args.size()) {
      out += pattern.substr(open, close - open + 1); // not a placeholder of this text: kept as written
    } else if (bar == std::string::npos) {
      out += args[index];
    } else {
      out += withNoun(lang, std::stoll(args[index]), inside.substr(bar + 1));
    }
    at = close + 1;
  }
  return out;
}

std::string localNumber(std::string_view lang, std::string s) {
  if (lang == "en") return s;
  for (std::size_t i = 1; i + 1 < s.size(); ++i)
    if (s[i] == '.' && std::isdigit(static_cast<unsigned char>(s[i - 1])) && std::isdigit(static_cast<unsigned char>(s[i + 1])))
      s[i] = ',';
  const bool fr = lang == "fr";
  const std::pair<const char*, const char*> units[] = {
      {" KiB", fr ? " Kio" : " КиБ"}, {" MiB", fr ? " Mio" : " МиБ"}, {" GiB", fr ? " Gio" : " ГиБ"}};
  for (const auto& [from, to] : units)
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1)) s.replace(at, 4, to);
  if (s.size() > 2 && s.compare(s.size() - 2, 2, " B") == 0 && std::isdigit(static_cast<unsigned char>(s[s.size() - 3])))
    s.replace(s.size() - 1, 1, fr ? "o" : "Б");
  return s;
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
  std::vector<LocalizedText> same;
  for (const auto& a : args) {
    LocalizedText t;
    for (const auto lang : {"en", "fr", "ru"}) t.set(lang, localNumber(lang, a));
    same.push_back(std::move(t));
  }
  return localized(en, fr, ru, same);
}

LocalizedText localized(const std::string& en, const std::string& fr, const std::string& ru,
                        const std::vector<LocalizedText>& args) {
  auto argsIn = [&](const char* lang) {
    std::vector<std::string> out;
    for (const auto& a : args) out.push_back(a.get(lang));
    return out;
  };
  LocalizedText t;
  t.set("en", fill("en", en, argsIn("en")));
  t.set("fr", fill("fr", fr, argsIn("fr")));
  t.set("ru", russianUnits(fill("ru", ru, argsIn("ru"))));
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
