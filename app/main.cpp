// shardlab: the desktop app, and its command line for tests and docs:
//   shardlab                         the GUI (headless job when there is no display)
//   shardlab --lesson ID --screenshot FILE [--at F]
//   shardlab --open TRACE [--screenshot FILE] [--at F]
//   shardlab --benchmark [TRACE]     frames per second of rank view + timeline, offscreen
//   shardlab --headless              run the default FSDP job via shardlab-run, print its summary
//   shardlab --version
#include "AppSettings.h"
#include "JobRunner.h"
#include "JobSpec.h"
#include "LogPane.h"
#include "MainWindow.h"
#include "RankView.h"
#include "TimelineView.h"
#include "TraceModel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>

namespace {

void say(const QString& s) { std::fprintf(stderr, "%s\n", qPrintable(s)); }

int runHeadless(const QString& why) {
  say(QCoreApplication::translate("main", "shardlab: %1; running the default FSDP job headless with shardlab-run.").arg(why));
  JobSpec spec; // the default: FSDP on 2 CPU ranks
  const QString launcher = JobRunner::findLauncher();
  QProcess p;
  p.setProcessChannelMode(QProcess::ForwardedChannels);
  std::fprintf(stderr, "$ %s %s\n", qPrintable(launcher), qPrintable(spec.arguments().join(QLatin1Char(' '))));
  p.start(launcher, spec.arguments());
  if (!p.waitForStarted(10000)) {
    say(QCoreApplication::translate("main", "shardlab: cannot start %1: %2").arg(launcher, p.errorString()));
    return 4;
  }
  p.waitForFinished(-1);
  return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : 3;
}

int benchmark(const QString& tracePath) {
  TraceModel model;
  QElapsedTimer clock;
  clock.start();
  const QString err = model.loadFile(tracePath);
  const double loadMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  if (model.eventCount() == 0) {
    say(QCoreApplication::translate("main", "shardlab: benchmark needs a trace with events: %1").arg(err));
    return 1;
  }
  (void)model.summary();
  const double summaryMs = static_cast<double>(clock.nsecsElapsed()) / 1e6 - loadMs;
  RankView ranks(model);
  TimelineView timeline(model);
  ranks.resize(1920, 700);
  timeline.resize(1920, 380);
  ranks.modelReset();
  timeline.modelReset();
  QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
  const int frames = 120;
  clock.restart();
  for (int f = 0; f < frames; ++f) {
    const qint64 t = model.startTime() + (model.endTime() - model.startTime()) * f / frames;
    ranks.setTime(t);
    timeline.setTime(t);
    QPainter p(&image);
    ranks.render(&p);
    p.translate(0, 700);
    timeline.render(&p);
  }
  const double s = static_cast<double>(clock.nsecsElapsed()) / 1e9;
  std::printf("trace: %s\nevents: %d, ranks: %d\ntrace load: %.1f ms, summary: %.1f ms\n"
              "render (rank view + timeline, 1920x1080, offscreen): %.1f frames/s (%.2f ms/frame)\n",
              qPrintable(tracePath), model.eventCount(), model.rankCount(), loadMs, summaryMs, frames / s, s * 1000 / frames);
  return 0;
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
  AppSettings::apply(app);

  QCommandLineParser cli;
  cli.setApplicationDescription(QCoreApplication::translate("main", "ShardLab: watch real distributed training jobs."));
  cli.addHelpOption();
  cli.addVersionOption();
  QCommandLineOption lesson(QStringLiteral("lesson"), QCoreApplication::translate("main", "Run the lesson ID."), QStringLiteral("ID"));
  QCommandLineOption open(QStringLiteral("open"), QCoreApplication::translate("main", "Open a trace file."), QStringLiteral("TRACE"));
  QCommandLineOption shot(QStringLiteral("screenshot"), QCoreApplication::translate("main", "Save a PNG of the main window and exit."), QStringLiteral("FILE"));
  QCommandLineOption at(QStringLiteral("at"), QCoreApplication::translate("main", "Playhead position for the screenshot, 0..1."), QStringLiteral("FRACTION"), QStringLiteral("0.35"));
  QCommandLineOption bench(QStringLiteral("benchmark"), QCoreApplication::translate("main", "Render a large trace offscreen and print frames per second."));
  QCommandLineOption headless(QStringLiteral("headless"), QCoreApplication::translate("main", "Run the default FSDP job without a window."));
  QCommandLineOption tab(QStringLiteral("tab"), QCoreApplication::translate("main", "View to show: ranks, pipeline, plots, summary."), QStringLiteral("NAME"));
  cli.addOptions({lesson, open, shot, at, bench, headless, tab});
  cli.addPositionalArgument(QStringLiteral("trace"), QCoreApplication::translate("main", "Trace for --benchmark."));
  cli.process(app);

  if (cli.isSet(bench)) {
    QString path = cli.positionalArguments().value(0, cli.value(open));
    if (path.isEmpty()) {
      say(QCoreApplication::translate("main", "shardlab --benchmark TRACE: give a trace recorded by shardlab-run --trace."));
      return 2;
    }
    return benchmark(path);
  }
  const QString platform = QGuiApplication::platformName();
  const bool cliAction = cli.isSet(shot) || cli.isSet(lesson) || cli.isSet(open);
  if (cli.isSet(headless)) return runHeadless(QCoreApplication::translate("main", "--headless was given"));
  if (!cli.isSet(shot) && (noDisplay || platform == QLatin1String("offscreen") || platform == QLatin1String("minimal")))
    return runHeadless(noDisplay ? QCoreApplication::translate("main", "no display (DISPLAY and WAYLAND_DISPLAY are unset)")
                                 : QCoreApplication::translate("main", "the Qt platform is '%1', which shows no window").arg(platform));
  (void)cliAction;

  MainWindow w;
  w.resize(1600, 1000);
  const double fraction = cli.value(at).toDouble();
  auto selectTab = [&] {
    if (!cli.isSet(tab)) return;
    auto* tabs = w.findChild<QTabWidget*>();
    const QStringList names{QStringLiteral("ranks"), QStringLiteral("pipeline"), QStringLiteral("plots"), QStringLiteral("summary")};
    if (tabs && names.contains(cli.value(tab))) tabs->setCurrentIndex(static_cast<int>(names.indexOf(cli.value(tab))));
  };
  auto screenshot = [&]() -> int {
    w.playback().pause();
    w.playback().setFollowLive(false);
    w.refreshViews();
    selectTab();
    w.playback().setFraction(fraction);
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
