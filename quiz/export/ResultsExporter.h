// Exports a learner's progress for an instructor: every answer and score with the
// run it was about (trace hash and job settings), as CSV or JSON.
//   CSV columns: record,id,lang,seed,choice,correct,attempts,correct_count,total,
//                unix_time,trace_hash,strategy,ranks,steps,config
//   JSON: {"format":1,"answers":[...],"scores":[...],"predictions":[...],"runs":{hash:{trace,config}}}
#pragma once

#include "quiz/progress/Progress.h"

#include <string>

namespace shardlab::quiz {

class ResultsExporter {
public:
  static std::string renderCsv(const Progress& progress);
  static std::string renderJson(const Progress& progress);
  // One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
  static std::string csvField(const std::string& s);
};

} // namespace shardlab::quiz
