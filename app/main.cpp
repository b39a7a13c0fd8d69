// shardlab: the desktop app, and its command line for tests and docs:
//   shardlab                         the GUI (headless job when there is no display)
//   shardlab --lesson ID --screenshot FILE [--at F]
//   shardlab --open TRACE [--screenshot FILE] [--at F]
//   shardlab --lab FILE [--screenshot FILE]   (with --screenshot: runs the lab's first step, then saves)
//   shardlab --headless              run the default FSDP job via shardlab-run, print its summary
//   shardlab --version
// The environment variable SHARDLAB_LEARNER names the learner for this run (no first-start question).
#include "models/AppSettings.h"
#include "views/Appearance.h"
#include "job/ExitCodes.h"
#include "models/JobRunner.h"
#include "models/LessonCatalog.h"
#include "models/QuizController.h"
#include "views/ExperimentPanel.h"
#include "views/LearnerDialogs.h"
#include "views/LabPanel.h"
#include "views/LogPane.h"
#include "window/MainWindow.h"
#include "views/WorkspacePage.h"
#include "views/QuizPanel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QGuiApplication>
#include <QMessageBox>
#include <QProcess>
#include <QTimer>

#include <algorithm>
#include <cstdio>

using namespace shardlab::app;

namespace {

void say(const QString& s) { std::fprintf(stderr, "%s\n", qPrintable(s)); }

int runHeadless(const QString& why) {
  say(QCoreApplication::translate("main", "shardlab: %1; running the default FSDP job headless with shardlab-run.").arg(why));
  // Without options shardlab-run runs the default JobConfig: the default FSDP job.
  const QString launcher = JobRunner::findLauncher();
  QProcess p;
  p.setProcessChannelMode(QProcess::ForwardedChannels);
  std::fprintf(stderr, "$ %s\n", qPrintable(launcher));
  p.start(launcher, QStringList());
  if (!p.waitForStarted(10000)) {
    say(QCoreApplication::translate("main", "shardlab: cannot start %1: %2").arg(launcher, p.errorString()));
    return shardlab::code(shardlab::LauncherExit::MissingTool);
  }
  p.waitForFinished(-1);
  // The launcher's own status; a crashed launcher counts as a failed run.
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : shardlab::code(shardlab::LauncherExit::RankFailed);
}

} // namespace

int main(int argc, char** argv) {
  // No display at all: pick the offscreen platform instead of aborting in xcb.
  const bool noDisplay = qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
                         qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
  if (noDisplay) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("ShardLab"));
  QCoreApplication::setApplicationName(QStringLiteral("shardlab"));
  QCoreApplication::setApplicationVersion(QStringLiteral(SHARDLAB_VERSION));
  Appearance::apply(app);
  AppSettings::applyLanguage(app);

  QCommandLineParser cli;
  cli.setApplicationDescription(QCoreApplication::translate("main", "ShardLab: watch real distributed training jobs."));
  cli.addHelpOption();
  cli.addVersionOption();
  QCommandLineOption lesson(QStringLiteral("lesson"), QCoreApplication::translate("main", "Run the lesson ID."), QStringLiteral("ID"));
  QCommandLineOption labFile(QStringLiteral("lab"), QCoreApplication::translate("main", "Open the lab FILE (its steps in the Lab panel)."), QStringLiteral("FILE"));
  QCommandLineOption open(QStringLiteral("open"), QCoreApplication::translate("main", "Open a trace file."), QStringLiteral("TRACE"));
  QCommandLineOption shot(QStringLiteral("screenshot"), QCoreApplication::translate("main", "Save a PNG of the main window and exit."), QStringLiteral("FILE"));
  QCommandLineOption at(QStringLiteral("at"), QCoreApplication::translate("main", "Playhead position for the screenshot, 0..1."), QStringLiteral("FRACTION"), QStringLiteral("0.35"));
  QCommandLineOption headless(QStringLiteral("headless"), QCoreApplication::translate("main", "Run the default FSDP job without a window."));
  QCommandLineOption tab(QStringLiteral("tab"), QCoreApplication::translate("main", "View to show: ranks, both, pipeline, plots, compare, summary, ledger, quiz."), QStringLiteral("NAME"));
  QCommandLineOption lang(QStringLiteral("lang"), QCoreApplication::translate("main", "Interface language for this run: en, fr, ru."), QStringLiteral("CODE"));
  QCommandLineOption size(QStringLiteral("size"), QCoreApplication::translate("main", "Window size, e.g. 1600x1000."), QStringLiteral("WxH"), QStringLiteral("1600x1000"));
  QCommandLineOption theme(QStringLiteral("theme"), QCoreApplication::translate("main", "Theme for this run: light, dark."), QStringLiteral("NAME"));
  QCommandLineOption present(QStringLiteral("presentation"), QCoreApplication::translate("main", "Presentation mode (large text) for this run."));
  QCommandLineOption show(QStringLiteral("show"),
                          QCoreApplication::translate("main", "What the views show: measured, schedule-alone or projected (replays of the run)."),
                          QStringLiteral("WHAT"), QStringLiteral("measured"));
  cli.addOptions({lesson, labFile, open, shot, at, headless, tab, lang, size, theme, present, show});
  cli.process(app);
  if (cli.isSet(lang)) {
    AppSettings::setLanguageOverride(cli.value(lang));
    if (!AppSettings::applyLanguage(app)) say(QStringLiteral("shardlab: no translation for '%1'").arg(cli.value(lang)));
  }
  if (cli.isSet(theme) || cli.isSet(present)) {
    AppSettings::setOverrides(cli.isSet(theme) ? cli.value(theme) : QString(), cli.isSet(present));
    Appearance::apply(app);
  }

  const QString platform = QGuiApplication::platformName();
  if (cli.isSet(headless)) return runHeadless(QCoreApplication::translate("main", "--headless was given"));
  if (!cli.isSet(shot) && (noDisplay || platform == QLatin1String("offscreen") || platform == QLatin1String("minimal")))
    return runHeadless(noDisplay ? QCoreApplication::translate("main", "no display (DISPLAY and WAYLAND_DISPLAY are unset)")
                                 : QCoreApplication::translate("main", "the Qt platform is '%1', which shows no window").arg(platform));

  // First start: whose progress is this? (Screenshots and SHARDLAB_LEARNER skip the question;
  // a cancelled dialog records for the unnamed learner and asks again at the next start.)
  if (!cli.isSet(shot) && !AppSettings::learnerAsked())
    if (const auto name = LearnerDialogs::askName(nullptr, QString())) AppSettings::setLearner(*name);
  // A damaged install is named before any view needs a question's sentence.
  if (const QString problem = QuizController::useSentences(LessonCatalog::assetsDirectory()); !problem.isEmpty()) {
    const QString text = QCoreApplication::translate("main", "shardlab: the quiz's sentences could not be loaded: %1").arg(problem);
    say(text);
    if (!cli.isSet(shot) && QGuiApplication::platformName() != QLatin1String("offscreen"))
      QMessageBox::critical(nullptr, QStringLiteral("ShardLab"), text);
    return 2;
  }
  MainWindow w;
  if (AppSettings::presentation()) w.setPresentationLayout(true);
  {
    const QStringList wh = cli.value(size).split(QLatin1Char('x'));
    const int width = wh.value(0).toInt(), height = wh.value(1).toInt();
    w.resize(width > 0 ? width : 1600, height > 0 ? height : 1000);
  }
  const double fraction = cli.value(at).toDouble();
  // --tab quiz: the Quiz dock on the first question about the run, answered, with its evidence shown.
  const bool quizTab = cli.value(tab) == QLatin1String("quiz");
  auto showQuiz = [&] {
    auto* quiz = w.quizPanel();
    if (!w.presentationLayout()) quiz->parentWidget()->setMinimumWidth(460); // the dock; the overlay has its own width
    w.showQuiz();
    // Room for the question and its evidence: the experiment form is not what this view is about.
    w.experimentPanel()->parentWidget()->hide();
    quiz->showQuestion(std::max(0, quiz->firstObservation()));
    quiz->answer(std::max(0, quiz->correctShown()));
    quiz->showMe();
  };
  auto selectTab = [&] {
    if (!cli.isSet(tab)) return;
    if (quizTab) return showQuiz();
    if (!w.workspace()->showView(cli.value(tab))) say(QCoreApplication::translate("main", "shardlab: no view '%1'").arg(cli.value(tab)));
  };
  std::optional<std::optional<shardlab::trace::ReplayMode>> shown;
  if (cli.value(show) == QLatin1String("measured")) shown = std::optional<shardlab::trace::ReplayMode>();
  else if (cli.value(show) == QLatin1String("schedule-alone")) shown = shardlab::trace::ReplayMode::ScheduleAlone;
  else if (cli.value(show) == QLatin1String("projected")) shown = shardlab::trace::ReplayMode::Reference;
  if (!shown) {
    say(QCoreApplication::translate("main", "shardlab: --show must be measured, schedule-alone or projected (got '%1')")
            .arg(cli.value(show)));
    return 2;
  }
  auto screenshot = [&]() -> int {
    w.playback().pause();
    w.playback().setFollowLive(false);
    w.workspace()->showRun(*shown);
    w.workspace()->refreshViews();
    // A hung or failed run opens on its last moments, unless --at says where.
    if (!quizTab && (cli.isSet(at) || !w.workspace()->showEnding())) w.playback().setFraction(fraction);
    selectTab();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    const QString file = cli.value(shot);
    if (!w.grab().save(file, "PNG")) {
      say(QCoreApplication::translate("main", "shardlab: cannot write %1").arg(file));
      return 1;
    }
    std::printf("%s\n", qPrintable(file));
    return 0;
  };
  // Before the window shows: a lab that is not valid is reported here, not in a dialog.
  if (cli.isSet(labFile) && !w.openLabFile(cli.value(labFile))) {
    say(QStringLiteral("shardlab: %1\n%2").arg(w.workspace()->message(), w.logPane()->text()));
    return 2;
  }
  w.show();
  if (cli.isSet(open)) {
    const QString err = w.openTrace(cli.value(open));
    if (cli.isSet(shot)) {
      if (!err.isEmpty() && w.model().eventCount() == 0) {
        say(QStringLiteral("shardlab: %1").arg(err));
        return 1;
      }
      if (!err.isEmpty()) say(QStringLiteral("shardlab: %1").arg(err));
      return screenshot();
    }
  }
  if (cli.isSet(labFile)) {
    if (cli.isSet(shot)) {
      // A lab in progress: its first step run, its notes and steps beside the run.
      int rc = 1;
      QObject::connect(&w, &MainWindow::lessonFinished, &app, [&](bool ok, const QString& text) {
        if (!ok) say(QStringLiteral("shardlab: %1\n%2").arg(text, w.logPane()->text()));
        rc = screenshot();
        if (!ok) rc = 3;
        app.exit(rc);
      });
      QTimer::singleShot(0, &w, [&] { w.runLesson(w.labPanel()->lessonOf(w.labPanel()->currentStep())); });
      app.exec();
      return rc;
    }
  }
  if (cli.isSet(lesson)) {
    if (!w.catalog().find(cli.value(lesson))) {
      say(QCoreApplication::translate("main", "shardlab: no lesson '%1'").arg(cli.value(lesson)));
      return 2;
    }
    if (cli.isSet(shot)) {
      int rc = 1;
      QObject::connect(&w, &MainWindow::lessonFinished, &app, [&](bool ok, const QString& text) {
        if (!ok) say(QStringLiteral("shardlab: %1\n%2").arg(text, w.logPane()->text()));
        rc = screenshot();
        if (!ok) rc = 3;
        app.exit(rc);
      });
      QTimer::singleShot(0, &w, [&] { w.runLesson(cli.value(lesson)); });
      app.exec();
      return rc;
    }
    QTimer::singleShot(0, &w, [&] { w.runLesson(cli.value(lesson)); });
  } else if (cli.isSet(shot)) {
    return screenshot();
  }
  return app.exec();
}
