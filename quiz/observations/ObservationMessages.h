// The sentences of everything the quiz writes about a learner's run (observation
// questions, evidence moments, prediction checks, lesson checks) are data:
// assets/observations/<file>.json, {"format": 1, "messages": {"<id>": {"en": ..,
// "fr": .., "ru": ..}}}, with named placeholders ("{rank}") and plural forms in the
// guide pages' syntax ("{ranks|rank|ranks}" in en and fr: one|other;
// "{ranks|ранг|ранга|рангов}" in ru: one|few|many; Plural.h picks the form). The code
// computes the numbers and chooses the ids (text::message); the table below is the
// contract between the two: which file holds each id and the parameters the code passes.
#pragma once

#include "quiz/bank/Diagnostics.h"
#include "quiz/bank/LocalizedText.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab::quiz {

struct ObservationMessageSpec {
  std::string_view file;                // "fsdp": assets/observations/fsdp.json
  std::string_view id;                  // "collective-count.ddp-question"
  std::vector<std::string_view> params; // the placeholders a text may use
};

// Every message the quiz's code asks for.
const std::vector<ObservationMessageSpec>& observationMessageSpecs();

class ObservationMessages {
public:
  // Reads <dir>/<file>.json for every file the specs name. Reported, each with its file
  // and JSON pointer: a missing message ("missing-message"), one no code asks for
  // ("unknown-message"), a missing or empty language, a placeholder the message has no
  // parameter for or with the wrong number of plural forms ("placeholder"), a JSON
  // file in dir that no spec names ("unknown-file").
  static ObservationMessages load(const std::filesystem::path& dir, Diagnostics& diagnostics);
  // load(), throwing ValidationError with every diagnostic when there is one.
  static ObservationMessages loadOrThrow(const std::filesystem::path& dir);

  // The text of `id` in lang (en, fr or ru); std::logic_error for an id no spec declares.
  const std::string& text(std::string_view id, std::string_view lang) const;

private:
  std::map<std::string, LocalizedText, std::less<>> texts_;
};

// The messages of <assetsDir>/observations from now on (shardlab-quiz --assets DIR);
// throws ValidationError when they do not validate.
void useObservationAssets(const std::filesystem::path& assetsDir);
// The messages in use: useObservationAssets()'s, else, on first use, those of
// findAssetsDir(nullopt, currentExecutableDir()) (throws AssetsNotFound or ValidationError).
const ObservationMessages& observationMessages();

} // namespace shardlab::quiz
