// The lesson checks itself after every run, in the app, with the code scripts/check-lessons
// uses (quiz/observations/LessonCheck.h): a run made to miss the lesson's point (a stage
// slowed 4x by SHARDLAB_FAULT, so GPipe's bubble is far above (p−1)/(m+p−1)) is said not
// to show it, with its measured cause and the replay that shows the schedule; the
// script, run on this machine with the same fault, fails the same lesson; and on the
// same traces the app's verdict and `shardlab-quiz check-lesson` agree.
#include "window/MainWindow.h"
#include "views/WorkspacePage.h"
#include "models/JobRunner.h"
#include "models/LessonCatalog.h"
#include "models/LessonVerdict.h"
#include "models/TraceModel.h"
#include "views/LessonCheckBar.h"
#include "views/LogPane.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>

#include <gtest/gtest.h>

using namespace shardlab::app;

namespace {

constexpr const char* kSlowStage = "1:1:slow:4"; // stage 1 computes 4x slower from step 1

struct ScopedEnv {
  ScopedEnv(const char* name, const char* value) : name_(name) { qputenv(name, value); }
  ~ScopedEnv() { qunsetenv(name_); }
  const char* name_;
};

QString sibling(const QString& program) { return QFileInfo(JobRunner::findLauncher()).dir().filePath(program); }

// Runs the lesson's jobs from the command line, as check-lessons does, into trace files.
QStringList runJobs(const Lesson& lesson, const QTemporaryDir& dir) {
  QStringList traces;
  for (qsizetype i = 0; i < lesson.specs.size(); ++i) {
    auto spec = lesson.specs[i].toJson();
    spec["steps"] = 4;
    const QString specFile = dir.filePath(QStringLiteral("run%1.json").arg(i));
    std::ofstream(specFile.toStdString()) << spec.dump();
    const QString trace = dir.filePath(QStringLiteral("run%1.trace").arg(i));
    QProcess p;
    p.start(JobRunner::findLauncher(), {QStringLiteral("--spec"), specFile, QStringLiteral("--trace"), trace, QStringLiteral("-q")});
    EXPECT_TRUE(p.waitForFinished(240000));
    EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
    traces << trace;
  }
  return traces;
}

// `shardlab-quiz check-lesson` on the traces: the script's check.
nlohmann::json scriptCheck(const QString& lesson, const QStringList& traces, int* exitCode) {
  QProcess p;
  p.start(sibling(QStringLiteral("shardlab-quiz")), QStringList{QStringLiteral("check-lesson"), lesson} + traces);
  EXPECT_TRUE(p.waitForFinished(120000));
  *exitCode = p.exitCode();
  return nlohmann::json::parse(p.readAllStandardOutput().toStdString(), nullptr, false);
}

} // namespace

TEST(LessonCheckInTheApp, TheAppAndTheScriptAgreeOnTheSameTraces) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable() || !QFileInfo(sibling(QStringLiteral("shardlab-quiz"))).isExecutable())
    FAIL() << "shardlab-run or shardlab-quiz missing, though tests/app/CMakeLists.txt builds them first";
  const LessonCatalog catalog = LessonCatalog::load();
  const Lesson* lesson = catalog.find(QStringLiteral("pipeline-bubble"));
  ASSERT_TRUE(lesson);
  QTemporaryDir dir;
  for (const bool slowed : {false, true}) {
    SCOPED_TRACE(slowed ? "a stage slowed 4x" : "as written");
    QStringList traces;
    {
      std::optional<ScopedEnv> fault;
      if (slowed) fault.emplace("SHARDLAB_FAULT", kSlowStage);
      traces = runJobs(*lesson, dir);
    }
    TraceModel first, second;
    ASSERT_TRUE(first.loadFile(traces[0]).isEmpty());
    ASSERT_TRUE(second.loadFile(traces[1]).isEmpty());
    const LessonVerdict app = lessonVerdict(*lesson, first, &second);
    ASSERT_TRUE(app.made);
    int exitCode = -1;
    const auto script = scriptCheck(lesson->id, traces, &exitCode);
    ASSERT_TRUE(script.is_object());
    EXPECT_EQ(script["passed"].get<bool>(), app.passed);
    EXPECT_EQ(exitCode, app.passed ? 0 : 1);
    EXPECT_EQ(script["measured"].get<std::string>(), app.measured.toStdString());
    EXPECT_EQ(script["verdict"].get<std::string>(), app.text(QStringLiteral("en")).toStdString());
    // The slowed stage's neighbour idles most of each step: far from the theory.
    if (slowed) {
      EXPECT_FALSE(app.passed) << app.measured.toStdString();
    }
  }
}

TEST(LessonCheckInTheApp, ALessonWhosePointDidNotShowSaysSoWithTheMeasuredCause) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  QTemporaryDir dir;
  const QString lab = dir.filePath(QStringLiteral("lab.json"));
  std::ofstream(lab.toStdString()) << R"({"format": 1, "id": "check-test", "title": {"en": "Check"},
    "description": {"en": "The bubble lesson, short."},
    "steps": [{"lesson": "pipeline-bubble", "spec": {"steps": 4}}]})";
  const ScopedEnv fault("SHARDLAB_FAULT", kSlowStage);
  MainWindow w;
  w.resize(1280, 720);
  w.show();
  ASSERT_TRUE(w.openLabFile(lab)) << w.logPane()->text().toStdString();
  QSignalSpy finished(&w, &MainWindow::lessonFinished);
  ASSERT_TRUE(w.runLesson(QStringLiteral("pipeline-bubble")));
  ASSERT_TRUE(finished.wait(240000)) << w.logPane()->text().toStdString();
  QTest::qWait(50);
  const LessonCheckBar* bar = w.workspace()->lessonCheck();
  ASSERT_TRUE(bar->isVisible());
  ASSERT_TRUE(bar->verdict().made);
  EXPECT_FALSE(bar->verdict().passed) << bar->text().toStdString();
  // The measured cause: the parts of the difference, each a replay of this run, and the
  // replay that shows what the schedule alone costs, one click away.
  EXPECT_TRUE(bar->text().contains(QStringLiteral("did not show"))) << bar->text().toStdString();
  EXPECT_TRUE(bar->text().contains(QStringLiteral("each part a replay of this run"))) << bar->text().toStdString();
  // One line on the bar (whether the point showed); the cause on demand.
  auto* details = bar->findChild<QToolButton*>(QStringLiteral("lessonCheckDetails"));
  auto* label = bar->findChild<QLabel*>();
  ASSERT_TRUE(details && details->isVisible() && label);
  EXPECT_FALSE(label->text().contains(QStringLiteral("each part a replay"))) << label->text().toStdString();
  details->click();
  EXPECT_TRUE(label->text().contains(QStringLiteral("each part a replay"))) << label->text().toStdString();
  auto* replay = bar->findChild<QPushButton*>(QStringLiteral("lessonCheckReplay"));
  ASSERT_TRUE(replay && replay->isVisible());
  replay->click();
  ASSERT_TRUE(w.model().replayMode());
  EXPECT_EQ(*w.model().replayMode(), shardlab::trace::ReplayMode::ScheduleAlone);
}
