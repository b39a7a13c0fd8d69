// Comparison lessons: the two runs side by side with one playhead,
// the second following the first's step and time into it at one time scale, and the
// lesson's figures in Plots → Compare runs. Models and views over synthetic traces;
// the lesson itself runs for real through shardlab-run (kept tiny by a lab step).
#include "window/MainWindow.h"
#include "models/Format.h"
#include "views/WorkspacePage.h"
#include "SampleTrace.h"
#include "models/Captions.h"
#include "models/JobRunner.h"
#include "models/PlaybackController.h"
#include "models/RunFigures.h"
#include "models/RunFollower.h"
#include "models/TraceModel.h"
#include "views/CompareView.h"
#include "views/CompareWindow.h"
#include "views/LedgerView.h"
#include "views/LogPane.h"
#include "views/PipelineView.h"
#include "views/PlotsView.h"
#include "views/QuizPanel.h"
#include "views/RankView.h"
#include "views/TimelineView.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLocale>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>

#include <algorithm>
#include <cmath>
#include <QTemporaryDir>
#include <QTest>

#include <qcustomplot.h>

#include <fstream>

#include <gtest/gtest.h>

using namespace shardlab::app;

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
  EXPECT_TRUE(cell(table, QStringLiteral("Peak memory"), 0).startsWith(Format::bytes(peakA)));
  EXPECT_TRUE(cell(table, QStringLiteral("Peak memory"), 0).contains(QStringLiteral("out of memory")));
  EXPECT_EQ(cell(table, QStringLiteral("Peak memory"), 1), Format::bytes(peakB));
  EXPECT_EQ(cell(table, QStringLiteral("Memory budget"), 0), Format::bytes(20000));
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
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
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
  ASSERT_TRUE(finished.at(0).at(0).toBool()) << w.workspace()->message().toStdString();
  QTest::qWait(100);
  const TraceModel& a = w.model();
  const TraceModel& b = w.comparisonModel();
  ASSERT_EQ(a.stepsDone(), 3);
  ASSERT_EQ(b.stepsDone(), 3);
  ASSERT_TRUE(a.config() && b.config());
  EXPECT_NE(a.config()->schedule, b.config()->schedule);
  // Both runs on screen, side by side, on the pipeline diagram (pipeline runs).
  CompareView* both = w.workspace()->compareView();
  ASSERT_TRUE(both->isVisible()) << "the lesson ends on the two runs side by side";
  EXPECT_TRUE(both->showsPipeline());
  EXPECT_TRUE(both->pipelineView(0)->isVisible());
  EXPECT_TRUE(both->pipelineView(1)->isVisible());
  EXPECT_TRUE(both->timelineView(1)->isVisible());
  EXPECT_LT(both->pipelineView(0)->mapTo(&w, QPoint()).x(), both->pipelineView(1)->mapTo(&w, QPoint()).x());
  EXPECT_TRUE(w.workspace()->message().contains(QStringLiteral("Both runs"))) << w.workspace()->message().toStdString();

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
  QTableWidget* table = w.workspace()->plotsView()->compareTable();
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
    EXPECT_EQ(cell(table, QStringLiteral("Peak memory"), run), Format::bytes(peak));
  }
  w.playback().setTime(a1 + into);
  const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
  if (!out.isEmpty()) w.grab().save(out + QStringLiteral("/compare-lesson.png"));
  w.close();
}

namespace {
// The out-of-memory lesson's first run: it stops when rank 1 runs out of memory in step 0
// (the sample's rank 0 would go on; a real job is aborted there), the second run goes on.
void loadStoppedByOutOfMemory(TraceModel& m) {
  st::Trace t = st::readTrace(sample::fsdpText({2, 2, true})).trace;
  qint64 stop = INT64_MAX;
  for (const auto& e : t.events)
    if (e.record == st::Record::OutOfMemory) stop = std::min<qint64>(stop, e.t0);
  std::erase_if(t.events, [&](const st::Event& e) { return e.t0 > stop; });
  m.setTrace(std::move(t));
}
} // namespace

// gui-walk-3 #4: in the out-of-memory lesson the playhead ended at DDP's last instant, so
// FSDP, still in step 0 there, never played. The comparison plays both runs to their ends.
TEST(CompareView, EachRunPlaysToItsOwnEnd) {
  TraceModel a, b;
  loadStoppedByOutOfMemory(a);
  load(b, {2, 3, false});
  ASSERT_FALSE(a.failureEvents().empty());
  RunFollower follower(a, b);
  const qint64 leadEnd = a.endTime();
  const RunFollower::Window atLeadEnd = follower.at(leadEnd);
  ASSERT_LT(atLeadEnd.followerTime, b.endTime()) << "run B has more to play when run A stops";
  EXPECT_EQ(follower.end(), leadEnd + (b.endTime() - atLeadEnd.followerTime));
  // Past run A's end, run B goes on at its own pace, in its own step.
  const qint64 later = leadEnd + (b.endTime() - atLeadEnd.followerTime) / 2;
  const RunFollower::Window w = follower.at(later);
  EXPECT_EQ(w.followerTime, atLeadEnd.followerTime + (later - leadEnd));
  EXPECT_TRUE(w.leadEnded);
  EXPECT_EQ(follower.leadTimeOf(w.followerTime, w), later) << "a click on run B's timeline maps back";
  EXPECT_EQ(follower.at(follower.end()).followerTime, b.endTime());

  CompareWindow window(a, b);
  window.resize(1280, 720);
  window.show();
  EXPECT_EQ(window.playback().end(), follower.end()) << "the playhead's range covers both runs";
  window.playback().toEnd();
  CompareView* view = window.view();
  EXPECT_EQ(view->rankView(1)->time(), b.endTime()) << "run B reaches its own end";
  EXPECT_EQ(view->rankView(0)->time(), a.endTime()) << "run A shows its last instant";
  const auto [b2, b2end] = stepExtent(b, 2);
  EXPECT_EQ(view->timelineView(1)->visibleStart(), b2) << "run B's timeline shows the step it is in";
  // Playing from run A's end moves run B on.
  window.playback().setTime(leadEnd);
  const qint64 before = view->rankView(1)->time();
  window.playback().setSlowdown(2000.0);
  window.playback().play();
  QTest::qWait(300);
  window.playback().pause();
  EXPECT_GT(view->rankView(1)->time(), before);
  EXPECT_EQ(view->rankView(0)->time(), a.endTime());
}

// gui-walk-3 #4: the out-of-memory run's bar stood under the budget line as if it fitted. The
// chart draws the refused allocation on what the rank held: the bar reaches what it needed.
TEST(CompareRuns, TheOutOfMemoryBarShowsWhatTheRankNeededAboveTheBudget) {
  TraceModel a, b;
  loadStoppedByOutOfMemory(a);
  load(b, {2, 2, false});
  PlotsView plots(a);
  plots.resize(1000, 700);
  plots.setComparison(&b, QStringLiteral("DDP"), QStringLiteral("FSDP"));
  const auto refused = refusedAllocations(a);
  ASSERT_EQ(refused.size(), 1u);
  const double mib = 1024.0 * 1024.0;
  const double needed = static_cast<double>(refused[0].heldBytes + refused[0].refusedBytes) / mib;
  QCPBars* refusedBar = nullptr;
  for (int i = 0; i < plots.comparePlot()->plottableCount(); ++i)
    if (auto* bars = qobject_cast<QCPBars*>(plots.comparePlot()->plottable(i)); bars && bars->property("refused").toBool())
      refusedBar = bars;
  ASSERT_NE(refusedBar, nullptr) << "a bar for the refused allocation";
  ASSERT_EQ(refusedBar->data()->size(), 1);
  EXPECT_NEAR(refusedBar->baseValue(), static_cast<double>(refused[0].heldBytes) / mib, 1e-12) << "on what was held";
  EXPECT_NEAR(refusedBar->baseValue() + refusedBar->data()->begin()->mainValue(), needed, 1e-12) << "up to what was needed";
  EXPECT_TRUE(refusedBar->name().contains(QStringLiteral("needed, refused"))) << refusedBar->name().toStdString();
  EXPECT_GE(plots.comparePlot()->yAxis->range().upper, needed) << "in view";
  EXPECT_TRUE(cell(plots.compareTable(), QStringLiteral("Needed, refused"), 0)
                  .startsWith(Format::bytes(refused[0].heldBytes + refused[0].refusedBytes)));
  EXPECT_EQ(cell(plots.compareTable(), QStringLiteral("Needed, refused"), 1), QStringLiteral("—"));
  // gui-walk-3 (30): the rank axis has a tick per rank, no "-0.5 … 1.5".
  plots.show();
  plots.showComparison();
  QTest::qWait(50);
  plots.comparePlot()->replot();
  const QVector<double> ticks = plots.comparePlot()->xAxis->tickVector();
  ASSERT_FALSE(ticks.isEmpty());
  for (double x : ticks) EXPECT_DOUBLE_EQ(x, std::round(x)) << "a whole rank";
}

// gui-walk-3 #6: while the next lesson waits for its prediction the window kept the previous
// run (its cards, its ledger, "4 CPU ranks") and Compare runs collapsed to a broken chart. Now
// the previous runs leave the screen and every view says there is no run yet for the lesson.
TEST(ComparisonLesson, WhileThePredictionIsAwaitedTheViewsSayThereIsNoRunYet) {
  QTemporaryDir dir;
  const QString file = dir.filePath(QStringLiteral("previous.trace"));
  std::ofstream(file.toStdString()) << sample::fsdpText({4, 2, false});
  MainWindow w;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  w.resize(1600, 1000);
  w.show();
  ASSERT_TRUE(w.openTrace(file).isEmpty());
  ASSERT_FALSE(w.model().isEmpty());
  ASSERT_TRUE(w.runLesson(QStringLiteral("oom-ddp-vs-fsdp"), true));
  ASSERT_TRUE(w.flow().waitingForPrediction());
  EXPECT_TRUE(w.model().isEmpty()) << "the previous run is not this lesson's";
  EXPECT_TRUE(w.comparisonModel().isEmpty());
  EXPECT_TRUE(w.workspace()->rankView()->emptyText().contains(QStringLiteral("for this lesson"))) << w.workspace()->rankView()->emptyText().toStdString();
  w.workspace()->plotsView()->showComparison();
  QTest::qWait(50);
  EXPECT_TRUE(w.workspace()->plotsView()->comparePlot()->isHidden()) << "no chart without runs";
  EXPECT_FALSE(w.workspace()->plotsView()->compareEmptyLabel()->isHidden());
  EXPECT_TRUE(w.workspace()->plotsView()->compareEmptyLabel()->text().contains(QStringLiteral("for this lesson")));
  auto* ledger = w.findChild<LedgerView*>();
  ASSERT_NE(ledger, nullptr);
  EXPECT_TRUE(ledger->shownHtml().contains(QStringLiteral("for this lesson")));
  // The header's step count (the Lab dock has a progress bar of its own).
  bool noRun = false;
  for (auto* bar : w.findChildren<QProgressBar*>()) {
    EXPECT_FALSE(bar->text().contains(QStringLiteral("steps"))) << "not \"0 / 1 steps\": " << bar->text().toStdString();
    noRun |= bar->text() == QStringLiteral("no run");
  }
  EXPECT_TRUE(noRun);
  w.close();
}
