// What the learner sees of the replay and of core waits: a real pipeline run's header
// takes its lost stage time apart, the switch shows a replay of it in the same views
// (labelled as one) while the quiz keeps the measured run, and an op that waited for a
// CPU core is dotted in the timeline and said so in the caption.
#include "window/MainWindow.h"
#include "models/Format.h"
#include "views/WorkspacePage.h"
#include "SampleTrace.h"
#include "models/Captions.h"
#include "models/JobRunner.h"
#include "models/TraceModel.h"
#include "trace/Replay.h"
#include "trace/TraceReader.h"
#include "views/Palette.h"
#include "views/PipelineView.h"
#include "views/TimelineView.h"

#include <QAbstractButton>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QLocale>
#include <QProcess>
#include <QTemporaryDir>

#include <cmath>

#include <gtest/gtest.h>

using namespace shardlab::app;

namespace st = shardlab::trace;

TEST(ReplaySwitch, ARealPipelineRunIsTakenApartAndReplayedInTheSameViews) {
  const QString launcher = JobRunner::findLauncher();
  if (!QFileInfo(launcher).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  QTemporaryDir dir;
  const QString trace = dir.filePath(QStringLiteral("gpipe.trace"));
  QProcess run;
  run.start(launcher, {QStringLiteral("--strategy"), QStringLiteral("pipeline"), QStringLiteral("--schedule"),
                       QStringLiteral("gpipe"), QStringLiteral("--ranks"), QStringLiteral("2"),
                       QStringLiteral("--microbatches"), QStringLiteral("4"), QStringLiteral("--layers"),
                       QStringLiteral("2"), QStringLiteral("--hidden"), QStringLiteral("64"), QStringLiteral("--vocab"),
                       QStringLiteral("32"), QStringLiteral("--batch"), QStringLiteral("64"), QStringLiteral("--steps"),
                       QStringLiteral("3"), QStringLiteral("--trace"), trace, QStringLiteral("-q")});
  ASSERT_TRUE(run.waitForFinished(240000));
  ASSERT_EQ(run.exitCode(), 0) << run.readAllStandardError().toStdString();

  MainWindow w;
  w.resize(1600, 1000);
  ASSERT_TRUE(w.openTrace(trace).isEmpty());
  TraceModel& model = w.model();
  const int measuredEvents = model.eventCount();
  auto* measuredButton = w.findChild<QAbstractButton*>(QStringLiteral("showMeasured"));
  auto* aloneButton = w.findChild<QAbstractButton*>(QStringLiteral("showScheduleAlone"));
  auto* projectedButton = w.findChild<QAbstractButton*>(QStringLiteral("showProjected"));
  ASSERT_TRUE(measuredButton && aloneButton && projectedButton);
  EXPECT_TRUE(aloneButton->isEnabled());
  EXPECT_TRUE(measuredButton->isChecked());

  // The header: the run's bubble (the summary's figure), the theory and the parts of
  // their difference, from replays of this trace; one line at 1280 px.
  const auto breakdown = st::bubbleBreakdown(model.measured());
  ASSERT_TRUE(breakdown);
  const QLocale locale;
  const auto pct = [&](double f) { return locale.toString(f * 100.0, 'f', 1) + QLatin1Char('%'); };
  EXPECT_EQ(pct(breakdown->measured), pct(model.summary().bubble.measured));
  const QFontMetricsF fm(w.workspace()->pipelineView()->font());
  const QString line = w.workspace()->pipelineView()->bubbleLine(fm, 1280 - 16);
  EXPECT_LE(fm.horizontalAdvance(line), 1280 - 16);
  EXPECT_TRUE(line.contains(pct(model.summary().bubble.measured))) << line.toStdString();
  EXPECT_TRUE(line.contains(pct(model.summary().bubble.theory))) << line.toStdString();
  EXPECT_FALSE(line.contains(QChar(0x2026))) << "elided: " << line.toStdString();
  const QString header = w.workspace()->pipelineView()->breakdownText();
  const auto points = [&](double f) {
    return (f < 0 ? QStringLiteral("\u2212") : QStringLiteral("+")) + locale.toString(std::abs(f) * 100.0, 'f', 1);
  };
  for (double part : {breakdown->scheduleAsRun, breakdown->handoffs, breakdown->slowerOps, breakdown->coreWaits})
    EXPECT_TRUE(header.contains(points(part))) << header.toStdString();
  EXPECT_TRUE(header.contains(pct(breakdown->notComputing))) << header.toStdString();
  EXPECT_TRUE(header.contains(QStringLiteral("waiting for cores"))) << header.toStdString();

  // Schedule alone: the same views show the replay, and say so; its bubble is the
  // breakdown's schedule-alone replay. The quiz still reads the measured run.
  const auto measuredSummary = model.summary();
  aloneButton->click();
  ASSERT_TRUE(model.replayMode());
  // Memory moves with the compute it happened in: the same allocations in the same
  // order, so the rank cards show the same peaks.
  ASSERT_EQ(model.summary().ranksDetail.size(), measuredSummary.ranksDetail.size());
  for (std::size_t r = 0; r < measuredSummary.ranksDetail.size(); ++r)
    EXPECT_EQ(model.summary().ranksDetail[r].peakBytes, measuredSummary.ranksDetail[r].peakBytes) << "rank " << r;
  EXPECT_EQ(*model.replayMode(), st::ReplayMode::ScheduleAlone);
  EXPECT_TRUE(model.runLabel().startsWith(QStringLiteral("REPLAY"))) << model.runLabel().toStdString();
  EXPECT_TRUE(model.trace().job->written.contains("replay"));
  EXPECT_NEAR(model.summary().bubble.measured, breakdown->scheduleAlone, 1e-9);
  EXPECT_EQ(static_cast<int>(model.measured().events.size()), measuredEvents);
  EXPECT_FALSE(model.measured().job->written.contains("replay"));

  projectedButton->click();
  EXPECT_EQ(*model.replayMode(), st::ReplayMode::Reference);
  EXPECT_TRUE(model.trace().job->written["replay"]["communication"].get<std::string>().find("InfiniBand") != std::string::npos);

  measuredButton->click();
  EXPECT_FALSE(model.replayMode());
  EXPECT_EQ(model.eventCount(), measuredEvents);
  EXPECT_FALSE(model.trace().job->written.contains("replay"));

  // A new trace is shown as measured, whatever was shown before.
  aloneButton->click();
  ASSERT_TRUE(w.openTrace(trace).isEmpty());
  EXPECT_FALSE(model.replayMode());
  EXPECT_TRUE(measuredButton->isChecked());
}

TEST(CoreWaits, AnOpThatWaitedForACoreIsDottedAndCaptioned) {
  auto parsed = st::readTrace(sample::fsdpText({2, 1, false}));
  ASSERT_FALSE(parsed.error);
  st::Trace trace = std::move(parsed.trace);
  int waited = -1;
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    auto& e = trace.events[i];
    if (e.record != st::Record::Op) continue;
    e.cpuNs = e.t1 - e.t0; // every op had its core...
    if (waited < 0 && e.rank == 0 && e.kind == st::Kind::Backward) {
      e.cpuNs = (e.t1 - e.t0) / 2; // ...but this one, which waited half its time for one
      waited = static_cast<int>(i);
    }
  }
  ASSERT_GE(waited, 0);
  TraceModel model;
  model.setTrace(std::move(trace));
  const auto& e = model.event(waited);

  const QString caption = Captions::describe(model, waited);
  EXPECT_TRUE(caption.contains(QStringLiteral("waited %1 of it for a CPU core").arg(Format::duration((e.t1 - e.t0) - e.cpuNs))))
      << caption.toStdString();
  int other = -1;
  for (int i : model.lane(0, TraceModel::Lane::Compute))
    if (i != waited) other = i;
  ASSERT_GE(other, 0);
  EXPECT_FALSE(Captions::describe(model, other).contains(QStringLiteral("CPU core")));

  TimelineView v(model);
  v.resize(1600, 300);
  v.modelReset();
  v.setVisibleRange(e.t0, e.t1); // the op fills the lane
  QImage img(v.size(), QImage::Format_ARGB32);
  v.render(&img);
  const QRectF lane = v.laneRect(0, TraceModel::Lane::Compute);
  const auto dotted = [&](double from, double to) {
    int off = 0, n = 0;
    for (double x = from; x < to; x += 1.0)
      for (double y = lane.top() + 2; y < lane.bottom() - 2; y += 1.0, ++n) {
        const QColor c = img.pixelColor(static_cast<int>(x), static_cast<int>(y));
        const QColor k = Palette::kind(st::Kind::Backward);
        off += std::abs(c.red() - k.red()) + std::abs(c.green() - k.green()) + std::abs(c.blue() - k.blue()) > 30;
      }
    return static_cast<double>(off) / std::max(1, n);
  };
  const double x0 = v.xOf(e.t0), x1 = v.xOf(e.t1), mid = (x0 + x1) / 2;
  EXPECT_LT(dotted(x0 + 30, mid - 10), 0.05); // the half it computed: the kind's colour
  EXPECT_GT(dotted(mid + 10, x1 - 10), 0.3);  // the half it waited: dotted
}
