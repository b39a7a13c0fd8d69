// One number, one meaning: for a real run of every lesson, each pane that
// shows the bubble, the step time, exposed communication, persistent or peak memory or
// the bytes on the wire shows the same value, to its printed precision: the launcher's
// summary (its table and --summary-json, the app's log), the app's own summary of the
// trace file, the Summary tab, the Pipeline header, Compare runs' figures, the
// prediction check and the lesson's own check. Each lesson's runs are its written jobs,
// cut to 3 steps (the bubble's steady steps are steps 1 and 2), on the real mpirun.
#include "window/MainWindow.h"
#include "models/Format.h"
#include "views/WorkspacePage.h"
#include "models/JobRunner.h"
#include "models/Captions.h"
#include "models/LessonCatalog.h"
#include "models/MemoryLedger.h"
#include "models/RunFigures.h"
#include "models/TraceModel.h"
#include "views/PipelineView.h"
#include "views/SummaryView.h"

#include "quiz/observations/EvidenceMoment.h"
#include "quiz/observations/LessonCheck.h"
#include "quiz/observations/PredictionCheck.h"
#include "quiz/observations/ObservationText.h"
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QLocale>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>

using namespace shardlab::app;

namespace st = shardlab::trace;

namespace {

struct RecordedRun {
  QString trace;
  nlohmann::json launcherSummary; // --summary-json
  QString launcherTable;          // what the log shows: shardlab-run's table
};

// One real run of `job` (3 steps), its trace and the launcher's own summary of it.
std::optional<RecordedRun> record(const shardlab::JobConfig& job, const QTemporaryDir& dir, const QString& name) {
  auto spec = job.toJson();
  spec["steps"] = 3;
  const QString specFile = dir.filePath(name + QStringLiteral(".spec.json"));
  std::ofstream(specFile.toStdString()) << spec.dump();
  RecordedRun run;
  run.trace = dir.filePath(name + QStringLiteral(".trace"));
  const QString summaryFile = dir.filePath(name + QStringLiteral(".summary.json"));
  QProcess p;
  p.start(JobRunner::findLauncher(), {QStringLiteral("--spec"), specFile, QStringLiteral("--trace"), run.trace,
                                      QStringLiteral("--summary-json"), summaryFile});
  if (!p.waitForFinished(240000)) return std::nullopt;
  // 0: finished; 3: a rank failed (the out-of-memory lesson's DDP run, on purpose).
  if (p.exitCode() != 0 && p.exitCode() != 3) {
    ADD_FAILURE() << name.toStdString() << ": " << p.readAllStandardError().toStdString();
    return std::nullopt;
  }
  run.launcherTable = QString::fromUtf8(p.readAllStandardOutput());
  std::ifstream in(summaryFile.toStdString());
  run.launcherSummary = nlohmann::json::parse(in, nullptr, false);
  return run;
}

QString percent1(double f) { return QLocale().toString(f * 100.0, 'f', 1); }
QString fixed3(double f) { return QString::asprintf("%.3f", f); }

// The figures of one run, checked pane by pane against the app's summary of the trace.
void expectPanesAgree(const QString& lesson, const RecordedRun& run, MainWindow& w) {
  SCOPED_TRACE(lesson.toStdString() + " " + QFileInfo(run.trace).fileName().toStdString());
  const QString opened = w.openTrace(run.trace);
  ASSERT_TRUE(opened.isEmpty()) << opened.toStdString();
  const TraceModel& model = w.model();
  const st::Summary s = st::summarize(model.measured());
  const auto& j = run.launcherSummary;
  ASSERT_TRUE(j.is_object());

  // Step time: one definition (steady steps, slowest rank), in the launcher's JSON and
  // table, and in Compare runs.
  const RunFigures figures = runFigures(model);
  EXPECT_NEAR(j["step_time_s"].get<double>(), s.stepTimeS, 1e-9);
  EXPECT_TRUE(run.launcherTable.contains(QString::asprintf("step time: %.4f s", s.stepTimeS))) << run.launcherTable.toStdString();
  EXPECT_NEAR(figures.stepS, s.stepTimeS, 1e-12);

  // Persistent and peak memory, exposed communication and the bytes each rank sent: the
  // Summary tab's row of each rank says what the launcher's summary says.
  const QString summaryHtml = SummaryView::html(model);
  std::int64_t peak = 0, persistent = 0;
  double exposedMean = 0;
  ASSERT_EQ(j["ranks_detail"].size(), s.ranksDetail.size());
  for (const auto& r : s.ranksDetail) {
    const auto& jr = j["ranks_detail"][static_cast<std::size_t>(r.rank)];
    EXPECT_EQ(jr["persistent_bytes"].get<std::int64_t>(), r.persistentBytes) << "rank " << r.rank;
    EXPECT_EQ(jr["peak_bytes"].get<std::int64_t>(), r.peakBytes) << "rank " << r.rank;
    EXPECT_NEAR(jr["exposed_comm_s"].get<double>(), r.exposedCommS, 1e-9) << "rank " << r.rank;
    const QString row = QStringLiteral("<td>%1</td><td>%2</td>").arg(Format::bytes(r.persistentBytes), Format::bytes(r.peakBytes));
    EXPECT_TRUE(summaryHtml.contains(row)) << "rank " << r.rank << ": " << row.toStdString();
    EXPECT_TRUE(summaryHtml.contains(SummaryView::wireBytes(r.sentBytes, r.measuredSentBytes))) << "rank " << r.rank;
    EXPECT_TRUE(summaryHtml.contains(Format::duration(static_cast<qint64>(r.exposedCommS * 1e9)))) << "rank " << r.rank;
    peak = std::max(peak, r.peakBytes);
    persistent = std::max(persistent, r.persistentBytes);
    exposedMean += r.exposedCommS / static_cast<double>(s.ranksDetail.size());
  }
  // The Memory ledger measures what the summary measured: each rank's persistent bytes
  // at its last completed step (a run that stopped out of memory is measured when it stopped).
  if (!s.outOfMemory && s.stepsCompleted > 0) {
    for (const auto& r : s.ranksDetail) {
      const Ledger ledger = memoryLedger(model, r.rank);
      if (!ledger.lines.empty()) {
        EXPECT_EQ(ledger.measuredPersistent(), r.persistentBytes) << "ledger, rank " << r.rank;
      }
    }
  }
  // Compare runs: the highest rank's memory, the mean over ranks of exposed communication.
  EXPECT_EQ(figures.peakBytes, peak);
  EXPECT_EQ(figures.persistentBytes, persistent);
  EXPECT_NEAR(figures.exposedCommS, exposedMean, 1e-12);

  // Bytes on the wire per collective: the launcher's modelled and measured figures, and
  // the Summary tab's.
  for (const auto& [kind, c] : s.collectives) {
    const auto& jc = j["collectives"][kind];
    EXPECT_EQ(jc["wire_bytes"].get<std::int64_t>(), c.wireBytes) << kind;
    EXPECT_EQ(jc["measured_wire_bytes"].is_null(), !c.measuredWireBytes.has_value()) << kind;
    if (c.measuredWireBytes) {
      EXPECT_EQ(jc["measured_wire_bytes"].get<std::int64_t>(), *c.measuredWireBytes) << kind;
    }
    EXPECT_TRUE(summaryHtml.contains(SummaryView::wireBytes(c.wireBytes, c.measuredWireBytes))) << kind;
  }

  if (!s.bubble.present) return;
  // The bubble: the launcher's JSON, its table (the log), the Summary tab, the Pipeline
  // header, Compare runs, the breakdown and the naive run's prediction check.
  const double b = s.bubble.measured;
  EXPECT_EQ(fixed3(j["bubble"]["measured"].get<double>()), fixed3(b));
  EXPECT_TRUE(run.launcherTable.contains(QStringLiteral("measured %1, theory").arg(fixed3(b)))) << run.launcherTable.toStdString();
  EXPECT_TRUE(summaryHtml.contains(QStringLiteral("measured %1%").arg(percent1(b)))) << summaryHtml.toStdString();
  const QFontMetricsF fm(w.workspace()->pipelineView()->font());
  const QString header = w.workspace()->pipelineView()->bubbleLine(fm, 1280 - 16);
  EXPECT_TRUE(header.contains(percent1(b) + QStringLiteral("% measured"))) << header.toStdString();
  ASSERT_TRUE(figures.bubble);
  EXPECT_EQ(percent1(*figures.bubble), percent1(b));
  if (s.stepsCompleted >= 2) {
    ASSERT_TRUE(s.replay.breakdown);
    EXPECT_DOUBLE_EQ(s.replay.breakdown->measured, b);
    EXPECT_EQ(fixed3(j["replay"]["bubble_breakdown"]["measured"].get<double>()), fixed3(b));
  }
  // "Show me" on the bubble: one stage's idle share, and beside it the run's bubble.
  if (const auto moment = shardlab::quiz::findMoment(model.measured(), s, "bubble")) {
    const std::string en = moment->sentence.get("en");
    EXPECT_NE(en.find("the run's bubble, all stages together, is " + shardlab::quiz::text::percent(b)), std::string::npos) << en;
  }
  if (s.bubble.schedule == "naive") {
    const auto m = shardlab::quiz::measurePrediction("naive-bubble", model.measured());
    ASSERT_TRUE(m);
    EXPECT_EQ(percent1(m->actual / 100.0), percent1(b));
  }
}

} // namespace

TEST(PaneAgreement, EveryLessonsRunShowsOneValuePerFigureInEveryPane) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  const LessonCatalog catalog = LessonCatalog::load();
  ASSERT_GE(catalog.lessons().size(), 13);
  QTemporaryDir dir;
  MainWindow w;
  w.resize(1280, 720);
  int traces = 0;
  for (const Lesson& lesson : catalog.lessons()) {
    std::vector<RecordedRun> runs;
    for (qsizetype i = 0; i < lesson.specs.size(); ++i)
      if (auto run = record(lesson.specs[i], dir, lesson.id + QString::number(i))) runs.push_back(*run);
    ASSERT_EQ(static_cast<qsizetype>(runs.size()), lesson.specs.size()) << lesson.id.toStdString();
    for (const auto& run : runs) {
      expectPanesAgree(lesson.id, run, w);
      ++traces;
    }
    // The lesson's own check reads the same summaries: its measured bubble is the one above.
    std::vector<st::Trace> read;
    std::vector<st::Summary> summaries;
    for (const auto& run : runs) read.push_back(st::readTraceFile(run.trace.toStdString()).trace);
    for (const auto& t : read) summaries.push_back(st::summarize(t));
    std::vector<shardlab::quiz::CheckedRun> checked;
    for (std::size_t i = 0; i < read.size(); ++i) checked.push_back({&read[i], &summaries[i], ""});
    const auto check = shardlab::quiz::checkLesson(lesson.id.toStdString(), checked, {});
    ASSERT_TRUE(check) << lesson.id.toStdString();
    for (const auto& s : summaries)
      if (s.bubble.present && s.bubble.schedule == "gpipe") {
        EXPECT_EQ(check->measured.substr(0, 5), shardlab::quiz::text::fixed(s.bubble.measured, 3)) << lesson.id.toStdString();
      }
  }
  EXPECT_GE(traces, 13);
}
