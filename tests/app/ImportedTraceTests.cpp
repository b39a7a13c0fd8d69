// The app on a PyTorch profiler trace (tests/data/pytorch, recorded by
// scripts/record-pytorch-trace: DDP and FSDP2 on 2 CPU ranks, gloo): File → Open reads
// it, every pane that can show it does, and the app says what it is and what it lacks.
#include "window/MainWindow.h"
#include "models/MemoryLedger.h"
#include "models/MemoryStateModel.h"
#include "models/TraceModel.h"
#include "models/TraceOpening.h"
#include "views/LedgerView.h"
#include "views/LogPane.h"
#include "views/PlotsView.h"
#include "views/RankView.h"
#include "views/SummaryView.h"
#include "views/TimelineView.h"
#include "views/WorkspacePage.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QWidget>

#include <gtest/gtest.h>

using namespace shardlab::app;

namespace st = shardlab::trace;

namespace {

QString fixture(const char* strategy) {
  return QDir(QStringLiteral(SHARDLAB_APP_TEST_DATA "/../../data/pytorch")).absoluteFilePath(QString::fromLatin1(strategy));
}

class ImportedTrace : public ::testing::TestWithParam<const char*> {};

} // namespace

TEST_P(ImportedTrace, OpensInTheWindowLabelledAsImportedOnCpuRanks) {
  MainWindow w;
  w.resize(1400, 900);
  const QString err = w.openTrace(fixture(GetParam()));
  ASSERT_TRUE(err.isEmpty()) << err.toStdString();
  const TraceModel& m = w.model();
  ASSERT_TRUE(m.imported());
  EXPECT_EQ(m.rankCount(), 2);
  // What the trace recorded: CPU ranks, gloo. Never called a GPU.
  const QString label = m.runLabel();
  EXPECT_TRUE(label.contains(QStringLiteral("Imported from a PyTorch profiler trace"))) << label.toStdString();
  EXPECT_TRUE(label.contains(QStringLiteral("2 CPU ranks"))) << label.toStdString();
  EXPECT_TRUE(label.contains(QStringLiteral("gloo"))) << label.toStdString();
  EXPECT_FALSE(label.contains(QStringLiteral("GPU"))) << label.toStdString();
  for (int r = 0; r < 2; ++r) EXPECT_EQ(m.rankLabel(r), QStringLiteral("CPU rank %1").arg(r));
  // The message names the panes that have nothing from such a trace.
  const QString message = w.workspace()->message();
  for (const char* pane : {"Pipeline", "loss", "replay", "Memory ledger"})
    EXPECT_TRUE(message.contains(QLatin1String(pane))) << pane << ": " << message.toStdString();
  EXPECT_TRUE(message.contains(QStringLiteral("3 step"))) << message.toStdString();
  // The log lists what the importer did not map.
  EXPECT_TRUE(w.logPane()->text().contains(QStringLiteral("not mapped"))) << w.logPane()->text().toStdString();
  // No replay of it: the switch is off and says why; asking for one keeps the measured run.
  const auto* shown = w.workspace()->findChild<QWidget*>(QStringLiteral("shownSwitch"));
  ASSERT_NE(shown, nullptr);
  EXPECT_FALSE(shown->isEnabled());
  EXPECT_TRUE(shown->toolTip().contains(QStringLiteral("not replayed"))) << shown->toolTip().toStdString();
  w.workspace()->showRun(st::ReplayMode::ScheduleAlone);
  EXPECT_FALSE(w.model().replayMode().has_value());
  // Every pane paints it (the rank cards, the timeline, plots, summary, ledger).
  w.show();
  for (const QString& tab : {QStringLiteral("ranks"), QStringLiteral("plots"), QStringLiteral("summary"),
                            QStringLiteral("ledger"), QStringLiteral("pipeline")}) {
    ASSERT_TRUE(w.workspace()->showView(tab)) << tab.toStdString();
    const QImage shot = w.grab().toImage();
    EXPECT_FALSE(shot.isNull()) << tab.toStdString();
  }
}

TEST_P(ImportedTrace, MemoryIsOneUncategorisedTotalInTheRankViewAndTheLedger) {
  TraceModel m;
  TraceOpening opened = TraceOpening::read(fixture(GetParam()));
  ASSERT_TRUE(opened.problem.isEmpty()) << opened.problem.toStdString();
  ASSERT_TRUE(opened.imported.has_value());
  m.setTrace(std::move(opened.trace));
  const auto& detail = m.summary().ranksDetail;
  ASSERT_EQ(detail.size(), 2u);
  const MemoryStateModel state(m);
  for (int r = 0; r < 2; ++r) {
    // What the rank view's bar stacks: all of it in Unknown, at the profiler's totals.
    qint64 largest = 0;
    for (int i : m.memoryRecords(r)) {
      const auto held = state.memoryAt(r, m.event(i).t0);
      qint64 sum = 0;
      for (auto b : held) sum += b;
      EXPECT_EQ(sum, held[static_cast<std::size_t>(st::Category::Unknown)]);
      largest = std::max(largest, sum);
    }
    EXPECT_EQ(largest, detail[static_cast<std::size_t>(r)].peakBytes) << "rank " << r;
    // The ledger: no Ψ arithmetic (no model size in the trace), the total at a step's end and its peak.
    const Ledger ledger = memoryLedger(m, r);
    EXPECT_TRUE(ledger.imported);
    EXPECT_FALSE(ledger.applies);
    ASSERT_EQ(ledger.lines.size(), 2u);
    for (const auto& l : ledger.lines) {
      EXPECT_EQ(l.category, st::Category::Unknown);
      EXPECT_FALSE(l.formulaBytes.has_value());
    }
    EXPECT_TRUE(ledger.lines[0].persistent);
    EXPECT_GT(ledger.lines[0].measured, 0);
    EXPECT_LE(ledger.lines[0].measured, ledger.lines[1].measured);
    EXPECT_EQ(ledger.lines[1].measured, detail[static_cast<std::size_t>(r)].peakBytes);
    const QString html = LedgerView::html(m, r);
    if (r == 0) {
      const QString summary = SummaryView::html(m);
      EXPECT_TRUE(summary.contains(QStringLiteral("neither the parameters nor the loss"))) << summary.toStdString();
      EXPECT_FALSE(summary.contains(QStringLiteral("0 parameters"))) << summary.toStdString();
    }
    EXPECT_TRUE(html.contains(QStringLiteral("uncategorised"))) << html.toStdString();
    EXPECT_FALSE(html.contains(QStringLiteral("ZeRO"))) << html.toStdString();
  }
}

INSTANTIATE_TEST_SUITE_P(Recorded, ImportedTrace, ::testing::Values("ddp", "fsdp"));

TEST(ImportedTraceOpening, ABrokenPytorchTraceIsRefusedNamingTheFileAndTheRunStays) {
  MainWindow w;
  const QString good = fixture("ddp");
  ASSERT_TRUE(w.openTrace(good).isEmpty());
  const int events = w.model().eventCount();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString bad = dir.filePath(QStringLiteral("rank0.pt.trace.json"));
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\": \"X\", \"cat\": \"cpu_op\"");
  f.close();
  const QString err = w.openTrace(bad);
  EXPECT_TRUE(err.contains(QStringLiteral("rank0.pt.trace.json"))) << err.toStdString();
  EXPECT_EQ(w.model().eventCount(), events) << "the run on screen stays";
  EXPECT_TRUE(w.workspace()->message().contains(QStringLiteral("rank0.pt.trace.json")));
}
