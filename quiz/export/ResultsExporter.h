// Exports learners' progress for an instructor, from one progress file or several
// (one per learner). Every answer carries the learner, when it was last answered
// (ISO 8601 UTC), whether the first attempt was right, and the run it was about
// (trace hash and job settings).
//   renderCsv: one row per answer and per score:
//     learner,record,id,lesson,lang,seed,choice,correct,first_attempt_correct,attempts,
//     correct_count,total,answered_at,unix_time,trace_hash,strategy,ranks,steps,config
//   renderClassCsv: one row per learner and question (a question asked in several lessons
//     or about several runs is one row):
//     learner,question,lessons,runs,attempts,first_attempt_correct,correct,answered_at,file
//   renderJson: {"format":2,"learners":[{"learner","file","answers":[...],"scores":[...],
//     "predictions":[...],"runs":{hash:{trace,config}}}]}
// An unknown first-attempt result (a format-1 file) is an empty field, or null in JSON.
#pragma once

#include "quiz/progress/Progress.h"

#include <string>
#include <vector>

namespace shardlab::quiz {

class ResultsExporter {
public:
  static std::string renderCsv(const std::vector<Progress>& learners);
  static std::string renderClassCsv(const std::vector<Progress>& learners);
  static std::string renderJson(const std::vector<Progress>& learners);
  // One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180);
  // one starting with = + - @, a tab or a carriage return gets a leading ' (never a
  // spreadsheet formula), a NUL byte is dropped.
  static std::string csvField(const std::string& s);
};

} // namespace shardlab::quiz
