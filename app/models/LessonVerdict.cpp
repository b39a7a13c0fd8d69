#include "models/LessonVerdict.h"

#include "quiz/observations/LessonCheck.h"

#include "trace/Report.h"

#include <string>
#include <vector>

namespace shardlab::app {

namespace st = shardlab::trace;

LessonVerdict lessonVerdict(const Lesson& lesson, const TraceModel& first, const TraceModel* second) {
  LessonVerdict v;
  std::vector<const st::Trace*> traces{&first.measured()};
  if (second && lesson.specs.size() > 1) traces.push_back(&second->measured());
  if (static_cast<qsizetype>(traces.size()) < lesson.specs.size()) return v;
  for (const auto* t : traces)
    if (t->events.empty()) return v;
  std::vector<st::Summary> summaries;
  summaries.reserve(traces.size());
  for (const auto* t : traces) summaries.push_back(st::summarize(*t));
  const QStringList labels = lesson.specLabels(QStringLiteral("en"));
  std::vector<shardlab::quiz::CheckedRun> runs;
  for (std::size_t i = 0; i < traces.size(); ++i)
    runs.push_back({traces[i], &summaries[i],
                    static_cast<qsizetype>(i) < labels.size() ? labels[static_cast<qsizetype>(i)].toStdString() : std::string()});
  std::vector<std::string> unmet;
  if (lesson.size)
    for (const auto& c : lesson.size->failed()) unmet.push_back(c.condition.ratio);
  const auto check = shardlab::quiz::checkLesson(lesson.id.toStdString(), runs, unmet);
  if (!check) return v;
  v.made = true;
  v.passed = check->passed;
  for (const auto& [lang, text] : check->verdict.all()) v.texts.insert(QString::fromStdString(lang), QString::fromStdString(text));
  v.figure = QString::fromStdString(check->figure);
  v.expected = QString::fromStdString(check->expected);
  v.measured = QString::fromStdString(check->measured);
  if (check->replay == shardlab::quiz::ReplayToShow::ScheduleAlone) v.replay = st::ReplayMode::ScheduleAlone;
  if (check->replay == shardlab::quiz::ReplayToShow::Reference) v.replay = st::ReplayMode::Reference;
  return v;
}

} // namespace shardlab::app
