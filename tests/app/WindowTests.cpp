// The main window as a whole: translations (French, Russian, live switching),
// plural forms, the start page's lesson guide, and keyboard shortcuts when a view
// has the focus.
#include "models/AppSettings.h"
#include "models/JobText.h"
#include "models/LessonCatalog.h"
#include "views/ExperimentPanel.h"
#include "views/GuidePanel.h"
#include "models/JobRunner.h"
#include "views/LogPane.h"
#include "window/MainWindow.h"
#include "views/WorkspacePage.h"
#include "views/QuizPanel.h"
#include "models/PlaybackController.h"
#include "SampleTrace.h"
#include "views/StartPage.h"
#include "views/TimelineView.h"
#include "views/RankView.h"
#include "models/TraceModel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QSignalSpy>
#include <QDockWidget>
#include <QFileInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QMenuBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include <fstream>

#include <gtest/gtest.h>

using namespace shardlab::app;

namespace {
struct Language {
  explicit Language(const char* code) {
    AppSettings::setLanguageOverride(QLatin1String(code));
    ok = AppSettings::applyLanguage(*qApp);
    QCoreApplication::processEvents(); // LanguageChange is posted to each widget
  }
  ~Language() {
    AppSettings::setLanguageOverride(QStringLiteral("en"));
    AppSettings::applyLanguage(*qApp);
    QCoreApplication::processEvents();
  }
  bool ok = false;
};

// The views' tabs (the window has other tab widgets: the quiz dock's, the docks' own tab bars).
QString tabText(MainWindow& w, int i) {
  for (auto* tabs : w.findChildren<QTabWidget*>())
    if (tabs->indexOf(w.workspace()->rankView()) >= 0) return tabs->tabText(i);
  return {};
}
} // namespace

TEST(Translations, FrenchWindow) {
  Language fr("fr");
  ASSERT_TRUE(fr.ok) << "the French .qm must be embedded under :/i18n";
  MainWindow w;
  EXPECT_EQ(tabText(w, 2), QStringLiteral("Graphiques"));
  EXPECT_EQ(tabText(w, 3), QStringLiteral("Résumé"));
  auto* run = w.startPage()->findChild<QPushButton*>(QStringLiteral("run-lesson"));
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->text(), QStringLiteral("Lancer cette leçon"));
  // The lesson guide is the French page, and its answer stays hidden until asked for.
  w.startPage()->selectLesson(QStringLiteral("oom-ddp-vs-fsdp"));
  const QString md = w.startPage()->guideMarkdown();
  EXPECT_TRUE(md.startsWith(QStringLiteral("# Mémoire insuffisante"))) << md.left(80).toStdString();
  EXPECT_FALSE(md.contains(QStringLiteral("## Réponse")));
  EXPECT_EQ(w.menuBar()->actions().value(0)->text(), QStringLiteral("&Fichier"));
}

TEST(Translations, TheFormNamesTheEngineRuleInTheUiLanguage) {
  shardlab::JobConfig broken;
  broken.ranks = 3;
  broken.batch = 8;
  const std::pair<const char*, QString> expected[] = {
      {"fr", QStringLiteral("• batch: le lot global (8) doit être divisible par le nombre de rangs (3)")},
      {"ru", QStringLiteral("• batch: глобальный батч (8) должен делиться на число рангов (3)")}};
  for (const auto& [code, text] : expected) {
    Language language(code);
    ASSERT_TRUE(language.ok) << code;
    ExperimentPanel form;
    form.resize(420, 640);
    form.setConfig(broken);
    EXPECT_EQ(form.issuesText(), text) << code;
    const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
    if (!out.isEmpty()) form.grab().save(out + QStringLiteral("/form-broken-rule-%1.png").arg(QLatin1String(code)));
  }
}

TEST(Translations, SwitchLiveToRussianAndBack) {
  MainWindow w;
  EXPECT_EQ(tabText(w, 2), QStringLiteral("Plots"));
  {
    Language ru("ru");
    ASSERT_TRUE(ru.ok);
    EXPECT_EQ(tabText(w, 2), QStringLiteral("Графики"));
    EXPECT_EQ(w.menuBar()->actions().value(0)->text(), QStringLiteral("&Файл"));
    EXPECT_TRUE(w.startPage()->guideMarkdown().startsWith(QStringLiteral("# DDP")));
    EXPECT_TRUE(w.startPage()->guideMarkdown().contains(QStringLiteral("ранг")));
  }
  EXPECT_EQ(tabText(w, 2), QStringLiteral("Plots"));
}

TEST(Translations, PluralForms) {
  TraceModel m;
  for (int ranks : {1, 4}) {
    m.clear();
    QList<QByteArray> lines;
    for (const auto& l : QByteArray::fromStdString(sample::fsdpText({ranks, 1, false})).split('\n'))
      if (!l.isEmpty()) lines << l;
    m.appendLines(lines);
    const QString label = m.runLabel();
    EXPECT_FALSE(label.contains(QStringLiteral("(s)"))) << label.toStdString();
    EXPECT_TRUE(label.startsWith(ranks == 1 ? QStringLiteral("1 CPU rank") : QStringLiteral("4 CPU ranks"))) << label.toStdString();
    if (ranks == 1) {
      EXPECT_FALSE(label.startsWith(QStringLiteral("1 CPU ranks")));
    }
    Language ru("ru");
    EXPECT_TRUE(m.runLabel().startsWith(ranks == 1 ? QStringLiteral("1 CPU-ранг") : QStringLiteral("4 CPU-ранга"))) << m.runLabel().toStdString();
  }
}

TEST(Shortcuts, ListedInHelpAndWorkWhenAViewHasFocus) {
  MainWindow w;
  const QString html = w.shortcutsHtml();
  for (const char* key : {"Space", "Right", "Left", "Home", "End", "+", "-", "Ctrl+Right", "Shift+Right", "F11"})
    EXPECT_TRUE(html.contains(QLatin1String(key))) << key;

  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("s.trace"));
  std::ofstream(path.toStdString()) << sample::fsdpText({4, 2, false});
  ASSERT_TRUE(w.openTrace(path).isEmpty());
  w.show();
  QApplication::setActiveWindow(&w);
  ASSERT_TRUE(QTest::qWaitForWindowActive(&w));
  auto& p = w.playback();
  for (QWidget* view : {static_cast<QWidget*>(w.workspace()->timelineView()), static_cast<QWidget*>(w.workspace()->rankView())}) {
    view->setFocus();
    QCoreApplication::processEvents();
    ASSERT_TRUE(view->hasFocus());
    QTest::keyClick(view, Qt::Key_End);
    EXPECT_EQ(p.time(), p.end());
    QTest::keyClick(view, Qt::Key_Home);
    EXPECT_EQ(p.time(), p.start());
    QTest::keyClick(view, Qt::Key_Right);
    EXPECT_GT(p.time(), p.start());
    const qint64 t = p.time();
    QTest::keyClick(view, Qt::Key_Left);
    EXPECT_LT(p.time(), t);
    const double s = p.slowdown();
    QTest::keyClick(view, Qt::Key_Plus);
    EXPECT_LT(p.slowdown(), s);
    QTest::keyClick(view, Qt::Key_Minus);
    EXPECT_DOUBLE_EQ(p.slowdown(), s);
    QTest::keyClick(view, Qt::Key_Space);
    EXPECT_TRUE(p.isPlaying());
    QTest::keyClick(view, Qt::Key_Space);
    EXPECT_FALSE(p.isPlaying());
  }
}

TEST(OpenTrace, TheFormAndTheLogDescribeTheRunOnScreen) {
  // A real run whose settings differ from the form's defaults.
  const QString launcher = JobRunner::findLauncher();
  if (!QFileInfo(launcher).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  QTemporaryDir dir;
  const QString file = dir.filePath(QStringLiteral("ddp.trace"));
  QProcess p;
  p.start(launcher, {QStringLiteral("--strategy"), QStringLiteral("ddp"), QStringLiteral("--ranks"), QStringLiteral("2"),
                     QStringLiteral("--layers"), QStringLiteral("3"), QStringLiteral("--steps"), QStringLiteral("2"),
                     QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("-q"), QStringLiteral("--trace"), file});
  ASSERT_TRUE(p.waitForFinished(180000));
  ASSERT_EQ(p.exitCode(), 0);
  MainWindow w;
  ASSERT_TRUE(w.openTrace(file).isEmpty());
  const auto* form = w.findChild<ExperimentPanel*>();
  const auto spec = form->config();
  EXPECT_EQ(spec.strategy, shardlab::StrategyKind::Ddp);
  EXPECT_EQ(spec.ranks, 2);
  EXPECT_EQ(spec.layers, 3);
  EXPECT_TRUE(form->issues().empty()) << "a recorded run's settings are valid settings: " << form->issuesText().toStdString();
  bool commandShown = false;
  for (auto* edit : w.findChild<LogPane*>()->findChildren<QLineEdit*>())
    if (edit->text().contains(QStringLiteral("mpirun -np 2"))) commandShown = true;
  EXPECT_TRUE(commandShown);
}

// At 1280x720 with the log open, the form's Run and Stop buttons are on screen and not
// under the log (the left docks keep the window's height; the fields scroll).
TEST(ExperimentForm, RunAndStopStayInViewAt1280x720) {
  MainWindow w;
  w.resize(1280, 720);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  w.showWorkspace();
  auto* experiment = w.findChild<QDockWidget*>(QStringLiteral("experiment"));
  auto* log = w.findChild<QDockWidget*>(QStringLiteral("log"));
  ASSERT_TRUE(experiment && log);
  experiment->show();
  log->show();
  QCoreApplication::processEvents();
  ASSERT_TRUE(log->isVisible());
  const QRect logArea(log->mapTo(&w, QPoint()), log->size());
  int buttons = 0;
  for (auto* button : w.experimentPanel()->findChildren<QPushButton*>()) {
    if (button->text() != QStringLiteral("Run") && button->text() != QStringLiteral("Stop")) continue;
    ++buttons;
    const QRect r(button->mapTo(&w, QPoint()), button->size());
    EXPECT_TRUE(button->isVisible()) << button->text().toStdString();
    EXPECT_TRUE(w.rect().contains(r)) << button->text().toStdString();
    EXPECT_FALSE(r.intersects(logArea)) << button->text().toStdString() << " is under the log";
    EXPECT_TRUE(experiment->rect().contains(QRect(button->mapTo(experiment, QPoint()), button->size())))
        << button->text().toStdString() << " is cut off by the dock";
  }
  EXPECT_EQ(buttons, 2);
}

TEST(Presentation, HidesTheFormAndTheLogAndBringsThemBack) {
  MainWindow w;
  w.show();
  auto* experiment = w.findChild<QDockWidget*>(QStringLiteral("experiment"));
  auto* log = w.findChild<QDockWidget*>(QStringLiteral("log"));
  ASSERT_TRUE(experiment && log);
  w.setPresentationLayout(true);
  EXPECT_FALSE(experiment->isVisible());
  EXPECT_FALSE(log->isVisible());
  w.setPresentationLayout(false);
  EXPECT_TRUE(experiment->isVisible());
  EXPECT_TRUE(log->isVisible());
}

TEST(LessonFlow, PredictFirstThenTheRunStarts) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  MainWindow w;
  QTemporaryDir dir;
  auto* quiz = w.findChild<QuizPanel*>();
  ASSERT_NE(quiz, nullptr);
  quiz->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  QSignalSpy finished(&w, &MainWindow::lessonFinished);
  ASSERT_TRUE(w.runLesson(QStringLiteral("fsdp-shard-gather-free"), true));
  ASSERT_TRUE(quiz->hasPrediction());
  EXPECT_TRUE(w.flow().waitingForPrediction());
  EXPECT_TRUE(w.workspace()->message().contains(quiz->predictionQuestion())) << w.workspace()->message().toStdString();
  QTest::qWait(300);
  EXPECT_EQ(finished.count(), 0) << "nothing runs before the prediction";
  EXPECT_FALSE(quiz->savePrediction(QStringLiteral("lots"))); // not a value: still waiting
  EXPECT_TRUE(w.flow().waitingForPrediction());
  ASSERT_TRUE(quiz->savePrediction(QStringLiteral("560 KiB")));
  EXPECT_FALSE(w.flow().waitingForPrediction());
  ASSERT_TRUE(finished.wait(180000));
  EXPECT_TRUE(finished.at(0).at(0).toBool());
  QTest::qWait(200);
  EXPECT_FALSE(quiz->predictionResult().contains(QStringLiteral("Saved:")))
      << "the prediction is compared with the run: " << quiz->predictionResult().toStdString();
  // The guide stayed beside the run, and the next lesson is offered now that it ran.
  EXPECT_TRUE(w.findChild<QDockWidget*>(QStringLiteral("guide"))->isVisibleTo(&w));
  EXPECT_EQ(w.guidePanel()->lesson(), QStringLiteral("fsdp-shard-gather-free"));
  EXPECT_TRUE(w.guidePanel()->nextEnabled());
}

// The walk's start page (02, 67, 72) said "DDP · 4 ranks · 4 layers × 64" for a lesson the
// machine had sized to 2 ranks and hidden 128, as its guide said. Once sized, the list
// names the job as it will run here.
TEST(StartPage, TheListNamesTheJobAsItWillRunOnThisMachine) {
  auto catalog = LessonCatalog::load(LessonCatalog::assetsDirectory());
  StartPage page(catalog);
  auto* list = page.findChild<QListWidget*>();
  ASSERT_NE(list, nullptr);
  auto itemOf = [&](const QString& id) -> QString {
    for (int i = 0; i < list->count(); ++i)
      if (list->item(i)->data(Qt::UserRole).toString() == id) return list->item(i)->text();
    return {};
  };
  shardlab::Calibration machine; // a 2-core laptop, as in LessonCatalog.SizedForTheMachineWithTheLabsSettingsOnTop
  machine.cores = 2;
  machine.gemmFlopsPerSecond = 20e9;
  machine.handoffLatencySeconds = 20e-6;
  machine.collectiveBytesPerSecond = 2e9;
  catalog.sizeFor(machine);
  page.refresh(); // as the window does when the machine is known
  const Lesson* ddp = catalog.find(QStringLiteral("ddp-replicas"));
  ASSERT_NE(ddp, nullptr);
  ASSERT_TRUE(ddp->size) << "the DDP lesson is sized for this machine";
  ASSERT_TRUE(ddp->specs.first().ranks != 4 || ddp->specs.first().hidden != 64) << "not the written 4 ranks × 64";
  const QString shown = itemOf(QStringLiteral("ddp-replicas"));
  EXPECT_TRUE(shown.contains(describeJob(ddp->specs.first()))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QStringLiteral("%1 ranks").arg(ddp->specs.first().ranks))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QStringLiteral("× %1").arg(ddp->specs.first().hidden))) << shown.toStdString();
}

// A field that does not apply is greyed with its label; Run disabled by the form's
// errors says so in words (GUI walk 3: "Run does not look disabled", "inapplicable
// fields are not greyed").
TEST(ExperimentForm, InapplicableFieldsAreGreyedWithTheirLabelsAndRunSaysWhyItCannotRun) {
  ExperimentPanel form;
  shardlab::JobConfig ddp;
  ddp.strategy = shardlab::StrategyKind::Ddp;
  form.setConfig(ddp);
  auto* noSync = form.findChild<QCheckBox*>(QStringLiteral("noSync"));
  auto* paramDtype = form.findChild<QComboBox*>(QStringLiteral("paramDtype"));
  ASSERT_TRUE(noSync && paramDtype);
  // Both sit in a row of two fields: the row's label is the container's.
  const auto labelOf = [&](QWidget* field) {
    for (auto* layout : form.findChildren<QFormLayout*>())
      for (QWidget* w = field; w; w = w->parentWidget())
        if (auto* label = layout->labelForField(w)) return label;
    return static_cast<QWidget*>(nullptr);
  };
  ASSERT_TRUE(labelOf(paramDtype) && labelOf(noSync));
  EXPECT_FALSE(paramDtype->isEnabled()); // FSDP's mixed precision: not DDP's
  EXPECT_FALSE(labelOf(paramDtype)->isEnabled());
  EXPECT_TRUE(labelOf(noSync)->isEnabled());
  auto* run = [&] {
    for (auto* b : form.findChildren<QPushButton*>())
      if (b->text().startsWith(QStringLiteral("Run"))) return b;
    return static_cast<QPushButton*>(nullptr);
  }();
  ASSERT_TRUE(run);
  EXPECT_TRUE(run->isEnabled());
  EXPECT_EQ(run->text(), QStringLiteral("Run"));
  auto* budget = form.findChild<QLineEdit*>(QStringLiteral("memoryBudget"));
  ASSERT_TRUE(budget);
  budget->setText(QStringLiteral("3 bananas")); // not a size
  QCoreApplication::processEvents();
  ASSERT_FALSE(form.issues().empty());
  EXPECT_FALSE(run->isEnabled());
  EXPECT_TRUE(run->text().contains(QStringLiteral("fix the options"))) << run->text().toStdString();
}
