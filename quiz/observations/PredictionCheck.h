// Measures a lesson's prediction (Lesson::prediction, docs/quiz-format.md) in the
// learner's own run(s), so the guess made before running can be compared with what
// the run showed. Numbers come from summarize() and the trace's job record.
//   rank0-persistent-bytes        rank 0's persistent_bytes
//   extra-peak-bytes              rank 0's peak with prefetch on minus with it off (two runs)
//   stage0-activations-in-flight  most micro-batches stage 0 held at once (the 1F1B run)
//   zb-h1-bubble-ratio            the ZB-H1 run's measured bubble over the 1F1B run's (two runs)
//   ddp-bytes-needed              4 × the model's parameter bytes (parameters, gradients, 2 moments)
//   naive-bubble                  the measured bubble, in percent
//   all-reduces-per-step          all-reduces one rank ran per step
//   checkpoint-activation-bytes-saved  rank 0's activation peak without checkpointing minus with (two runs)
//   bf16-all-gather-bytes-ratio   the bf16 run's all-gather bytes on the wire over the fp32 run's (two runs)
//   no-sync-all-reduce-ratio      all-reduces per step without no_sync over with it (two runs)
//   zero-persistent-ratio         rank 0's persistent bytes, the FSDP sharding that keeps more over the one
//                                 that keeps less (two runs, two ZeRO stages)
#pragma once

#include "quiz/bank/LocalizedText.h"

#include "trace/Trace.h"

#include <optional>
#include <string>
#include <string_view>

namespace shardlab::quiz {

struct PredictionMeasurement {
  double actual = 0;
  double tolerance = 0; // a prediction within this of `actual` counts as right
  std::string kind;     // bytes | ratio | percent | count | milliseconds
  // The run cannot record it (DDP stops at its first allocation past the budget, before
  // holding all it needs): `actual` comes from the run's model, and the text says so.
  bool fromModel = false;
  bool close(double predicted) const { return predicted >= actual - tolerance && predicted <= actual + tolerance; }
  // "You predicted X; your run measured Y." with a verdict, in en/fr/ru.
  LocalizedText compare(double predicted) const;
  std::string format(double value) const; // in the kind's unit
};

// nullopt when the prediction id is unknown or the run(s) do not show it.
std::optional<PredictionMeasurement> measurePrediction(std::string_view predictionId, const trace::Trace& run,
                                                       const trace::Trace* second = nullptr);
// Reads a learner's answer of that kind: bytes accept "3MiB", "512 KiB", "1.5GiB" or a
// number; percent accepts "75" or "75 %"; others a number. nullopt when unreadable.
std::optional<double> parsePredictionValue(std::string_view kind, const std::string& text);

} // namespace shardlab::quiz
