// Every shipped French and Russian text (assets, the observation messages of
// assets/observations among them, and the app's .ts files) uses the glossary's words:
// no forbidden variant (assets/glossary.json: "микропакет" where the glossary says
// "микробатч") and no English word left in it, except the technical terms the glossary
// allows.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = fs::path(SHARDLAB_TEST_ASSETS_DIR).parent_path();

struct Text {
  std::string where, lang, text;
};

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Lower case for ASCII, Latin-1 capitals and Cyrillic А-Я, Ё (enough for the glossary's words).
std::string lower(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += static_cast<char>(std::tolower(c));
    } else if (i + 1 < s.size()) {
      const auto d = static_cast<unsigned char>(s[i + 1]);
      unsigned cp = ((c & 0x1Fu) << 6) | (d & 0x3Fu);
      const bool twoBytes = (c & 0xE0u) == 0xC0u;
      if (twoBytes && cp >= 0x410 && cp <= 0x42F) cp += 0x20;        // А-Я
      else if (twoBytes && cp == 0x401) cp = 0x451;                   // Ё
      else if (twoBytes && cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) cp += 0x20; // À-Þ
      if (twoBytes) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
        ++i;
      } else {
        out += s[i];
      }
    } else {
      out += s[i];
    }
  }
  return out;
}

void collectJson(const nlohmann::json& j, const std::string& where, std::vector<Text>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if ((it.key() == "fr" || it.key() == "ru") && it->is_string()) out.push_back({where + "/" + it.key(), it.key(), *it});
      else collectJson(*it, where + "/" + it.key(), out);
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) collectJson(j[i], where + "/" + std::to_string(i), out);
  }
}

std::string unescapeXml(std::string s) {
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}})
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

std::vector<Text> shippedTexts() {
  std::vector<Text> out;
  for (const auto& e : fs::recursive_directory_iterator(kRoot / "assets")) {
    const auto& p = e.path();
    const std::string name = p.filename().string();
    if (p.extension() == ".json" && name != "glossary.json") {
      collectJson(nlohmann::json::parse(readAll(p)), p.lexically_relative(kRoot).string() + ":", out);
    } else if (name.ends_with(".fr.md") || name.ends_with(".ru.md")) {
      const std::string lang = name.substr(name.size() - 5, 2);
      std::istringstream in(readAll(p));
      std::string line;
      for (int n = 1; std::getline(in, line); ++n)
        out.push_back({p.lexically_relative(kRoot).string() + ":" + std::to_string(n), lang, line});
    }
  }
  for (const std::string lang : {"fr", "ru"}) {
    const fs::path ts = kRoot / "app/translations" / ("shardlab_" + lang + ".ts");
    std::istringstream in(readAll(ts));
    std::string line;
    const std::regex translation(R"(<(?:translation|numerusform)[^>]*>(.*?)</)");
    for (int n = 1; std::getline(in, line); ++n)
      for (std::sregex_iterator it(line.begin(), line.end(), translation), end; it != end; ++it)
        out.push_back({ts.lexically_relative(kRoot).string() + ":" + std::to_string(n), lang, unescapeXml((*it)[1].str())});
  }
  return out;
}

// What is not prose: `code`, {placeholders}, %1, tags, file names and paths.
std::string prose(const std::string& s) {
  static const std::regex code(R"(`[^`]*`|\{[^}]*\}|%\d+|%n|<[^>]*>|https?://\S+|\S+\.(?:md|json|png|trace|txt)\b)");
  return std::regex_replace(s, code, " ");
}

bool startsWord(const std::string& s, std::size_t at) {
  if (at == 0) return true;
  const auto c = static_cast<unsigned char>(s[at - 1]);
  return c < 0x80 && !std::isalnum(c) && c != '-' && c != '_';
}

} // namespace

TEST(Glossary, EveryTermHasThreeLanguages) {
  const auto g = nlohmann::json::parse(readAll(kRoot / "assets/glossary.json"));
  ASSERT_GE(g.at("terms").size(), 10u);
  for (const auto& t : g.at("terms"))
    for (const char* lang : {"en", "fr", "ru"}) EXPECT_FALSE(t.value(lang, std::string()).empty()) << t.dump();
}

TEST(Glossary, ShippedTextsUseNoForbiddenVariant) {
  const auto g = nlohmann::json::parse(readAll(kRoot / "assets/glossary.json"));
  const auto texts = shippedTexts();
  ASSERT_GT(texts.size(), 500u); // assets, observation messages and .ts files were all found
  ASSERT_TRUE(std::any_of(texts.begin(), texts.end(),
                          [](const Text& t) { return t.where.rfind("assets/observations/", 0) == 0; }));
  int found = 0;
  for (const auto& t : g.at("terms")) {
    if (!t.contains("forbidden")) continue;
    for (const auto& [lang, variants] : t.at("forbidden").items())
      for (const auto& v : variants) {
        const std::string variant = lower(v.get<std::string>());
        for (const auto& x : texts) {
          if (x.lang != lang) continue;
          const std::string low = lower(prose(x.text));
          for (std::size_t at = low.find(variant); at != std::string::npos; at = low.find(variant, at + 1))
            if (startsWord(low, at)) {
              ADD_FAILURE() << x.where << ": " << lang << ": \"" << v.get<std::string>() << "\" where the glossary says \""
                            << t.at(lang).get<std::string>() << "\": " << x.text;
              ++found;
              break;
            }
        }
      }
  }
  EXPECT_EQ(found, 0);
}

// Russian: a lower-case Latin word outside (a gloss) must be an allowed technical term.
// French: none of the English words below may appear.
TEST(Glossary, NoEnglishLeftInFrenchOrRussian) {
  const auto g = nlohmann::json::parse(readAll(kRoot / "assets/glossary.json"));
  std::set<std::string> allowed;
  for (const auto& w : g.at("english_allowed")) allowed.insert(lower(w.get<std::string>()));
  const std::set<std::string> english{"the", "and", "of", "with", "which", "what", "while", "each", "every", "only",
                                      "from", "this", "that", "is", "are", "was", "were", "how", "many", "why",
                                      "steps", "bytes", "memory", "run", "runs", "idle", "waits", "before", "after"};
  const std::regex word(R"([A-Za-z][A-Za-z0-9_.'-]*)");
  const std::regex gloss(R"(\([^()]*\))");
  int found = 0;
  for (const auto& x : shippedTexts()) {
    std::string text = prose(x.text);
    if (x.lang == "ru") text = std::regex_replace(text, gloss, " ");
    for (std::sregex_iterator it(text.begin(), text.end(), word), end; it != end; ++it) {
      std::string w = it->str();
      while (!w.empty() && (w.back() == '.' || w.back() == '\'' || w.back() == '-')) w.pop_back();
      if (w.empty()) continue;
      const std::string low = lower(w);
      const bool left = x.lang == "ru" ? !(allowed.count(low) || w.size() == 1 || std::isupper(static_cast<unsigned char>(w[0])) ||
                                           w.find_first_of("0123456789_.") != std::string::npos)
                                       : english.count(low) > 0;
      if (left) {
        ADD_FAILURE() << x.where << ": " << x.lang << ": English \"" << w << "\" left in: " << x.text;
        ++found;
      }
    }
  }
  EXPECT_EQ(found, 0);
}
