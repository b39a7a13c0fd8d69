// Small helpers for the texts the quiz generates from a learner's own run: a
// localized text from three literals with {0}, {1}, ... placeholders filled in,
// and the number formats the sentences use (bytes as summarize() formats them).
#pragma once

#include "quiz/bank/LocalizedText.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace shardlab::quiz::text {

// The text in English, French and Russian: {"en": en, "fr": fr, "ru": ru} with every
// "{i}" replaced by args[i].
LocalizedText localized(const std::string& en, const std::string& fr, const std::string& ru,
                        const std::vector<std::string>& args = {});
// The same argument may differ per language (a word): one text per language.
LocalizedText localized(const std::string& en, const std::string& fr, const std::string& ru,
                        const std::vector<LocalizedText>& args);
// Replaces "{i}" by args[i].
std::string fill(std::string pattern, const std::vector<std::string>& args);

std::string bytes(std::int64_t b);         // formatBytes(): "1.50 MiB"
std::string ms(std::int64_t ns);           // "23.90 ms"
std::string fixed(double v, int digits);   // "0.273"
std::string percent(double fraction);      // "12.5 %"
std::string times(double ratio);           // "1.50×"
std::string integer(std::int64_t v);       // "12"
// "rank 0, rank 1 and rank 3" style lists: "0, 1, 3".
std::string rankList(const std::vector<int>& ranks);

} // namespace shardlab::quiz::text
