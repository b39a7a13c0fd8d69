#include "quiz/export/GiftExporter.h"
#include "quiz/export/JsonExporter.h"
#include "quiz/export/MoodleXmlExporter.h"
#include "TestSupport.h"

#include <vector>

using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {

// A small XML reader, enough to check the export: balanced tags, attributes,
// CDATA, comments and the prolog. Records each element with its path.
struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string path; // "quiz/question/answer"
  std::size_t parent = SIZE_MAX;
};

struct XmlCheck {
  std::vector<Element> elements;
  std::string error;
};

XmlCheck parseXml(const std::string& x) {
  XmlCheck r;
  std::vector<std::size_t> open;
  std::size_t i = 0;
  auto fail = [&](const std::string& why) {
    r.error = why + " at byte " + std::to_string(i);
    return r;
  };
  while (i < x.size()) {
    if (x[i] != '<') {
      const auto next = x.find('<', i);
      const auto text = x.substr(i, next - i);
      if (!open.empty() || text.find_first_not_of(" \n\t\r") == std::string::npos) {
        for (std::size_t k = 0; k < text.size(); ++k) {
          if (text[k] == '<' || text[k] == '>') return fail("raw < or > in text");
          if (text[k] == '&') {
            const auto semi = text.find(';', k);
            const auto entity = text.substr(k, semi == std::string::npos ? 0 : semi - k + 1);
            if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" && entity != "&apos;")
              return fail("bad entity");
          }
        }
      } else {
        return fail("text outside the root element");
      }
      i = next == std::string::npos ? x.size() : next;
      continue;
    }
    if (x.compare(i, 9, "<![CDATA[") == 0) {
      const auto end = x.find("]]>", i);
      if (end == std::string::npos || open.empty()) return fail("bad CDATA");
      i = end + 3;
    } else if (x.compare(i, 4, "<!--") == 0) {
      const auto end = x.find("-->", i);
      if (end == std::string::npos) return fail("unclosed comment");
      i = end + 3;
    } else if (x.compare(i, 2, "<?") == 0) {
      const auto end = x.find("?>", i);
      if (end == std::string::npos || i != 0) return fail("bad prolog");
      i = end + 2;
    } else if (x.compare(i, 2, "</") == 0) {
      const auto end = x.find('>', i);
      const auto name = x.substr(i + 2, end - i - 2);
      if (open.empty() || r.elements[open.back()].name != name) return fail("mismatched </" + name + ">");
      open.pop_back();
      i = end + 1;
    } else {
      const auto end = x.find('>', i);
      if (end == std::string::npos) return fail("unclosed tag");
      std::string tag = x.substr(i + 1, end - i - 1);
      const bool selfClosing = !tag.empty() && tag.back() == '/';
      if (selfClosing) tag.pop_back();
      Element e;
      const auto sp = tag.find(' ');
      e.name = tag.substr(0, sp);
      std::string rest = sp == std::string::npos ? "" : tag.substr(sp);
      for (std::size_t k = 0; k < rest.size();) {
        if (rest[k] == ' ') { ++k; continue; }
        const auto eq = rest.find("=\"", k);
        const auto close = eq == std::string::npos ? eq : rest.find('"', eq + 2);
        if (close == std::string::npos) return fail("bad attribute");
        e.attributes[rest.substr(k, eq - k)] = rest.substr(eq + 2, close - eq - 2);
        k = close + 1;
      }
      if (open.empty() && !r.elements.empty()) return fail("second root element");
      e.parent = open.empty() ? SIZE_MAX : open.back();
      e.path = open.empty() ? e.name : r.elements[open.back()].path + "/" + e.name;
      r.elements.push_back(e);
      if (!selfClosing) open.push_back(r.elements.size() - 1);
      i = end + 1;
    }
  }
  if (!open.empty()) return fail("unclosed <" + r.elements[open.back()].name + ">");
  return r;
}

std::vector<std::size_t> childrenOf(const XmlCheck& xml, std::size_t parent, const std::string& name) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < xml.elements.size(); ++i)
    if (xml.elements[i].parent == parent && xml.elements[i].name == name) out.push_back(i);
  return out;
}

} // namespace

TEST(XmlCheck, CatchesBrokenXml) {
  // The checker itself must be able to fail.
  EXPECT_FALSE(parseXml("<quiz><question></quiz>").error.empty());
  EXPECT_FALSE(parseXml("<quiz>a < b</quiz>").error.empty());
  EXPECT_FALSE(parseXml("<quiz><![CDATA[x</quiz>").error.empty());
  EXPECT_TRUE(parseXml("<?xml version=\"1.0\"?>\n<quiz><a b=\"1\"><![CDATA[<&>]]></a></quiz>\n").error.empty());
}

TEST(MoodleXmlExporter, WellFormedWithOneFullMarkAnswerPerQuestion) {
  for (const char* lang : {"en", "fr", "ru"}) {
    const auto xml = MoodleXmlExporter::render(bank(), lang, 7);
    const auto r = parseXml(xml);
    ASSERT_TRUE(r.error.empty()) << lang << ": " << r.error;
    ASSERT_EQ(r.elements.at(0).name, "quiz");
    std::size_t multichoice = 0;
    for (std::size_t i = 0; i < r.elements.size(); ++i) {
      const auto& e = r.elements[i];
      if (e.path != "quiz/question" || e.attributes.at("type") != "multichoice") continue;
      ++multichoice;
      for (const char* required : {"name", "questiontext", "generalfeedback", "single", "shuffleanswers"})
        EXPECT_EQ(childrenOf(r, i, required).size(), 1u) << required;
      const auto answers = childrenOf(r, i, "answer");
      ASSERT_EQ(answers.size(), 4u);
      int full = 0, zero = 0;
      for (auto a : answers) {
        const auto& f = r.elements[a].attributes.at("fraction");
        full += f == "100" ? 1 : 0;
        zero += f == "0" ? 1 : 0;
        EXPECT_EQ(childrenOf(r, a, "text").size(), 1u);
      }
      EXPECT_EQ(full, 1);
      EXPECT_EQ(zero, 3);
    }
    EXPECT_EQ(multichoice, 20u) << lang;
    EXPECT_NE(xml.find("<single>true</single>"), std::string::npos);
    EXPECT_NE(xml.find("<shuffleanswers>1</shuffleanswers>"), std::string::npos);
  }
}

TEST(MoodleXmlExporter, EscapesMarkupInsideCdata) {
  EXPECT_EQ(MoodleXmlExporter::cdata("a < b && c]]>d"), "<![CDATA[a &lt; b &amp;&amp; c]]&gt;d]]>");
  EXPECT_TRUE(parseXml("<quiz><t>" + MoodleXmlExporter::cdata("x]]><y>") + "</t></quiz>").error.empty());
}

TEST(MoodleXmlExporter, CorrectAnswerIsTheBanksCorrectChoice) {
  const auto xml = MoodleXmlExporter::render(bank(), "en", 1);
  const auto& q = *bank().find("fsdp-2");
  const auto correct = "<answer fraction=\"100\" format=\"html\">\n      <text>" +
                       MoodleXmlExporter::cdata(q.choices[q.correctIndex()].text.get("en"));
  EXPECT_NE(xml.find(correct), std::string::npos);
}

TEST(GiftExporter, EscapesSpecialCharacters) {
  EXPECT_EQ(GiftExporter::escape("a~b=c#d{e}f:g\\h"), "a\\~b\\=c\\#d\\{e\\}f\\:g\\\\h");
  EXPECT_EQ(GiftExporter::escape("line1\nline2"), "line1\\nline2");
  EXPECT_EQ(GiftExporter::escape("plain text, no specials."), "plain text, no specials.");
}

TEST(GiftExporter, EveryQuestionHasOneRightAnswerAndEscapedText) {
  const auto gift = GiftExporter::render(bank(), "fr", 3);
  std::size_t questions = 0, pos = 0;
  while ((pos = gift.find("\n::", pos)) != std::string::npos) {
    const auto open = gift.find(" {\n", pos);
    const auto close = gift.find("\n}\n", open);
    ASSERT_NE(close, std::string::npos);
    const auto body = gift.substr(open + 3, close - open - 3);
    std::size_t right = 0, wrong = 0;
    for (std::size_t k = 0; k < body.size(); ++k) {
      if (body[k] == '\t' && body[k + 1] == '=') ++right;
      if (body[k] == '\t' && body[k + 1] == '~') ++wrong;
      // Any special character in the body is either a leading marker or escaped.
      if ((body[k] == ':' || body[k] == '{' || body[k] == '}') && body[k - 1] != '\\') FAIL() << body;
    }
    EXPECT_EQ(right, 1u);
    EXPECT_EQ(wrong, 3u);
    ++questions;
    pos = close;
  }
  EXPECT_EQ(questions, 20u);
  // French punctuation puts a space before ':' in the bank; it must come out escaped.
  EXPECT_NE(gift.find("\\:"), std::string::npos);
}

TEST(JsonExporter, ListsChoicesWithOneCorrect) {
  const auto doc = nlohmann::json::parse(JsonExporter::render(bank(), "ru", 5));
  EXPECT_EQ(doc["lang"], "ru");
  std::size_t n = 0;
  for (const auto& quiz : doc["quizzes"]) {
    for (const auto& q : quiz["questions"]) {
      ++n;
      int correct = 0;
      for (const auto& c : q["choices"]) correct += c["correct"].get<bool>() ? 1 : 0;
      EXPECT_EQ(correct, 1);
      EXPECT_FALSE(q["explanation"].get<std::string>().empty());
    }
  }
  EXPECT_EQ(n, 20u);
}
