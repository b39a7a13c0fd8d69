// Finds a lesson moment (docs/quiz-format.md, moment ids in KnownIds.h) in the
// learner's own trace: when it happened, on which rank, for which unit, the event
// that shows it, and a sentence in en/fr/ru that quotes the run's own figures
// ("in your run rank 1 held 549.2 KiB between steps ..."). When the trace does not
// contain the moment (a DDP run has no all-gather), the answer is nullopt: never a
// made-up moment.
#pragma once

#include "quiz/bank/LocalizedText.h"

#include "trace/Summary.h"
#include "trace/Trace.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace shardlab::quiz {

struct MomentLocation {
  std::string moment;        // the moment id
  std::int64_t time = 0;     // ns on the run's clock: where the playhead goes
  std::int64_t sinceStart = 0; // time - traceOrigin(): what the app's playback bar shows
  std::int64_t endTime = 0;  // end of the event's interval (== time for an instant)
  int rank = -1;
  int unit = -1;             // index into trace.units; -1: none
  std::string unitName;      // "" when none
  std::size_t eventIndex = 0; // index into trace.events
  LocalizedText sentence;    // quotes the run's own figures

  nlohmann::json toJson(std::string_view lang = {}) const; // sentence: one language, or all when empty
};

// Where the times quoted in sentences count from: the trace's first event, as the
// app's playback bar and timeline show them (MomentLocation::time stays on the run's clock).
std::int64_t traceOrigin(const trace::Trace& trace);

// `summary` must be summarize(trace) (passed to avoid recomputing it).
std::optional<MomentLocation> findMoment(const trace::Trace& trace, const trace::Summary& summary,
                                         std::string_view moment);
std::optional<MomentLocation> findMoment(const trace::Trace& trace, std::string_view moment);

} // namespace shardlab::quiz
