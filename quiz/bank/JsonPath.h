// A JSON pointer (RFC 6901) built step by step while walking a document, so each
// diagnostic can say where it is: JsonPath{} / "questions" / 3 / "choices".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace shardlab::quiz {

class JsonPath {
public:
  JsonPath() = default;

  JsonPath operator/(std::string_view key) const {
    JsonPath p = *this;
    p.text_ += '/';
    for (char c : key) {
      if (c == '~') p.text_ += "~0";
      else if (c == '/') p.text_ += "~1";
      else p.text_ += c;
    }
    return p;
  }
  JsonPath operator/(std::size_t index) const {
    JsonPath p = *this;
    p.text_ += '/' + std::to_string(index);
    return p;
  }
  const std::string& str() const { return text_; }

private:
  std::string text_;
};

} // namespace shardlab::quiz
