// shardlab-bench-app TRACE: how fast the app shows a large trace, offscreen. Prints
// the trace's load and summary times, frames per second of the rank view and the
// timeline (1920x1080), the time to scrub to far-apart times, and the worst and p99
// UI stall while a shown MainWindow is fed the trace's lines at 50,000 events/s in
// 30 ms batches (as JobRunner hands them over). docs/app.md, "Performance".
#include "window/MainWindow.h"
#include "models/TraceModel.h"
#include "views/RankView.h"
#include "views/TimelineView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace shardlab::app;

namespace {

// Streams the trace's lines into a shown MainWindow at `rate` events/s in batches
// every 30 ms (as JobRunner hands them over) for `seconds`, while a 4 ms timer
// measures how late the event loop serves it: the worst lateness is the UI stall.
struct StreamResult {
  int lines = 0;
  double maxStallMs = 0, p99StallMs = 0, seconds = 0;
};

StreamResult streamBenchmark(const QList<QByteArray>& lines, int rate, double seconds) {
  MainWindow w;
  w.resize(1600, 1000);
  w.show();
  w.showWorkspace();
  w.playback().setLive(true);
  w.playback().setFollowLive(true);
  QCoreApplication::processEvents();
  StreamResult r;
  QElapsedTimer clock;
  clock.start();
  qint64 lastTick = 0;
  std::vector<double> lateness;
  QTimer probe;
  probe.setTimerType(Qt::PreciseTimer);
  probe.setInterval(4);
  QObject::connect(&probe, &QTimer::timeout, [&] {
    const qint64 now = clock.nsecsElapsed();
    if (lastTick > 0) lateness.push_back(std::max(0.0, static_cast<double>(now - lastTick) / 1e6 - 4.0));
    lastTick = now;
  });
  QTimer feed;
  feed.setTimerType(Qt::PreciseTimer);
  feed.setInterval(30);
  int next = 0;
  QEventLoop loop;
  QObject::connect(&feed, &QTimer::timeout, [&] {
    const double elapsed = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    const int due = std::min(static_cast<int>(lines.size()), static_cast<int>(elapsed * rate));
    if (due > next) {
      w.model().appendLines(lines.mid(next, due - next));
      next = due;
    }
    if (elapsed >= seconds || next >= lines.size()) loop.quit();
  });
  probe.start();
  feed.start();
  loop.exec();
  r.seconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
  r.lines = next;
  std::sort(lateness.begin(), lateness.end());
  if (!lateness.empty()) {
    r.maxStallMs = lateness.back();
    r.p99StallMs = lateness[static_cast<std::size_t>(static_cast<double>(lateness.size() - 1) * 0.99)];
  }
  return r;
}

int benchmark(const QString& tracePath) {
  TraceModel model;
  QElapsedTimer clock;
  clock.start();
  const QString err = model.loadFile(tracePath);
  const double loadMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  if (model.eventCount() == 0) {
    std::fprintf(stderr, "shardlab-bench-app: the trace has no events: %s\n", qPrintable(err));
    return 1;
  }
  clock.restart();
  (void)model.summary();
  const double summaryMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
  RankView ranks(model);
  TimelineView timeline(model);
  ranks.resize(1920, 700);
  timeline.resize(1920, 380);
  ranks.modelReset();
  timeline.modelReset();
  QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
  auto frame = [&](qint64 t) {
    ranks.setTime(t);
    timeline.setTime(t);
    QPainter p(&image);
    ranks.render(&p);
    p.translate(0, 700);
    timeline.render(&p);
  };
  const qint64 t0 = model.startTime(), span = std::max<qint64>(1, model.endTime() - model.startTime());
  // Playback: consecutive frames moving forward (what play does).
  const int frames = 120;
  clock.restart();
  for (int f = 0; f < frames; ++f) frame(t0 + span * f / frames);
  const double s = static_cast<double>(clock.nsecsElapsed()) / 1e9;
  // Scrubbing: jumps to far-apart times, backwards and forwards (a dragged slider, Home/End).
  const int jumps = 40;
  double worstScrubMs = 0, totalScrubMs = 0;
  for (int k = 0; k < jumps; ++k) {
    const qint64 t = t0 + span * ((k * 7919) % jumps) / jumps;
    clock.restart();
    frame(t);
    const double ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    worstScrubMs = std::max(worstScrubMs, ms);
    totalScrubMs += ms;
  }
  std::printf("trace: %s\nevents: %d, ranks: %d\ntrace load: %.1f ms, summary: %.1f ms\n"
              "render (rank view + timeline, 1920x1080, offscreen): %.1f frames/s (%.2f ms/frame)\n"
              "scrub (jump to a far time and draw both views): mean %.2f ms, worst %.2f ms\n",
              qPrintable(tracePath), model.eventCount(), model.rankCount(), loadMs, summaryMs, frames / s, s * 1000 / frames,
              totalScrubMs / jumps, worstScrubMs);
  std::fflush(stdout);
  // Live streaming into the whole window at 50,000 events/s.
  QFile f(tracePath);
  if (f.open(QIODevice::ReadOnly)) {
    QList<QByteArray> lines;
    while (!f.atEnd()) {
      QByteArray line = f.readLine();
      if (line.endsWith('\n')) line.chop(1);
      if (!line.isEmpty()) lines << line;
    }
    const auto r = streamBenchmark(lines, 50000, 6.0);
    std::printf("streaming %d lines in %.1f s (50,000 events/s, 30 ms batches) into the shown window: "
                "UI stall max %.1f ms, p99 %.1f ms\n",
                r.lines, r.seconds, r.maxStallMs, r.p99StallMs);
  }
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: shardlab-bench-app TRACE (a trace recorded by shardlab-run --trace)\n");
    return 2;
  }
  return benchmark(QString::fromLocal8Bit(argv[1]));
}
