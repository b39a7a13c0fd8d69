// A hung or failed run in the app (RunEnding): the verdict read from the trace, the
// culprit's card and timeline row highlighted, the waiting ranks shown in the call
// they are stuck in, and the window on the run's last moments.
//
// The two fixtures in tests/app/data were written by real runs of shardlab-run
// (3 December 2026, on the 2-core development machine), each from the build of this commit:
//   hang-fsdp-4ranks.trace:        SHARDLAB_FAULT=2:2:hang shardlab-run --strategy fsdp --ranks 4 --layers 1
//                                  --hidden 16 --batch 8 --steps 4 --collective-timeout 2 --trace F -q
//                                  ("rank 2 never entered all_gather of embedding in step 2; ranks 0, 1, 3
//                                  are waiting in it", exit 3)
//   killed-rank-fsdp-4ranks.trace: SHARDLAB_FAULT=1:2:kill shardlab-run --strategy fsdp --ranks 4 --layers 1
//                                  --hidden 16 --batch 8 --steps 4 --trace F -q
//                                  ("rank 1 failed: killed by signal 9 (Killed)", exit 3)
//   hang-pipeline-2ranks.trace:    SHARDLAB_FAULT=0:2:hang shardlab-run --strategy pipeline --ranks 2 --schedule gpipe
//                                  --microbatches 2 --layers 2 --hidden 16 --batch 8 --steps 4 --collective-timeout 2
//                                  --trace F -q ("rank 1 is waiting in recv from rank 0 of block1 in step 2
//                                  (micro-batch 0); rank 0 never sent it", exit 3)
// The last test makes a hang through JobRunner, as the app runs a job.
#include "window/MainWindow.h"
#include "models/Format.h"
#include "views/WorkspacePage.h"
#include "models/AppSettings.h"
#include "models/Captions.h"
#include "models/JobRunner.h"
#include "models/TraceModel.h"
#include "views/CaptionBar.h"
#include "views/ExperimentPanel.h"
#include "views/Palette.h"
#include "views/RankView.h"
#include "views/TimelineView.h"

#include "trace/TraceReader.h"

#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace shardlab::app;

namespace st = shardlab::trace;

namespace {

const QString kData = QStringLiteral(SHARDLAB_APP_TEST_DATA);
QString hangTrace() { return kData + QStringLiteral("/hang-fsdp-4ranks.trace"); }
QString killedTrace() { return kData + QStringLiteral("/killed-rank-fsdp-4ranks.trace"); }
QString pipelineHangTrace() { return kData + QStringLiteral("/hang-pipeline-2ranks.trace"); }

struct Language {
  explicit Language(const char* code) {
    AppSettings::setLanguageOverride(QLatin1String(code));
    ok = AppSettings::applyLanguage(*qApp);
    QCoreApplication::processEvents();
  }
  ~Language() {
    AppSettings::setLanguageOverride(QStringLiteral("en"));
    AppSettings::applyLanguage(*qApp);
    QCoreApplication::processEvents();
  }
  bool ok = false;
};

// The pixel on a card's left border, half way down: the frame drawn over it.
QColor cardBorder(const RankView& view, const QImage& img, int rank) {
  const QRectF c = view.cardRect(rank);
  return img.pixelColor(static_cast<int>(c.left() + 1), static_cast<int>(c.center().y()));
}

bool near(const QColor& a, const QColor& b) {
  return std::abs(a.red() - b.red()) < 24 && std::abs(a.green() - b.green()) < 24 && std::abs(a.blue() - b.blue()) < 24;
}

} // namespace

TEST(Ending, AHangNamesTheRankThatNeverEnteredAndTheRanksWaitingInTheCall) {
  TraceModel m;
  ASSERT_TRUE(m.loadFile(hangTrace()).isEmpty()) << m.parseError().toStdString();
  EXPECT_FALSE(m.flightRecords().empty()) << "the waiting ranks' flight recorders are kept";
  const RunEnding& e = m.ending();
  ASSERT_EQ(e.kind, RunEnding::Kind::Hang);
  EXPECT_EQ(e.culprits, (std::vector<int>{2}));
  EXPECT_EQ(e.waiting, (std::vector<int>{0, 1, 3}));
  ASSERT_TRUE(e.hang);
  EXPECT_EQ(e.hang->kind, st::Kind::AllGather);
  EXPECT_EQ(e.hang->unit, "embedding");
  EXPECT_EQ(e.hang->step, 2);
  // Each waiting rank's stuck call, from its flight recorder's unfinished entry.
  for (int r : {0, 1, 3}) {
    ASSERT_TRUE(e.stuck.count(r)) << "rank " << r;
    const auto& s = e.stuck.at(r);
    EXPECT_EQ(s.kind, st::Kind::AllGather);
    EXPECT_EQ(m.unitName(s.unit), QStringLiteral("embedding"));
    EXPECT_EQ(s.step, 2);
    EXPECT_GE(s.start, e.hangSince);
    // Seen unfinished when its watchdog fired, the collective timeout (2 s) after it began.
    EXPECT_GE(s.seenAt - s.start, 2'000'000'000) << "rank " << r;
  }
  EXPECT_FALSE(e.stuck.count(2)) << "the hung rank was in no call";
  EXPECT_EQ(e.timeoutSeconds, 2.0);
  EXPECT_EQ(e.text(), QStringLiteral("Hang after 2 s (Hang timeout in the Experiment form): rank 2 never entered all-gather of "
                                     "embedding in step 2; ranks 0, 1 and 3 are waiting in it."));
  EXPECT_EQ(e.culpritText(2), QStringLiteral("never entered all-gather of embedding in step 2"));
  EXPECT_EQ(e.waitingText(m.trace(), 0), QStringLiteral("waiting in all-gather of embedding in step 2 for rank 2"));
  // The last moments: from before the wait to the first watchdog's dump.
  EXPECT_LT(e.windowStart, e.hangSince);
  EXPECT_GT(e.moment, e.hangSince);
  EXPECT_LE(e.moment, m.endTime());
  EXPECT_FALSE(e.reached(e.hangSince - 1));
  EXPECT_TRUE(e.reached(e.hangSince));
}

TEST(Ending, APipelineStageWaitingForAMessageNamesTheStageThatNeverSentIt) {
  TraceModel m;
  ASSERT_TRUE(m.loadFile(pipelineHangTrace()).isEmpty()) << m.parseError().toStdString();
  const RunEnding& e = m.ending();
  ASSERT_EQ(e.kind, RunEnding::Kind::Hang);
  EXPECT_EQ(e.culprits, (std::vector<int>{0}));
  EXPECT_EQ(e.waiting, (std::vector<int>{1}));
  ASSERT_TRUE(e.stuck.count(1));
  EXPECT_EQ(e.stuck.at(1).kind, st::Kind::Recv);
  EXPECT_EQ(e.stuck.at(1).peer, 0);
  EXPECT_EQ(e.text(), QStringLiteral("Hang after 2 s (Hang timeout in the Experiment form): rank 1 is waiting in receive from rank 0 of "
                                     "block1 in step 2 (micro-batch 0); rank 0 never sent it."));
  EXPECT_EQ(e.culpritText(0), QStringLiteral("never entered send to rank 1 of block1 in step 2 (micro-batch 0)"));
}

TEST(Ending, WithoutItsFlightRecordsTheSameRunWouldBlameTheWaitingRanks) {
  // The same file less its flight records: what a reader that ignored them would see.
  auto read = st::readTraceFile(hangTrace().toStdString());
  ASSERT_FALSE(read.error);
  st::Trace without = read.trace;
  std::erase_if(without.events, [](const st::Event& ev) { return ev.record == st::Record::Flight; });
  ASSERT_LT(without.events.size(), read.trace.events.size());
  TraceModel m;
  m.setTrace(std::move(without));
  const RunEnding& e = m.ending();
  // Only the watchdogs' failures remain: ranks 0, 1 and 3 "failed", and rank 2, the
  // cause, is not named at all.
  EXPECT_NE(e.kind, RunEnding::Kind::Hang);
  EXPECT_FALSE(e.isCulprit(2));
  TraceModel with;
  with.setTrace(read.trace);
  EXPECT_TRUE(with.ending().isCulprit(2));
}

TEST(Ending, AKilledRankIsNamedWithMpirunsReasonFromTheTraceAlone) {
  TraceModel m;
  ASSERT_TRUE(m.loadFile(killedTrace()).isEmpty()) << m.parseError().toStdString();
  EXPECT_TRUE(m.flightRecords().empty());
  const RunEnding& e = m.ending();
  ASSERT_EQ(e.kind, RunEnding::Kind::RankFailed);
  EXPECT_EQ(e.culprits, (std::vector<int>{1}));
  EXPECT_EQ(e.culpritText(1), QStringLiteral("killed by signal 9 (Killed)"));
  EXPECT_TRUE(e.text().startsWith(QStringLiteral("Rank 1 failed: killed by signal 9 (Killed)."))) << e.text().toStdString();
  // The failure record sits at the rank's last recorded instant; the playhead goes there.
  qint64 last = 0;
  for (const auto& ev : m.trace().events)
    if (ev.rank == 1 && ev.record != st::Record::Failure) last = std::max<qint64>(last, ev.t1);
  EXPECT_EQ(e.moment, last);
  EXPECT_LT(e.windowStart, e.moment);
  EXPECT_TRUE(e.waiting.empty());
}

// A failure text of any length (here 1 MB, which froze the app) is shown by its start.
TEST(Ending, AMegabyteFailureTextIsShownByItsStart) {
  QFile in(killedTrace());
  ASSERT_TRUE(in.open(QIODevice::ReadOnly));
  QString text = QString::fromUtf8(in.readAll());
  const QString reason = QStringLiteral("\"killed by signal 9 (Killed)\"");
  ASSERT_TRUE(text.contains(reason));
  const QString huge = QStringLiteral("stuck ") + QString(1 << 20, QLatin1Char('x'));
  text.replace(reason, QLatin1Char('"') + huge + QLatin1Char('"'));
  QTemporaryDir dir;
  QFile out(dir.filePath(QStringLiteral("long-failure.trace")));
  ASSERT_TRUE(out.open(QIODevice::WriteOnly));
  out.write(text.toUtf8());
  out.close();
  TraceModel m;
  ASSERT_TRUE(m.loadFile(out.fileName()).isEmpty()) << m.parseError().toStdString();
  const RunEnding& e = m.ending();
  ASSERT_EQ(e.kind, RunEnding::Kind::RankFailed);
  EXPECT_TRUE(e.culpritText(1).startsWith(QStringLiteral("stuck xxx"))) << e.culpritText(1).left(80).toStdString();
  EXPECT_LT(e.culpritText(1).size(), 1000);
  EXPECT_TRUE(e.culpritText(1).contains(QStringLiteral("more characters in the trace")));
  EXPECT_LT(e.text().size(), 2000);
}

TEST(Ending, AnOutOfMemoryRunKeepsItsOwnDisplay) {
  // The out-of-memory lesson's run is not a hang or a failure to jump to.
  st::Trace t;
  st::TraceParser parser(t);
  for (const char* line : {"shardlab-trace 2", "job {\"strategy\":\"ddp\",\"ranks\":2}",
                           "op 0 0 10 forward embedding 0 -1 10 -", "oom 0 20 activations embedding 100 50 40",
                           "fail 1 30 \"killed by signal 9 (Killed)\""})
    ASSERT_FALSE(parser.parseLine(line)) << line;
  TraceModel m;
  m.setTrace(std::move(t));
  EXPECT_EQ(m.ending().kind, RunEnding::Kind::None);
}

TEST(Ending, TheCulpritsCardAndTimelineRowAreHighlightedAndTheWaitingRanksFramed) {
  TraceModel m;
  ASSERT_TRUE(m.loadFile(hangTrace()).isEmpty());
  const RunEnding& e = m.ending();
  RankView view(m);
  view.resize(1200, 700);
  view.modelReset();
  QImage before(view.size(), QImage::Format_ARGB32);
  view.setTime(e.hangSince - 1);
  view.render(&before);
  view.setTime(e.moment);
  QImage at(view.size(), QImage::Format_ARGB32);
  view.render(&at);
  EXPECT_TRUE(near(cardBorder(view, at, 2), Palette::problem())) << cardBorder(view, at, 2).name().toStdString();
  EXPECT_FALSE(near(cardBorder(view, before, 2), Palette::problem())) << "not before the others began waiting";
  for (int r : {0, 1, 3}) EXPECT_FALSE(near(cardBorder(view, at, r), Palette::problem())) << "rank " << r;
  const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
  if (!out.isEmpty()) at.save(out + QStringLiteral("/ending-hang-ranks.png"));

  TimelineView timeline(m);
  timeline.resize(1200, 300);
  timeline.modelReset();
  timeline.setVisibleRange(e.windowStart, m.endTime());
  QImage tl(timeline.size(), QImage::Format_ARGB32);
  timeline.render(&tl);
  // The culprit's name is on the problem colour; another rank's is not.
  auto labelPixel = [&](int rank) {
    const QRectF row = timeline.laneRect(rank, TraceModel::Lane::Idle);
    return tl.pixelColor(3, static_cast<int>(row.top() + 2));
  };
  EXPECT_TRUE(near(labelPixel(2), Palette::problem())) << labelPixel(2).name().toStdString();
  EXPECT_FALSE(near(labelPixel(0), Palette::problem()));
  // A waiting rank's stuck call is drawn in its communication lane, where no coll record is.
  const QRectF comm = timeline.laneRect(0, TraceModel::Lane::Comm);
  const double x = (timeline.xOf(e.stuck.at(0).start) + timeline.xOf(e.stuck.at(0).seenAt)) / 2;
  const QColor inWait = tl.pixelColor(static_cast<int>(x), static_cast<int>(comm.center().y()));
  EXPECT_NE(inWait, tl.pixelColor(static_cast<int>(x), static_cast<int>(timeline.laneRect(2, TraceModel::Lane::Comm).center().y())))
      << "rank 0 waits there, rank 2 is in no call";
  if (!out.isEmpty()) tl.save(out + QStringLiteral("/ending-hang-timeline.png"));
}

TEST(Ending, OpeningAHungTraceShowsItsLastMomentsAndSaysWhatHappened) {
  MainWindow w;
  ASSERT_TRUE(w.openTrace(hangTrace()).isEmpty());
  const RunEnding& e = w.model().ending();
  EXPECT_EQ(w.playback().time(), e.moment);
  EXPECT_EQ(w.workspace()->timelineView()->visibleStart(), e.windowStart);
  EXPECT_GE(w.workspace()->timelineView()->visibleEnd(), w.model().endTime());
  EXPECT_EQ(w.workspace()->message(), e.text());
  EXPECT_EQ(w.workspace()->captionBar()->shownEvent(), CaptionBar::kEndingShown);
  EXPECT_EQ(w.workspace()->captionBar()->text(), e.text());
  // Playing from the start shows the run as it went, the ending only once reached.
  w.playback().home();
  EXPECT_NE(w.workspace()->captionBar()->text(), e.text());
  // A replay of the run has no ending drawn over it; the measured run has it again.
  w.workspace()->showRun(st::ReplayMode::ScheduleAlone);
  EXPECT_EQ(w.model().ending().kind, RunEnding::Kind::None);
  w.workspace()->showRun(std::nullopt);
  EXPECT_EQ(w.model().ending().kind, RunEnding::Kind::Hang);
  EXPECT_TRUE(w.model().ending().isCulprit(2));
}

TEST(Ending, TheVerdictIsTranslated) {
  TraceModel hung, killed;
  ASSERT_TRUE(hung.loadFile(hangTrace()).isEmpty());
  ASSERT_TRUE(killed.loadFile(killedTrace()).isEmpty());
  {
    Language fr("fr");
    ASSERT_TRUE(fr.ok);
    const QString text = hung.ending().text();
    EXPECT_TRUE(text.contains(QStringLiteral("rang 2"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("all-gather"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("never entered"))) << text.toStdString();
    EXPECT_FALSE(killed.ending().text().contains(QStringLiteral("killed by"))) << killed.ending().text().toStdString();
  }
  {
    Language ru("ru");
    ASSERT_TRUE(ru.ok);
    const QString text = hung.ending().text();
    EXPECT_TRUE(text.contains(QStringLiteral("ранг 2"))) << text.toStdString();
    EXPECT_FALSE(text.contains(QStringLiteral("waiting"))) << text.toStdString();
    EXPECT_FALSE(killed.ending().text().contains(QStringLiteral("failed"))) << killed.ending().text().toStdString();
  }
}

TEST(Ending, AJobThatHangsInTheAppIsShownAsAHang) {
  const QString launcher = JobRunner::findLauncher();
  if (!QFileInfo(launcher).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first (" << launcher.toStdString() << ")";
  qputenv("SHARDLAB_FAULT", "1:2:hang"); // the launcher reads it and gives the ranks --fault
  MainWindow w;
  QSignalSpy finished(&w.runner(), &JobRunner::finished);
  shardlab::JobConfig job;
  job.strategy = shardlab::StrategyKind::Ddp;
  job.ranks = 2;
  job.steps = 20;
  job.collectiveTimeout = 2;
  Q_EMIT w.experimentPanel()->runRequested(job); // the form's Run
  const bool ended = finished.wait(120000);
  qunsetenv("SHARDLAB_FAULT");
  ASSERT_TRUE(ended) << w.runner().standardError().toStdString();
  ASSERT_EQ(w.runner().outcome(), JobRunner::Outcome::RankFailed) << w.runner().explanation().toStdString();
  const TraceModel& model = w.model();
  ASSERT_FALSE(model.flightRecords().empty()) << w.runner().standardError().toStdString();
  const RunEnding& e = model.ending();
  ASSERT_EQ(e.kind, RunEnding::Kind::Hang);
  EXPECT_EQ(e.culprits, (std::vector<int>{1}));
  EXPECT_EQ(e.waiting, (std::vector<int>{0}));
  EXPECT_EQ(e.hang->kind, st::Kind::AllReduce);
  EXPECT_EQ(e.hang->step, 2);
  EXPECT_EQ(w.runner().explanation(), e.text());
  EXPECT_TRUE(w.runner().standardError().contains(QStringLiteral("rank 1 never entered all_reduce of output in step 2")))
      << w.runner().standardError().toStdString();
  // The window went to the last moments and says what happened.
  EXPECT_EQ(w.playback().time(), e.moment);
  EXPECT_EQ(w.workspace()->message(), e.text());
  EXPECT_EQ(w.workspace()->timelineView()->visibleStart(), e.windowStart);
}

// The walk's French Summary (76) showed the engine's English "out of memory on rank 0: needs
// 129.2 KiB (optimizer_state of block2)…". The engine's own reports are translated too.
TEST(Captions, TheEnginesFailureReasonsAreTranslated) {
  const QString oom = QStringLiteral("out of memory on rank 0: needs 129.2 KiB (optimizer_state of block2), budget 1.50 MiB, "
                                     "holding 1.38 MiB");
  const QString workerOom = QStringLiteral("out of memory on rank 1: needs 2.0 KiB for gradients of embedding, budget 19.5 KiB, "
                                           "holding 18.0 KiB");
  const QString timeout = QStringLiteral("collective timeout: all_reduce of output in step 2 has not finished after 2.5 s "
                                         "(collective_timeout); its flight recorder is in the trace");
  EXPECT_EQ(Format::failureReason(oom),
            QStringLiteral("out of memory on rank 0: needs 129.2 KiB for optimizer state of block2, budget 1.50 MiB, holding 1.38 MiB"));
  EXPECT_TRUE(Format::failureReason(timeout).contains(QStringLiteral("Hang timeout in the Experiment form")))
      << Format::failureReason(timeout).toStdString();
  EXPECT_FALSE(Format::failureReason(timeout).contains(QStringLiteral("collective_timeout")));
  {
    Language fr("fr");
    ASSERT_TRUE(fr.ok);
    for (const QString& reason : {oom, workerOom, timeout}) {
      const QString said = Format::failureReason(reason);
      EXPECT_FALSE(said.contains(QStringLiteral("out of memory"))) << said.toStdString();
      EXPECT_FALSE(said.contains(QStringLiteral("has not finished"))) << said.toStdString();
      EXPECT_FALSE(said.contains(QStringLiteral("holding"))) << said.toStdString();
    }
    const QString said = Format::failureReason(oom);
    EXPECT_TRUE(said.contains(QStringLiteral("129,2 Kio"))) << said.toStdString();
    EXPECT_TRUE(said.contains(QStringLiteral("rang 0"))) << said.toStdString();
    EXPECT_TRUE(said.contains(QStringLiteral("block2"))) << said.toStdString();
    EXPECT_TRUE(Format::failureReason(timeout).contains(QStringLiteral("2,5 s"))) << Format::failureReason(timeout).toStdString();
  }
  {
    Language ru("ru");
    ASSERT_TRUE(ru.ok);
    const QString said = Format::failureReason(oom);
    EXPECT_TRUE(said.contains(QStringLiteral("129,2 КиБ"))) << said.toStdString();
    EXPECT_FALSE(said.contains(QStringLiteral("out of memory"))) << said.toStdString();
  }
}

// The walk (116): a hung run from the app waited 60 s with "Running…" and nothing said it
// was stuck. The form has the hang timeout, and the live run says which ranks are silent.
TEST(Ending, ASilentRunSaysSoAndWhenItStops) {
  EXPECT_EQ(JobRunner::silenceText({2}, 4, 12, 30),
            QStringLiteral("No event from rank 2 for 12 s; the run stops at the hang timeout of 30 s (Hang timeout in the "
                           "Experiment form)."));
  EXPECT_EQ(JobRunner::silenceText({0, 1}, 2, 5, 2.5),
            QStringLiteral("No rank has recorded anything for 5 s; the run stops at the hang timeout of 2.5 s (Hang timeout in "
                           "the Experiment form)."));
  EXPECT_TRUE(JobRunner::silenceText({}, 4, 12, 30).isEmpty());
  EXPECT_DOUBLE_EQ(JobRunner::silenceThreshold(60), 10);
  EXPECT_DOUBLE_EQ(JobRunner::silenceThreshold(2), 1);

  ExperimentPanel form;
  auto* field = form.findChild<QDoubleSpinBox*>(QStringLiteral("collectiveTimeout"));
  ASSERT_NE(field, nullptr) << "the form has the hang timeout";
  shardlab::JobConfig job;
  job.collectiveTimeout = 30;
  form.setConfig(job);
  EXPECT_DOUBLE_EQ(field->value(), 30);
  field->setValue(5);
  EXPECT_DOUBLE_EQ(form.config().collectiveTimeout, 5);
  field->setValue(0);
  EXPECT_TRUE(form.issuesText().contains(QStringLiteral("collective_timeout:"))) << form.issuesText().toStdString();

  const QString launcher = JobRunner::findLauncher();
  if (!QFileInfo(launcher).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first (" << launcher.toStdString() << ")";
  qputenv("SHARDLAB_FAULT", "1:2:hang");
  MainWindow w;
  QSignalSpy silence(&w.runner(), &JobRunner::silenceChanged);
  QSignalSpy finished(&w.runner(), &JobRunner::finished);
  QStringList shown;
  QObject::connect(&w.runner(), &JobRunner::silenceChanged, &w, [&] { shown << w.workspace()->message(); });
  job.strategy = shardlab::StrategyKind::Ddp;
  job.ranks = 2;
  job.steps = 20;
  job.collectiveTimeout = 3;
  Q_EMIT w.experimentPanel()->runRequested(job);
  const bool ended = finished.wait(120000);
  qunsetenv("SHARDLAB_FAULT");
  ASSERT_TRUE(ended) << w.runner().standardError().toStdString();
  QStringList texts;
  for (const auto& args : silence) texts << args.at(0).toString();
  const auto said = std::find_if(texts.begin(), texts.end(), [](const QString& t) { return !t.isEmpty(); });
  ASSERT_NE(said, texts.end()) << "the silence was named before the hang timeout";
  EXPECT_TRUE(said->contains(QStringLiteral("rank"))) << said->toStdString();
  EXPECT_TRUE(said->contains(QStringLiteral("the run stops at the hang timeout of 3 s"))) << said->toStdString();
  EXPECT_TRUE(shown.contains(*said)) << "shown above the views";
  EXPECT_TRUE(texts.last().isEmpty()) << "and cleared when the run ended";
}
