// Plural forms of a noun after a number, per language: the rule that picks the form
// ("1 rang", "2 rangs"; "1 ранг", "2 ранга", "5 рангов") and the filling of a
// "{key|one|few|many}" placeholder. Used by the observation texts and by the guide
// pages' placeholder filler.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace shardlab::quiz {

// The index of the form for n in lang, counted from 0:
//   en: 0 for 1, else 1 (one|other);
//   fr: 0 for 0 and 1, else 1 (one|other: "0 rang", "1 rang", "2 rangs");
//   ru: 0 when n ends in 1 but not 11, 1 when it ends in 2-4 but not 12-14, else 2
//       (one|few|many: "21 ранг", "3 ранга", "11 рангов").
int pluralForm(std::string_view lang, std::int64_t n);
// How many forms lang has: 3 for ru (one|few|many), 2 for en and fr (one|other).
int pluralFormCount(std::string_view lang);

// "n word": forms separated by '|' in the order pluralForm counts them; when fewer
// forms are given than the rule needs, the last one stands for the missing ones.
std::string withNoun(std::string_view lang, std::int64_t n, std::string_view forms);

} // namespace shardlab::quiz
