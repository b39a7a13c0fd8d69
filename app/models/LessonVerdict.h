// The lesson's own check on the learner's runs, in the app: the same check as
// scripts/check-lessons (quiz/observations/LessonCheck.h, one code for both), made
// once the lesson's runs ended, and what the window shows of it: whether the point
// showed, the measured cause where it did not, and the replay that shows it.
#pragma once

#include "models/LessonCatalog.h"
#include "models/TraceModel.h"

#include "trace/Replay.h"

#include <QMap>
#include <QString>

#include <optional>

namespace shardlab::app {

struct LessonVerdict {
  bool made = false;    // false: the runs were not the lesson's (stopped, failed unexpectedly)
  bool passed = false;  // the lesson's point showed in this run
  QMap<QString, QString> texts;                      // language -> the verdict
  QString text(const QString& lang = Lesson::currentLanguage()) const { return texts.value(lang, texts.value(QStringLiteral("en"))); }
  std::optional<shardlab::trace::ReplayMode> replay; // offered where the point did not show
  QString figure, expected, measured;                // as scripts/check-lessons prints them
};

// `first` holds the lesson's first run, `second` its second (comparison lessons; else
// nullptr). Each trace is summarised with its replay section, as shardlab-run does.
LessonVerdict lessonVerdict(const Lesson& lesson, const TraceModel& first, const TraceModel* second);

} // namespace shardlab::app
