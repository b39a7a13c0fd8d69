// The texts the quiz generates from a learner's own run: a message of
// assets/observations/*.json (ObservationMessages) in English, French and Russian
// with its named placeholders filled in ("{ranks|ранг|ранга|рангов}" adds the noun
// form the language's plural rule picks for the number), and the number formats the
// sentences use (bytes as summarize() formats them; written with a decimal comma and
// Kio / КиБ in French and Russian).
#pragma once

#include "quiz/bank/LocalizedText.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab::quiz::text {

// One named value of a message. A number or size given as a string is written as each
// language writes it (localNumber); a word that differs per language is a LocalizedText.
struct Param {
  Param(std::string id, std::string number);
  Param(std::string id, const char* number) : Param(std::move(id), std::string(number)) {}
  Param(std::string id, LocalizedText words) : name(std::move(id)), value(std::move(words)) {}
  std::string name;
  LocalizedText value;
};
using Params = std::vector<Param>;

// The message `id` of the observation assets in every language, each placeholder
// replaced by the value of the parameter it names. `params` may hold more than the
// message uses (several messages share one list); one the message names and `params`
// lacks is a programming error (std::logic_error), as is an id no asset declares.
LocalizedText message(std::string_view id, const Params& params = {});
// The same text in every language, numbers and sizes written as each language writes
// them (a number, a unit name, a rank list).
LocalizedText same(const std::string& s);

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
