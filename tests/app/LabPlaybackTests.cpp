// Labs, playback keys and phases, the playback bar's size and colours, exports and
// opening files, the temporary run folder: what a lab instructor and a learner need of
// them (docs/app.md). Windows run offscreen; runs are real (shardlab-run).
#include "window/MainWindow.h"
#include "views/WorkspacePage.h"
#include "SampleTrace.h"
#include "models/AppSettings.h"
#include "views/Appearance.h"
#include "models/JobRunner.h"
#include "models/Phases.h"
#include "models/PlaybackController.h"
#include "models/TraceModel.h"
#include "views/CaptionBar.h"
#include "views/CompareWindow.h"
#include "models/LessonCatalog.h"
#include "views/LabOpener.h"
#include "views/LabPanel.h"
#include "views/LogPane.h"
#include "views/Palette.h"
#include "views/PlaybackBar.h"
#include "views/QuizPanel.h"
#include "views/RankView.h"
#include "views/StartPage.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

using namespace shardlab::app;

namespace st = shardlab::trace;

namespace {

bool launcherBuilt() { return QFileInfo(JobRunner::findLauncher()).isExecutable(); }

QString writeSample(const QTemporaryDir& dir, const QString& name, const sample::Options& o = {4, 2, false}) {
  const QString path = dir.filePath(name);
  std::ofstream(path.toStdString()) << sample::fsdpText(o);
  return path;
}

// A lab whose first step changes the lesson's ranks and steps, with notes that name them.
QString writeLab(const QTemporaryDir& dir) {
  std::ofstream(dir.filePath(QStringLiteral("notes.en.md")).toStdString())
      << "# Step one\n\nThis step runs {ranks|rank|ranks} for {steps} steps.\n";
  const QString lab = dir.filePath(QStringLiteral("lab.json"));
  std::ofstream(lab.toStdString()) << R"({
  "format": 1, "id": "test-lab",
  "title": {"en": "A test lab"},
  "description": {"en": "Two short runs."},
  "steps": [
    {"lesson": "ddp-replicas", "spec": {"ranks": 2, "steps": 3}, "notes": {"en": "notes.en.md"}},
    {"lesson": "fsdp-shard-gather-free", "spec": {"ranks": 2, "steps": 2}}
  ]
})";
  return lab;
}

struct ActiveWindow {
  explicit ActiveWindow(QWidget& w) {
    w.show();
    QApplication::setActiveWindow(&w);
    ok = QTest::qWaitForWindowActive(&w);
  }
  bool ok = false;
};

} // namespace

TEST(Lab, OpensBesideTheRunAndEachStepRunsWithItsSpec) {
  if (!launcherBuilt()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  QTemporaryDir dir;
  const QString labFile = writeLab(dir);
  MainWindow w;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  w.show();
  ASSERT_TRUE(w.openLabFile(labFile)) << w.workspace()->message().toStdString() << w.logPane()->text().toStdString();
  // The lab, its steps and the confirmation are on screen, not behind the start page.
  auto* dock = w.findChild<QDockWidget*>(QStringLiteral("lab"));
  ASSERT_NE(dock, nullptr);
  EXPECT_TRUE(dock->isVisible());
  EXPECT_TRUE(w.workspace()->message().contains(QStringLiteral("opened"))) << w.workspace()->message().toStdString();
  EXPECT_FALSE(w.startPage()->isVisible());
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("A test lab")));
  LabPanel* lab = w.labPanel();
  EXPECT_EQ(lab->titleText(), QStringLiteral("A test lab"));
  EXPECT_EQ(lab->stepCount(), 2);
  EXPECT_EQ(lab->findChild<QListWidget*>(QStringLiteral("labSteps"))->count(), 2);
  // The notes are shown, filled from the job the step runs (the step's spec over the lesson).
  const QString notes = lab->findChild<QTextBrowser*>(QStringLiteral("labNotes"))->toPlainText();
  EXPECT_TRUE(notes.contains(QStringLiteral("This step runs 2 ranks for 3 steps."))) << notes.toStdString();

  QSignalSpy finished(&w, &MainWindow::lessonFinished);
  QCoreApplication::processEvents(); // the lab opened in front
  ASSERT_TRUE(w.runLesson(lab->lessonOf(0)));
  // The step's notes and the step list stay in front while it runs; the guide is a tab beside them.
  QCoreApplication::processEvents();
  EXPECT_FALSE(dock->visibleRegion().isEmpty()) << "the Lab dock went behind the guide";
  EXPECT_TRUE(w.findChild<QDockWidget*>(QStringLiteral("guide"))->visibleRegion().isEmpty());
  // The job the runner got is the step's: 2 ranks and 3 steps, not the lesson's 4 and 10.
  EXPECT_EQ(w.runner().config().ranks, 2);
  EXPECT_EQ(w.runner().config().steps, 3);
  EXPECT_EQ(w.runner().config().strategy, shardlab::StrategyKind::Ddp);
  ASSERT_TRUE(finished.wait(240000)) << w.logPane()->text().toStdString();
  ASSERT_TRUE(finished.at(0).at(0).toBool()) << w.workspace()->message().toStdString();
  EXPECT_EQ(w.model().rankCount(), 2);
  EXPECT_EQ(w.model().stepsDone(), 3);
  EXPECT_TRUE(lab->isDone(0));
  EXPECT_FALSE(lab->isDone(1));

  // Next step: the second step becomes current and is asked for (it waits for the prediction).
  lab->nextStep();
  EXPECT_EQ(lab->currentStep(), 1);
  EXPECT_TRUE(lab->notesMarkdown().isEmpty());
  EXPECT_TRUE(lab->findChild<QTextBrowser*>(QStringLiteral("labNotes"))->toPlainText().contains(QStringLiteral("no notes")));
  if (w.flow().waitingForPrediction()) {
    EXPECT_EQ(w.runner().config().steps, 3) << "nothing new runs before the prediction";
  } else {
    EXPECT_EQ(w.runner().config().strategy, shardlab::StrategyKind::Fsdp);
  }
  w.close();
}

TEST(Lab, ABrokenLabKeepsNoLabAndSaysWhy) {
  QTemporaryDir dir;
  const QString bad = dir.filePath(QStringLiteral("bad.json"));
  std::ofstream(bad.toStdString()) << R"({"format": 1, "id": "x", "title": {"en": "x"}, "steps": [{"lesson": "no-such"}]})";
  MainWindow w;
  EXPECT_FALSE(w.openLabFile(bad));
  EXPECT_FALSE(w.labPanel()->hasLab());
  EXPECT_TRUE(w.logPane()->text().contains(QStringLiteral("unknown-lesson"))) << w.logPane()->text().toStdString();
}

TEST(PlaybackKeys, SpaceTypesInATextFieldAndPlaysOnTheView) {
  QTemporaryDir dir;
  MainWindow w;
  ASSERT_TRUE(w.openTrace(writeSample(dir, QStringLiteral("s.trace"))).isEmpty());
  ActiveWindow active(w);
  ASSERT_TRUE(active.ok);
  auto& p = w.playback();
  // The experiment form's memory budget: free text (the engine reads it when Run is pressed).
  auto* field = w.findChild<QLineEdit*>(QStringLiteral("memoryBudget"));
  ASSERT_NE(field, nullptr);
  ASSERT_TRUE(field->isVisible());
  field->setFocus();
  field->clear();
  QTest::keyClicks(field, QStringLiteral("ab"));
  QTest::keyClick(field, Qt::Key_Space);
  QTest::keyClick(field, Qt::Key_Left);
  EXPECT_EQ(field->text(), QStringLiteral("ab "));
  EXPECT_EQ(field->cursorPosition(), 2) << "Left moves the cursor in the field";
  EXPECT_FALSE(p.isPlaying()) << "Space typed into the field";
  EXPECT_EQ(p.time(), p.start());

  // A click on a view gives it the keys.
  QTest::mouseClick(w.workspace()->rankView(), Qt::LeftButton, {}, QPoint(20, 20));
  EXPECT_TRUE(w.workspace()->rankView()->hasFocus());
  QTest::keyClick(w.workspace()->rankView(), Qt::Key_Space);
  EXPECT_TRUE(p.isPlaying());
  QTest::keyClick(w.workspace()->rankView(), Qt::Key_Space);
  EXPECT_FALSE(p.isPlaying());

  // A saved prediction gives the keys back to the view.
  field->setFocus();
  ASSERT_TRUE(field->hasFocus());
  Q_EMIT w.quizPanel()->predictionDone();
  EXPECT_TRUE(w.workspace()->rankView()->hasFocus());
  QTest::keyClick(w.workspace()->rankView(), Qt::Key_Space);
  EXPECT_TRUE(p.isPlaying());
  p.pause();
}

TEST(PlaybackPhases, NextPhaseGoesForwardBackwardOptimizerThenTheNextStep) {
  TraceModel m;
  m.setTrace(st::readTrace(sample::fsdpText({2, 2, false})).trace);
  PlaybackController p(m);
  CaptionBar caption(m);
  p.modelReset();
  const st::Kind order[] = {st::Kind::Forward, st::Kind::Backward, st::Kind::Optimizer};
  PhaseIndex phases;
  qint64 before = p.time();
  for (int step = 0; step < 2; ++step) {
    for (st::Kind kind : order) {
      p.nextPhase();
      ASSERT_GT(p.time(), before);
      before = p.time();
      const auto phase = phases.at(m, p.time());
      ASSERT_TRUE(phase);
      EXPECT_EQ(phase->step, step);
      EXPECT_EQ(phase->kind, kind) << "step " << step;
      // An op of that kind and step starts there: the phase is read from the trace.
      bool opStartsHere = false;
      for (const auto& e : m.trace().events)
        opStartsHere |= e.record == st::Record::Op && e.kind == kind && e.step == step && e.t0 == p.time();
      EXPECT_TRUE(opStartsHere);
      caption.setTime(p.time());
      EXPECT_TRUE(caption.text().startsWith(PhaseIndex::name(*phase))) << caption.text().toStdString();
    }
  }
  EXPECT_TRUE(caption.text().contains(QStringLiteral("optimizer step"))) << caption.text().toStdString();
  p.nextPhase();
  EXPECT_EQ(p.time(), p.end()) << "after the last optimizer: the end";
  p.previousPhase();
  EXPECT_EQ(phases.at(m, p.time())->kind, st::Kind::Optimizer);
  p.previousPhase();
  EXPECT_EQ(phases.at(m, p.time())->kind, st::Kind::Backward);
}

// Two pipeline stages in different phases at once: stage 0 already in its backward while
// stage 1 still computes its forward. The caption names the phase of the rank it
// describes, not the run's latest phase.
TEST(PlaybackPhases, TheCaptionNamesThePhaseOfTheRankItDescribes) {
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* f = open_memstream(&buf, &size);
  {
    st::TraceWriter w(f, {"embedding", "block0", "output"});
    w.writeHeader();
    w.writeJob({{"strategy", "pipeline"}, {"ranks", 2}, {"device", "cpu"}, {"steps", 1}, {"schedule", "gpipe"},
                {"microbatches", 1}, {"model", {{"parameters", 64}, {"units", {"embedding", "block0", "output"}}}}});
    for (int r = 0; r < 2; ++r) w.writeRank(r, {{"host", "localhost"}, {"device", "cpu"}});
    auto op = [&](int rank, st::Kind kind, std::int64_t t0, std::int64_t t1) {
      st::Event e;
      e.record = st::Record::Op;
      e.kind = kind;
      e.rank = rank;
      e.unit = rank == 0 ? 0 : 2;
      e.step = 0;
      e.micro = 0;
      e.t0 = t0;
      e.t1 = t1;
      w.write(e);
    };
    op(0, st::Kind::Forward, 1000, 2000);
    op(1, st::Kind::Forward, 2000, 5000);  // stage 1's forward, still running at 4500
    op(0, st::Kind::Backward, 3000, 4000); // stage 0 already in its backward (the run's phase from 3000)
    w.flush();
  }
  std::fclose(f);
  const std::string text(buf, size);
  std::free(buf);
  TraceModel m;
  const auto read = st::readTrace(text);
  ASSERT_TRUE(read.ok()) << read.error->message;
  m.setTrace(read.trace);
  CaptionBar caption(m);
  PhaseIndex phases;
  ASSERT_EQ(phases.at(m, 4500)->kind, st::Kind::Backward);
  ASSERT_EQ(phases.at(m, 4500, 1)->kind, st::Kind::Forward);
  caption.setTime(4500); // only stage 1 is computing
  EXPECT_TRUE(caption.text().startsWith(QStringLiteral("Step 0 · forward pass"))) << caption.text().toStdString();
  EXPECT_TRUE(caption.text().contains(QStringLiteral("Rank 1 computes"))) << caption.text().toStdString();
  caption.setTime(3000); // where "Next phase" stops: the op that begins the backward
  EXPECT_TRUE(caption.text().startsWith(QStringLiteral("Step 0 · backward pass"))) << caption.text().toStdString();
  EXPECT_TRUE(caption.text().contains(QStringLiteral("Rank 0 computes"))) << caption.text().toStdString();
  caption.setTime(3500); // both compute: the latest to start (stage 0's backward), under its phase
  EXPECT_TRUE(caption.text().startsWith(QStringLiteral("Step 0 · backward pass"))) << caption.text().toStdString();
}

TEST(RankCards, TheNewestInstantSaysWhatEachRankDidLast) {
  // A run streamed in (as from a live job); the playhead at the newest recorded instant,
  // where a following playhead sits. Records are written when they end, so no rank has
  // an op running there.
  const std::string text = sample::fsdpText({2, 2, false});
  QList<QByteArray> lines = QByteArray::fromStdString(text).split('\n');
  TraceModel m;
  m.clear();
  m.appendLines(lines.mid(0, lines.size() / 2));
  m.appendLines(lines.mid(lines.size() / 2));
  RankView view(m);
  view.resize(900, 600);
  view.modelReset();
  view.setTime(m.endTime());
  for (int r = 0; r < 2; ++r) {
    EXPECT_NE(view.activityText(r), QStringLiteral("no work at this instant")) << "rank " << r;
    EXPECT_FALSE(view.activityText(r).isEmpty());
  }
  // Each rank's last op is its optimizer (the sample's step ends with it).
  for (int r = 0; r < 2; ++r)
    EXPECT_EQ(view.activityText(r), QStringLiteral("last recorded: optimizer")) << view.activityText(r).toStdString();
  // Inside the run, an op running is named as before.
  const int fwd = [&] {
    for (int i : m.lane(0, TraceModel::Lane::Compute))
      if (m.event(i).kind == st::Kind::Forward) return i;
    return -1;
  }();
  ASSERT_GE(fwd, 0);
  view.setTime(m.event(fwd).t0 + 1);
  EXPECT_TRUE(view.activityText(0).startsWith(QStringLiteral("forward"))) << view.activityText(0).toStdString();
}

TEST(PlaybackBarLook, TheIconsAreDrawnInTheThemesTextColour) {
  TraceModel m;
  PlaybackController p(m);
  PlaybackBar bar(p);
  bar.setPalette(Palette::dark());
  QCoreApplication::processEvents();
  const QColor ink = Palette::dark().color(QPalette::ButtonText);
  int checked = 0;
  for (auto* b : bar.findChildren<QToolButton*>()) {
    if (b->icon().isNull()) continue;
    const QImage img = b->icon().pixmap(QSize(16, 16)).toImage().convertToFormat(QImage::Format_ARGB32);
    int opaque = 0, light = 0;
    for (int y = 0; y < img.height(); ++y)
      for (int x = 0; x < img.width(); ++x) {
        const QColor c = img.pixelColor(x, y);
        if (c.alpha() < 128) continue;
        ++opaque;
        light += c.lightness() > 150 ? 1 : 0;
      }
    ASSERT_GT(opaque, 0);
    EXPECT_EQ(light, opaque) << "dark-theme icon pixels are light like " << ink.name().toStdString();
    ++checked;
  }
  EXPECT_EQ(checked, 5);
}

TEST(PlaybackBarLook, TheRussianBarFitsAt1280Pixels) {
  AppSettings::setLanguageOverride(QStringLiteral("ru"));
  ASSERT_TRUE(AppSettings::applyLanguage(*qApp));
  for (bool presentation : {false, true}) {
    AppSettings::setOverrides(QString(), presentation);
    Appearance::apply(*qApp);
    MainWindow w; // built in Russian: the bar's texts are set when it is made
    w.showWorkspace();
    w.setPresentationLayout(presentation);
    w.quizPanel()->parentWidget()->show(); // the quiz dock beside the run, as in a lesson
    w.resize(1280, 720);
    w.show();
    QCoreApplication::processEvents();
    auto* bar = w.findChild<PlaybackBar*>();
    ASSERT_NE(bar, nullptr);
    EXPECT_LE(bar->minimumSizeHint().width(), bar->width()) << "presentation " << presentation;
    EXPECT_GE(bar->findChild<QSlider*>()->width(), PlaybackBar::kMinimumSliderWidth) << "presentation " << presentation;
    // No text cut: every button, label and box is at least as wide as its text needs.
    for (auto* b : bar->findChildren<QAbstractButton*>())
      EXPECT_GE(b->width(), b->sizeHint().width()) << b->text().toStdString() << ", presentation " << presentation;
    for (auto* l : bar->findChildren<QLabel*>())
      EXPECT_GE(l->width(), l->minimumSizeHint().width()) << l->text().toStdString() << ", presentation " << presentation;
    bool russian = false;
    for (auto* b : bar->findChildren<QAbstractButton*>()) russian |= b->text().contains(QStringLiteral("фаза"));
    EXPECT_TRUE(russian) << "the bar is in Russian";
    const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
    if (!out.isEmpty()) w.grab().save(out + (presentation ? QStringLiteral("/ru-bar-1280-presentation.png") : QStringLiteral("/ru-bar-1280.png")));
  }
  AppSettings::setOverrides(QString(), false);
  Appearance::apply(*qApp);
  AppSettings::setLanguageOverride(QStringLiteral("en"));
  AppSettings::applyLanguage(*qApp);
  QCoreApplication::processEvents();
}

TEST(Exports, ThePngIsTheWholeWindowAndEachExportSaysWhere) {
  QTemporaryDir dir;
  MainWindow w;
  ASSERT_TRUE(w.openTrace(writeSample(dir, QStringLiteral("s.trace"))).isEmpty());
  w.resize(1200, 800);
  w.show();
  QCoreApplication::processEvents();
  w.playback().setFraction(0.5);
  const qint64 playhead = w.playback().time();
  const QString png = dir.filePath(QStringLiteral("w.png"));
  ASSERT_TRUE(w.exportPng(png));
  EXPECT_EQ(w.playback().time(), playhead) << "exporting leaves the playhead where it is";
  const QImage img(png);
  EXPECT_EQ(img.size(), w.size() * w.devicePixelRatio()) << "the window, not the current tab";
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QFileInfo(png).absoluteFilePath()))
      << w.statusBar()->currentMessage().toStdString();
  const QString chrome = dir.filePath(QStringLiteral("c.json"));
  ASSERT_TRUE(w.exportChromeTrace(chrome));
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QFileInfo(chrome).absoluteFilePath()));
  EXPECT_FALSE(w.exportPng(dir.filePath(QStringLiteral("no-such-folder/w.png"))));
  EXPECT_TRUE(w.statusBar()->currentMessage().contains(QStringLiteral("Cannot write")));
}

TEST(OpenTrace, ABadFileKeepsTheRunAndAGoodOneReplacesItsContext) {
  QTemporaryDir dir;
  MainWindow w;
  const QString good = writeSample(dir, QStringLiteral("first.trace"));
  ASSERT_TRUE(w.openTrace(good).isEmpty());
  const int events = w.model().eventCount();
  ASSERT_GT(events, 0);
  EXPECT_TRUE(w.windowTitle().contains(QStringLiteral("first.trace"))) << w.windowTitle().toStdString();

  const QString empty = dir.filePath(QStringLiteral("empty.trace"));
  std::ofstream(empty.toStdString()).flush();
  const QString emptyErr = w.openTrace(empty);
  EXPECT_TRUE(emptyErr.contains(QStringLiteral("is empty"))) << emptyErr.toStdString();
  EXPECT_FALSE(w.workspace()->message().contains(QStringLiteral("completely"))) << w.workspace()->message().toStdString();
  EXPECT_EQ(w.model().eventCount(), events) << "the run on screen stays";

  const QString garbage = dir.filePath(QStringLiteral("garbage.trace"));
  std::ofstream(garbage.toStdString()) << "this is not a trace\n";
  EXPECT_FALSE(w.openTrace(garbage).isEmpty());
  EXPECT_EQ(w.model().eventCount(), events) << "the run on screen stays";
  EXPECT_FALSE(w.openTrace(dir.filePath(QStringLiteral("missing.trace"))).isEmpty());
  EXPECT_EQ(w.model().eventCount(), events);

  w.logPane()->append(QStringLiteral("a line about the old run\n"));
  ASSERT_TRUE(w.openTrace(writeSample(dir, QStringLiteral("second.trace"), {2, 1, false})).isEmpty());
  EXPECT_EQ(w.model().rankCount(), 2);
  EXPECT_FALSE(w.logPane()->text().contains(QStringLiteral("old run"))) << "the old log is cleared";
  EXPECT_TRUE(w.windowTitle().contains(QStringLiteral("second.trace"))) << w.windowTitle().toStdString();
}

TEST(CompareWindow, TimeStartsAtZero) {
  TraceModel a, b;
  a.setTrace(st::readTrace(sample::fsdpText({2, 2, false})).trace);
  b.setTrace(st::readTrace(sample::fsdpText({4, 1, false})).trace);
  ASSERT_GT(a.startTime(), 0) << "the samples start after 0, as real runs do";
  CompareWindow w(a, b);
  EXPECT_EQ(w.playback().time(), w.playback().start());
  bool zero = false;
  for (auto* l : w.findChildren<QLabel*>()) zero |= l->text().startsWith(QStringLiteral("0 ns /"));
  EXPECT_TRUE(zero) << "the bar's time reads 0 at the start";
  const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
  if (!out.isEmpty()) w.grab().save(out + QStringLiteral("/compare-window.png"));
}

TEST(RunFolder, AFailedRunLeavesNoTemporaryFolder) {
  if (!launcherBuilt()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  QTemporaryDir tmp;
  const QByteArray before = qgetenv("TMPDIR");
  qputenv("TMPDIR", tmp.path().toUtf8()); // the launcher makes its shardlab-run-* folder here
  TraceModel model;
  JobRunner runner(model);
  QSignalSpy finished(&runner, &JobRunner::finished);
  shardlab::JobConfig job;
  job.strategy = shardlab::StrategyKind::Ddp;
  job.ranks = 2;
  job.steps = 2;
  job.memoryBudget = 64 * 1024; // far less than the model's replica: fails at once
  ASSERT_TRUE(runner.start(job));
  const bool ended = finished.wait(240000);
  if (before.isNull()) qunsetenv("TMPDIR");
  else qputenv("TMPDIR", before);
  ASSERT_TRUE(ended) << runner.standardError().toStdString();
  ASSERT_EQ(runner.outcome(), JobRunner::Outcome::RankFailed) << runner.explanation().toStdString();
  ASSERT_TRUE(model.summary().outOfMemory.has_value());
  EXPECT_TRUE(runner.standardError().contains(tmp.path() + QStringLiteral("/shardlab-run-")))
      << "the launcher used this folder: " << runner.standardError().toStdString();
  const QStringList left = QDir(tmp.path()).entryList({QStringLiteral("shardlab-run-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
  EXPECT_TRUE(left.isEmpty()) << left.join(QLatin1Char(' ')).toStdString();
}

// The launcher's exit 5 (an output not written whole) is said as that, with the file the
// launcher named, not as an unknown exit code.
TEST(RunOutcome, AnOutputThatCannotBeWrittenIsSaidWithItsFile) {
  if (!launcherBuilt()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  TraceModel model;
  JobRunner runner(model);
  QSignalSpy finished(&runner, &JobRunner::finished);
  shardlab::JobConfig job;
  job.strategy = shardlab::StrategyKind::Ddp;
  job.ranks = 2;
  job.steps = 2;
  ASSERT_TRUE(runner.start(job, QStringLiteral("/dev/full"))); // every write fails: no space left
  ASSERT_TRUE(finished.wait(240000)) << runner.standardError().toStdString();
  EXPECT_EQ(runner.outcome(), JobRunner::Outcome::OutputFailed) << runner.explanation().toStdString();
  EXPECT_TRUE(runner.explanation().contains(QStringLiteral("could not be written whole"))) << runner.explanation().toStdString();
  EXPECT_TRUE(runner.explanation().contains(QStringLiteral("/dev/full"))) << runner.explanation().toStdString();
}

// The walk's lab (101, 102): at Open lab the quiz asked "…with 4 ranks?" for a 2-rank step
// until Run this step. Questions shown before a step are filled from that step's job.
TEST(Lab, TheQuestionsBeforeAStepUseThatStepsJob) {
  QTemporaryDir dir;
  MainWindow w;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  ASSERT_TRUE(w.openLabFile(writeLab(dir))) << w.logPane()->text().toStdString();
  ASSERT_EQ(w.quizPanel()->lesson(), QStringLiteral("ddp-replicas"));
  QString asked = w.quizPanel()->predictionQuestion();
  EXPECT_TRUE(asked.contains(QStringLiteral("with 2 ranks"))) << asked.toStdString();
  // The second step chosen in the list, not run yet: its lesson's questions, with its 2 ranks.
  w.labPanel()->setCurrentStep(1);
  EXPECT_EQ(w.quizPanel()->lesson(), QStringLiteral("fsdp-shard-gather-free"));
  asked = w.quizPanel()->predictionQuestion();
  EXPECT_TRUE(asked.contains(QStringLiteral("2 ranks"))) << asked.toStdString();
  EXPECT_FALSE(asked.contains(QStringLiteral("4 ranks"))) << asked.toStdString();
}

// The walk (110): Next step after the last step did nothing. The lab ends with its results.
TEST(Lab, NextAfterTheLastStepEndsTheLabWithItsResults) {
  QTemporaryDir dir;
  MainWindow w;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  ASSERT_TRUE(w.openLabFile(writeLab(dir)));
  LabPanel* lab = w.labPanel();
  // The progress text is a line of its own, not drawn over the bar's fill (106).
  auto* bar = lab->findChild<QProgressBar*>();
  ASSERT_NE(bar, nullptr);
  EXPECT_FALSE(bar->isTextVisible());
  EXPECT_EQ(lab->progressText(), QStringLiteral("Step 1 of 2 · 0 done"));
  lab->lessonFinished(lab->lessonOf(0), true);
  lab->lessonFinished(lab->lessonOf(1), true);
  lab->setCurrentStep(1);
  auto* next = lab->findChild<QPushButton*>(QStringLiteral("labNextStep"));
  ASSERT_NE(next, nullptr);
  EXPECT_TRUE(next->isEnabled()) << "the last step's Next finishes the lab";
  EXPECT_EQ(next->text(), QStringLiteral("Finish lab"));
  QSignalSpy runs(lab, &LabPanel::stepRunRequested);
  next->click();
  EXPECT_TRUE(lab->isFinished());
  EXPECT_EQ(runs.count(), 0) << "nothing more runs";
  EXPECT_EQ(lab->progressText(), QStringLiteral("Lab complete: 2 of 2 steps done"));
  const QString notes = lab->findChild<QTextBrowser*>(QStringLiteral("labNotes"))->toPlainText();
  EXPECT_TRUE(notes.contains(QStringLiteral("Results"))) << notes.toStdString();
  EXPECT_TRUE(notes.contains(QStringLiteral("done"))) << notes.toStdString();
  EXPECT_TRUE(notes.contains(QStringLiteral("no answers"))) << notes.toStdString();
  EXPECT_FALSE(next->isEnabled());
  // A step chosen in the list again: the lab goes on from there.
  lab->setCurrentStep(0);
  EXPECT_FALSE(lab->isFinished());
}

// The walk (100): File → Open lab started in the working directory.
TEST(Lab, TheOpenDialogStartsInTheLabsFolderThenTheLastOneUsed) {
  QSettings().remove(QStringLiteral("labs/lastFolder"));
  EXPECT_EQ(labDialogFolder(), QDir(LessonCatalog::assetsDirectory() + QStringLiteral("/labs")).absolutePath());
  QTemporaryDir dir;
  ASSERT_TRUE(openLab(writeLab(dir)).lab);
  EXPECT_EQ(labDialogFolder(), QFileInfo(dir.path()).absoluteFilePath());
  QSettings().remove(QStringLiteral("labs/lastFolder"));
}

// The walk (111): the Lab dock stayed beside an unrelated trace opened later.
TEST(Lab, AnOpenedTraceIsNotALabStep) {
  QTemporaryDir dir;
  MainWindow w;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  w.show();
  ASSERT_TRUE(w.openLabFile(writeLab(dir)));
  auto* dock = w.findChild<QDockWidget*>(QStringLiteral("lab"));
  ASSERT_TRUE(dock->isVisible());
  ASSERT_TRUE(w.openTrace(writeSample(dir, QStringLiteral("other.trace"))).isEmpty());
  EXPECT_FALSE(dock->isVisible());
  EXPECT_TRUE(w.labPanel()->hasLab()) << "the lab stays open (View → Lab)";
}

// The walk (119): garbage on line 3 replaced a good run with an empty one and dropped the
// good lines after it. What is readable is shown, and the message says what was kept.
TEST(OpenTrace, ADamagedTraceShowsWhatIsReadableAndSaysWhatWasKept) {
  QTemporaryDir dir;
  MainWindow w;
  ASSERT_TRUE(w.openTrace(writeSample(dir, QStringLiteral("good.trace"))).isEmpty());
  const int events = w.model().eventCount();
  std::string text = sample::fsdpText({2, 2, false});
  std::size_t pos = 0;
  for (int i = 0; i < 2; ++i) pos = text.find('\n', pos) + 1;
  text.insert(pos, "garbage\n");
  const long after = static_cast<long>(std::count(text.begin(), text.end(), '\n')) - 3;
  const QString damaged = dir.filePath(QStringLiteral("garbage3.trace"));
  std::ofstream(damaged.toStdString()) << text;
  const QString err = w.openTrace(damaged);
  EXPECT_TRUE(err.contains(QStringLiteral("line 3: unknown record 'garbage'"))) << err.toStdString();
  EXPECT_TRUE(err.contains(QStringLiteral("the %1 lines after it were read").arg(QLocale().toString(static_cast<qlonglong>(after)))))
      << err.toStdString();
  EXPECT_EQ(w.model().rankCount(), 2);
  EXPECT_EQ(w.model().eventCount(), static_cast<int>(st::readTrace(sample::fsdpText({2, 2, false})).trace.events.size()));
  EXPECT_TRUE(w.workspace()->message().contains(err)) << w.workspace()->message().toStdString();
  // A file whose only readable lines are its header and job: the run on screen stays.
  ASSERT_TRUE(w.openTrace(writeSample(dir, QStringLiteral("good-again.trace"))).isEmpty());
  const QString nothing = dir.filePath(QStringLiteral("nothing.trace"));
  std::ofstream(nothing.toStdString()) << text.substr(0, pos) << "garbage\n";
  const QString said = w.openTrace(nothing);
  EXPECT_TRUE(said.contains(QStringLiteral("unknown record 'garbage'"))) << said.toStdString();
  EXPECT_EQ(w.model().eventCount(), events) << "the run on screen stays";
  EXPECT_TRUE(w.workspace()->message().contains(QStringLiteral("The run on screen stays"))) << w.workspace()->message().toStdString();
}
