// Comparison lessons (issue 12, item 1): the two runs side by side with one playhead,
// the second following the first's step and time into it at one time scale, and the
// lesson's figures in Plots → Compare runs. Models and views over synthetic traces;
// the lesson itself runs for real through shardlab-run (kept tiny by a lab step).
#include "MainWindow.h"
#include "SampleTrace.h"
#include "models/Captions.h"
#include "models/JobRunner.h"
#include "models/PlaybackController.h"
#include "models/RunFollower.h"
#include "models/TraceModel.h"
#include "views/CompareView.h"
#include "views/CompareWindow.h"
#include "views/LogPane.h"
#include "views/PipelineView.h"
#include "views/PlotsView.h"
#include "views/QuizPanel.h"
#include "views/RankView.h"
#include "views/TimelineView.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLocale>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>

#include <algorithm>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include <fstream>

#include <gtest/gtest.h>

namespace st = shardlab::trace;

namespace {

// Where step `step` begins and ends in a run: its earliest op, collective or idle record
// and its latest end, found here by a plain walk over the events.
std::pair<qint64, qint64> stepExtent(const TraceModel& m, int step) {
  qint64 t0 = INT64_MAX, t1 = INT64_MIN;
  for (int i = 0; i < m.eventCount(); ++i) {
    const auto& e = m.event(i);
    if (e.step != step) continue;
    if (e.record != st::Record::Op && e.record != st::Record::Collective && e.record != st::Record::Idle) continue;
    t0 = std::min<qint64>(t0, e.t0);
    t1 = std::max<qint64>(t1, e.t1);
  }
  return {t0, t1};
}

// When the first compute op of `step` starts, on any rank.
qint64 firstOp(const TraceModel& m, int step) {
  qint64 t0 = INT64_MAX;
  for (int i = 0; i < m.eventCount(); ++i)
    if (m.event(i).step == step && m.event(i).record == st::Record::Op) t0 = std::min<qint64>(t0, m.event(i).t0);
  return t0;
}

void load(TraceModel& m, const sample::Options& o) { m.setTrace(st::readTrace(sample::fsdpText(o)).trace); }

QString cell(QTableWidget* table, const QString& row, int run) {
  for (int i = 0; i < table->rowCount(); ++i)
    if (table->verticalHeaderItem(i) && table->verticalHeaderItem(i)->text().startsWith(row))
      return table->item(i, run) ? table->item(i, run)->text() : QString();
  return QStringLiteral("<no row %1>").arg(row);
}

} // namespace

TEST(RunFollower, TheSecondRunIsAtTheSameStepAndTimeIntoIt) {
  TraceModel a, b;
  load(a, {2, 3, false});
  load(b, {4, 3, false}); // more ranks: a longer step
  const auto [a1, a1end] = stepExtent(a, 1);
  const auto [b1, b1end] = stepExtent(b, 1);
  ASSERT_LT(a1, a1end);
  ASSERT_NE(a1end - a1, b1end - b1) << "the samples' steps differ in length, as the lessons' runs do";
  RunFollower follower(a, b);
  const RunFollower::Window w = follower.at(a1 + 700);
  EXPECT_EQ(w.step, 1);
  EXPECT_EQ(w.leadStart, a1);
  EXPECT_EQ(w.followerStart, b1);
  EXPECT_EQ(w.followerTime, b1 + 700);
  EXPECT_EQ(w.span, std::max(a1end - a1, b1end - b1)) << "one time scale: the longer step";
  // Led by the run with the longer step, the other waits at its own step's end, not in its next step.
  RunFollower reverse(b, a);
  const qint64 late = b1 + (b1end - b1) * 9 / 10;
  ASSERT_EQ(reverse.at(late).step, 1);
  EXPECT_EQ(reverse.at(late).followerTime, std::min(a1 + (late - b1), a1end));
  // A run that stopped earlier (one step) shows its last instant for the steps it never reached.
  TraceModel shorter;
  load(shorter, {2, 1, false});
  EXPECT_EQ(RunFollower(a, shorter).at(stepExtent(a, 2).first + 10).followerTime, shorter.endTime());
  EXPECT_EQ(RunFollower(a, shorter).at(a1 + 10).followerTime, shorter.endTime());
}

TEST(CompareView, OnePlayheadMovesBothRunsAtOneScale) {
  TraceModel a, b;
  load(a, {2, 3, false});
  load(b, {4, 3, false});
  CompareWindow window(a, b);
  window.resize(1280, 720);
  window.show();
  CompareView* view = window.view();
  const auto [a2, a2end] = stepExtent(a, 2);
  const auto [b2, b2end] = stepExtent(b, 2);
  window.playback().setTime(a2 + 1500);
  EXPECT_EQ(view->rankView(0)->time(), a2 + 1500);
  EXPECT_EQ(view->rankView(1)->time(), b2 + 1500) << "run B at the same time into the same step";
  for (int run = 0; run < 2; ++run) {
    EXPECT_EQ(view->timelineView(run)->visibleEnd() - view->timelineView(run)->visibleStart(),
              std::max(a2end - a2, b2end - b2))
        << "run " << run << ": both timelines draw the step at the same seconds per pixel";
  }
  EXPECT_EQ(view->timelineView(0)->visibleStart(), a2);
  EXPECT_EQ(view->timelineView(1)->visibleStart(), b2);
  // Playing moves both.
  window.playback().setTime(a2 + 100);
  window.playback().setSlowdown(20000.0);
  window.playback().play();
  QTest::qWait(300);
  window.playback().pause();
  EXPECT_GT(view->rankView(0)->time(), a2 + 100);
  EXPECT_GT(view->rankView(1)->time(), b2 + 100);
  // Side by side: run A on the left, run B on the right, at the same height.
  const QPoint left = view->rankView(0)->mapTo(view, QPoint(0, 0)), right = view->rankView(1)->mapTo(view, QPoint(0, 0));
  EXPECT_LT(left.x() + view->rankView(0)->width(), right.x() + 1);
  EXPECT_EQ(left.y(), right.y());
}

TEST(CompareView, OneLegendServesBothRunsCards) {
  TraceModel a, b;
  load(a, {2, 3, false});
  load(b, {4, 3, false});
  CompareWindow window(a, b);
  window.resize(1280, 720);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  CompareView* view = window.view();
  auto* legend = view->findChild<QWidget*>(QStringLiteral("compareLegend"));
  ASSERT_NE(legend, nullptr);
  EXPECT_TRUE(legend->isVisible());
  // Under both runs' cards, across both columns.
  const QRect l(legend->mapTo(view, QPoint()), legend->size());
  for (int run = 0; run < 2; ++run) {
    const QRect cards(view->rankView(run)->mapTo(view, QPoint()), view->rankView(run)->size());
    EXPECT_GE(l.top(), cards.bottom()) << "run " << run;
    EXPECT_LE(l.left(), cards.left());
    EXPECT_GE(l.right(), cards.right());
  }
  // The rank views draw none of their own (it would take two legends' height from the cards).
  for (int run = 0; run < 2; ++run) EXPECT_FALSE(view->rankView(run)->legendShown()) << "run " << run;
  // The pipeline diagram colours ops, not memory: no legend of categories then.
  view->showPipeline(true);
  EXPECT_FALSE(legend->isVisible());
}

TEST(CompareRuns, TheFiguresOfBothRunsAndTheBudgetLine) {
  TraceModel a, b;
  load(a, {2, 2, true}); // runs out of its 20000-byte budget
  load(b, {2, 2, false});
  PlotsView plots(a);
  plots.setComparison(&b, QStringLiteral("tight"), QStringLiteral("roomy"));
  QTableWidget* table = plots.compareTable();
  ASSERT_EQ(table->columnCount(), 2);
  EXPECT_EQ(table->horizontalHeaderItem(0)->text(), QStringLiteral("tight"));
  qint64 peakA = 0, peakB = 0;
  for (const auto& r : a.summary().ranksDetail) peakA = std::max<qint64>(peakA, r.peakBytes);
  for (const auto& r : b.summary().ranksDetail) peakB = std::max<qint64>(peakB, r.peakBytes);
  EXPECT_TRUE(cell(table, QStringLiteral("Peak memory"), 0).startsWith(Captions::bytes(peakA)));
  EXPECT_TRUE(cell(table, QStringLiteral("Peak memory"), 0).contains(QStringLiteral("out of memory")));
  EXPECT_EQ(cell(table, QStringLiteral("Peak memory"), 1), Captions::bytes(peakB));
  EXPECT_EQ(cell(table, QStringLiteral("Memory budget"), 0), Captions::bytes(20000));
  EXPECT_EQ(cell(table, QStringLiteral("Memory budget"), 1), QStringLiteral("none"));
  EXPECT_EQ(cell(table, QStringLiteral("Bubble, measured"), 0), QStringLiteral("—")) << "FSDP has no pipeline bubble";
  EXPECT_NE(cell(table, QStringLiteral("Step time (steady"), 1), QStringLiteral("—"));
  // The budget is drawn as a line at its height.
  bool line = false;
  for (int i = 0; i < plots.comparePlot()->itemCount(); ++i)
    if (auto* l = qobject_cast<QCPItemStraightLine*>(plots.comparePlot()->item(i)))
      line |= std::abs(l->point1->coords().y() - 20000.0 / (1024.0 * 1024.0)) < 1e-9;
  EXPECT_TRUE(line) << "the memory budget line";
}

TEST(ComparisonLesson, TwoRealRunsSideBySideMovedTogetherWithTheirFigures) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) GTEST_SKIP() << "shardlab-run not built";
  QTemporaryDir dir;
  // The interleaving lesson (1F1B, then interleaved 1F1B on 2 stages), 3 steps instead of 10.
  const QString lab = dir.filePath(QStringLiteral("lab.json"));
  std::ofstream(lab.toStdString()) << R"({"format": 1, "id": "compare-test", "title": {"en": "Compare"},
    "description": {"en": "Two short pipeline runs."},
    "steps": [{"lesson": "interleaving", "spec": {"steps": 3}}]})";
  MainWindow w;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  w.resize(1280, 720);
  w.show();
  ASSERT_TRUE(w.openLabFile(lab)) << w.logPane()->text().toStdString();
  QSignalSpy finished(&w, &MainWindow::lessonFinished);
  ASSERT_TRUE(w.runLesson(QStringLiteral("interleaving")));
  ASSERT_TRUE(finished.wait(240000)) << w.logPane()->text().toStdString();
  ASSERT_TRUE(finished.at(0).at(0).toBool()) << w.lastMessage().toStdString();
  QTest::qWait(100);
  const TraceModel& a = w.model();
  const TraceModel& b = w.comparisonModel();
  ASSERT_EQ(a.stepsDone(), 3);
  ASSERT_EQ(b.stepsDone(), 3);
  ASSERT_TRUE(a.config() && b.config());
  EXPECT_NE(a.config()->schedule, b.config()->schedule);
  // Both runs on screen, side by side, on the pipeline diagram (pipeline runs).
  CompareView* both = w.compareView();
  ASSERT_TRUE(both->isVisible()) << "the lesson ends on the two runs side by side";
  EXPECT_TRUE(both->showsPipeline());
  EXPECT_TRUE(both->pipelineView(0)->isVisible());
  EXPECT_TRUE(both->pipelineView(1)->isVisible());
  EXPECT_TRUE(both->timelineView(1)->isVisible());
  EXPECT_LT(both->pipelineView(0)->mapTo(&w, QPoint()).x(), both->pipelineView(1)->mapTo(&w, QPoint()).x());
  EXPECT_TRUE(w.lastMessage().contains(QStringLiteral("Both runs"))) << w.lastMessage().toStdString();

  // The window's playhead moves both: step 1 of run A, a tenth into it, and at least
  // past each run's first compute op of step 1 (the diagram shows the step of the latest
  // op started: the step can open with a stage's wait, long on a loaded machine).
  const auto [a1, a1end] = stepExtent(a, 1);
  const auto [b1, b1end] = stepExtent(b, 1);
  const qint64 into = std::max({(a1end - a1) / 10, firstOp(a, 1) - a1 + 1, firstOp(b, 1) - b1 + 1});
  ASSERT_LT(a1 + into, a1end);
  ASSERT_LT(b1 + into, b1end);
  w.playback().setTime(a1 + into);
  EXPECT_EQ(both->rankView(0)->time(), a1 + into);
  EXPECT_EQ(both->rankView(1)->time(), std::min(b1 + into, b1end));
  both->pipelineView(0)->repaint();
  both->pipelineView(1)->repaint();
  EXPECT_EQ(both->pipelineView(0)->shownStep(), 1);
  EXPECT_EQ(both->pipelineView(1)->shownStep(), 1) << "run B shows the step run A is in";
  EXPECT_EQ(both->timelineView(1)->visibleStart(), b1);
  EXPECT_EQ(both->timelineView(0)->visibleEnd() - both->timelineView(0)->visibleStart(),
            both->timelineView(1)->visibleEnd() - both->timelineView(1)->visibleStart());
  const qint64 before = both->rankView(1)->time();
  w.playback().setSlowdown(20000.0);
  w.playback().play();
  QTest::qWait(300);
  w.playback().pause();
  EXPECT_GT(both->rankView(0)->time(), a1 + into);
  EXPECT_GT(both->rankView(1)->time(), before) << "playing moves run B too";

  // Plots → Compare runs: the lesson's figures, per run.
  QTableWidget* table = w.plotsView()->compareTable();
  ASSERT_EQ(table->columnCount(), 2);
  const QLocale locale;
  for (int run = 0; run < 2; ++run) {
    const auto& s = (run == 0 ? a : b).summary();
    ASSERT_TRUE(s.bubble.present);
    EXPECT_EQ(cell(table, QStringLiteral("Bubble, measured"), run), locale.toString(s.bubble.measured * 100.0, 'f', 1) + QStringLiteral(" %"));
    EXPECT_NE(cell(table, QStringLiteral("Bubble, schedule alone"), run), QStringLiteral("—"));
    EXPECT_NE(cell(table, QStringLiteral("Step time, schedule alone"), run), QStringLiteral("—"));
    qint64 peak = 0;
    for (const auto& r : s.ranksDetail) peak = std::max<qint64>(peak, r.peakBytes);
    EXPECT_EQ(cell(table, QStringLiteral("Peak memory"), run), Captions::bytes(peak));
  }
  w.playback().setTime(a1 + into);
  const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
  if (!out.isEmpty()) w.grab().save(out + QStringLiteral("/compare-lesson.png"));
  w.close();
}
