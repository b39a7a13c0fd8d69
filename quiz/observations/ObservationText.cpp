#include "quiz/observations/ObservationText.h"

#include "quiz/observations/ObservationMessages.h"

#include "quiz/bank/Plural.h"
#include "trace/Summary.h"

#include <cctype>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace shardlab::quiz::text {

namespace {

// The unit's name in lang: names.json's "unit.<name>" ("MiB" is "Mio" in French).
const std::string& unitName(std::string_view lang, std::string_view unit) {
  return observationMessages().text("unit." + std::string(unit), lang);
}

// Russian writes the millisecond with its own letters (names.json "unit.ms", as the app's
// playback bar does): " ms" followed by no letter becomes that name, in the whole sentence.
std::string russianUnits(std::string s) {
  const std::string ms = " " + unitName("ru", "ms");
  for (std::size_t at = s.find(" ms"); at != std::string::npos; at = s.find(" ms", at + 1))
    if (at + 3 == s.size() || !std::isalpha(static_cast<unsigned char>(s[at + 3]))) s.replace(at, 3, ms);
  return s;
}

const Param* findParam(const Params& params, std::string_view name) {
  for (const auto& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

// The text with each "{name}" replaced by the parameter's value in lang and each
// "{name|form|...}" by the value, a whole number, and the form pluralForm(lang, value) picks.
std::string fill(std::string_view id, std::string_view lang, const std::string& pattern, const Params& params) {
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
    const std::string name = inside.substr(0, bar);
    const Param* p = findParam(params, name);
    if (!p) throw std::logic_error("observation message \"" + std::string(id) + "\" needs the parameter \"" + name + "\"");
    const std::string& value = p->value.get(lang);
    out += bar == std::string::npos ? value : withNoun(lang, std::stoll(value), inside.substr(bar + 1));
    at = close + 1;
  }
  return out;
}

} // namespace

Param::Param(std::string id, std::string number) : name(std::move(id)) {
  for (const auto lang : {"en", "fr", "ru"}) value.set(lang, localNumber(lang, number));
}

LocalizedText message(std::string_view id, const Params& params) {
  const auto& messages = observationMessages();
  LocalizedText t;
  t.set("en", fill(id, "en", messages.text(id, "en"), params));
  t.set("fr", fill(id, "fr", messages.text(id, "fr"), params));
  t.set("ru", russianUnits(fill(id, "ru", messages.text(id, "ru"), params)));
  return t;
}

LocalizedText same(const std::string& s) {
  LocalizedText t;
  t.set("en", s);
  t.set("fr", localNumber("fr", s));
  t.set("ru", russianUnits(localNumber("ru", s)));
  return t;
}

std::string localNumber(std::string_view lang, std::string s) {
  if (lang == "en") return s;
  for (std::size_t i = 1; i + 1 < s.size(); ++i)
    if (s[i] == '.' && std::isdigit(static_cast<unsigned char>(s[i - 1])) && std::isdigit(static_cast<unsigned char>(s[i + 1])))
      s[i] = ',';
  for (const char* unit : {"KiB", "MiB", "GiB"}) {
    const std::string from = std::string(" ") + unit, to = " " + unitName(lang, unit);
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1)) s.replace(at, from.size(), to);
  }
  if (s.size() > 2 && s.compare(s.size() - 2, 2, " B") == 0 && std::isdigit(static_cast<unsigned char>(s[s.size() - 3])))
    s.replace(s.size() - 1, 1, unitName(lang, "B"));
  return s;
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
