// Small helpers for the texts the quiz generates from a learner's own run: a
// localized text from three literals with {0}, {1}, ... placeholders filled in
// ("{0|ранг|ранга|рангов}" adds the noun form the language's plural rule picks for
// the number), and the number formats the sentences use (bytes as summarize()
// formats them; written with a decimal comma and Kio / КиБ in French and Russian).
#pragma once

#include "quiz/bank/LocalizedText.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab::quiz::text {

// The text in English, French and Russian: {"en": en, "fr": fr, "ru": ru} with every
// "{i}" replaced by args[i].
LocalizedText localized(const std::string& en, const std::string& fr, const std::string& ru,
                        const std::vector<std::string>& args = {});
// The same argument may differ per language (a word): one text per language.
LocalizedText localized(const std::string& en, const std::string& fr, const std::string& ru,
                        const std::vector<LocalizedText>& args);
// Replaces "{i}" by args[i] and "{i|one|other}" (fr, en) or "{i|one|few|many}" (ru) by
// args[i], a whole number, followed by the form pluralForm(lang, args[i]) picks.
std::string fill(std::string_view lang, const std::string& pattern, const std::vector<std::string>& args);
// A number or size as lang writes it: "1.50 MiB" stays in English, is "1,50 Mio" in
// French and "1,50 МиБ" in Russian; "12.5 %" is "12,5 %".
std::string localNumber(std::string_view lang, std::string s);

std::string bytes(std::int64_t b);         // formatBytes(): "1.50 MiB"
std::string ms(std::int64_t ns);           // "23.90 ms"
std::string fixed(double v, int digits);   // "0.273"
std::string percent(double fraction);      // "12.5 %"
std::string times(double ratio);           // "1.50×"
std::string integer(std::int64_t v);       // "12"
// "rank 0, rank 1 and rank 3" style lists: "0, 1, 3".
std::string rankList(const std::vector<int>& ranks);

} // namespace shardlab::quiz::text
