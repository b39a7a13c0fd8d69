// The projector layout: presentation mode at 1280×720 and 1920×1080
// names every unit in full on the rank cards with cells of at least 16 px, keeps text at
// 18 px or more, keeps the slider and the prediction box at their minimum widths, and
// shows the quiz as an overlay the instructor shows or hides. Offscreen, over a
// synthetic 4-rank × 6-unit trace (a layout test: no run is claimed).
#include "window/MainWindow.h"
#include "views/QuizOverlay.h"
#include "views/WorkspacePage.h"
#include "SampleTrace.h"
#include "models/AppSettings.h"
#include "views/Appearance.h"
#include "views/CompareView.h"
#include "views/Palette.h"
#include "models/JobRunner.h"
#include "views/PipelineView.h"
#include "views/PlaybackBar.h"
#include "views/PlotsView.h"
#include "views/QuizPanel.h"
#include "views/RankView.h"
#include "views/TimelineView.h"

#include <QAction>
#include <QCheckBox>
#include <QFileInfo>
#include <QLocale>
#include <QProcess>
#include <QRadioButton>
#include <QScrollArea>
#include <QStyleOption>
#include <QTableWidget>
#include <QApplication>
#include <QDockWidget>
#include <QFontInfo>
#include <QLineEdit>
#include <QSettings>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <fstream>

#include <gtest/gtest.h>
#include <qcustomplot.h>

using namespace shardlab::app;

namespace {
// Presentation mode for this test only (as --presentation does), then back.
struct PresentationMode {
  PresentationMode() {
    AppSettings::setOverrides(QString(), true);
    Appearance::apply(*qApp);
  }
  ~PresentationMode() {
    AppSettings::setOverrides(QString(), false);
    Appearance::apply(*qApp);
  }
};
} // namespace

// A synthetic FSDP trace of `ranks` ranks and 6 units under the engine's own unit
// names, the longest of which ("embedding") a narrow cell cuts; `oom`: rank 1 runs out of
// memory in step 0 (a budget in the job record).
std::string sixUnitTrace(int ranks, bool oom = false) {
  sample::Options o;
  o.ranks = ranks;
  o.steps = 2;
  o.oomOnRank1 = oom;
  o.blocks = 4; // embed, block0..block3, head: 6 units
  std::string text = sample::fsdpText(o);
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"embed", "embedding"}, {"head", "output"}})
    for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

// Every unit of every card named in full, on slots of at least 16 px inside the card.
void expectLegibleCards(const RankView& ranks, const TraceModel& model) {
  for (int u = 0; u < model.unitCount(); ++u) EXPECT_EQ(ranks.shownUnitLabel(u), model.unitName(u)) << "unit " << u;
  for (int r = 0; r < model.rankCount(); ++r)
    for (int u = 0; u < model.unitCount(); ++u)
      for (int slot = 0; slot < model.slotCount(); ++slot) {
        const QRectF cell = ranks.slotRect(r, u, slot);
        EXPECT_GE(cell.width(), 16.0) << "rank " << r << " unit " << u << " slot " << slot;
        EXPECT_GE(cell.height(), 16.0) << "rank " << r << " unit " << u << " slot " << slot;
        EXPECT_TRUE(ranks.cardRect(r).contains(cell)) << "rank " << r << " unit " << u;
      }
}

TEST(Presentation, TheProjectorLayoutAt1280x720And1920x1080) {
  PresentationMode presenting;
  QTemporaryDir dir;
  const QString trace = dir.filePath(QStringLiteral("six-units.trace"));
  std::ofstream(trace.toStdString()) << sixUnitTrace(4);
  for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
    SCOPED_TRACE(QStringLiteral("%1x%2").arg(size.width()).arg(size.height()).toStdString());
    MainWindow w;
    w.setPresentationLayout(true);
    w.resize(size);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(w.openTrace(trace).isEmpty());
    ASSERT_EQ(w.model().rankCount(), 4);
    ASSERT_EQ(w.model().unitCount(), 6);
    ASSERT_EQ(w.model().unitName(0), QStringLiteral("embedding"));
    ASSERT_TRUE(w.workspace()->showView(QStringLiteral("ranks")));
    w.playback().setFraction(0.4);
    QCoreApplication::processEvents();
    RankView* ranks = w.workspace()->rankView();
    ranks->repaint();
    // Text a room can read: 18 px or more, in the window and on the cards.
    EXPECT_GE(QFontInfo(w.font()).pixelSize(), 18);
    EXPECT_GE(QFontInfo(ranks->font()).pixelSize(), 18);
    // Every unit named in full, on cells of at least 16 px.
    expectLegibleCards(*ranks, w.model());
    // The slider and the prediction box keep their minimum widths.
    auto* slider = w.findChild<PlaybackBar*>()->findChild<QSlider*>();
    ASSERT_NE(slider, nullptr);
    EXPECT_GE(slider->width(), PlaybackBar::kMinimumSliderWidth);
    // The quiz is an overlay over the views, shown and hidden by the instructor (F9).
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("quiz"));
    EXPECT_FALSE(dock->isVisible());
    EXPECT_FALSE(dock->toggleViewAction()->isEnabled()) << "View → Quiz would show the dock the overlay emptied";
    w.showQuiz();
    QCoreApplication::processEvents();
    ASSERT_TRUE(w.workspace()->quizOverlayShown());
    EXPECT_TRUE(w.workspace()->quizOverlay()->isAncestorOf(w.quizPanel()));
    EXPECT_TRUE(w.quizPanel()->isVisible());
    EXPECT_FALSE(dock->isVisible());
    EXPECT_TRUE(w.rect().contains(QRect(w.workspace()->quizOverlay()->mapTo(&w, QPoint()), w.workspace()->quizOverlay()->size())));
    w.quizPanel()->setAwaitingPrediction(true);
    QCoreApplication::processEvents();
    auto* input = w.quizPanel()->findChild<QLineEdit*>(QStringLiteral("predictionInput"));
    ASSERT_NE(input, nullptr);
    EXPECT_GE(input->width(), input->fontMetrics().horizontalAdvance(QStringLiteral("0000000000")));
    w.quizPanel()->setAwaitingPrediction(false);
    QTest::keyClick(&w, Qt::Key_F9);
    EXPECT_FALSE(w.workspace()->quizOverlayShown()) << "F9 hides it";
    QTest::keyClick(&w, Qt::Key_F9);
    EXPECT_TRUE(w.workspace()->quizOverlayShown()) << "and shows it again";
    const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
    if (!out.isEmpty()) w.grab().save(out + QStringLiteral("/presentation-%1.png").arg(size.width()));
    // Leaving presentation mode puts the quiz back in its dock.
    w.setPresentationLayout(false);
    EXPECT_TRUE(dock->isAncestorOf(w.quizPanel()));
  }
}

// A comparison lesson's Both runs tab at 1280x720: two runs of two ranks side by side.
// Presenting, the timelines under the cards give their height to the unit cells (16 px,
// names in full); the tab's Timelines button brings them back.
TEST(Presentation, BothRunsCardsAreLegibleAt1280x720) {
  PresentationMode presenting;
  QTemporaryDir dir;
  const QString trace = dir.filePath(QStringLiteral("six-units.trace"));
  std::ofstream(trace.toStdString()) << sixUnitTrace(2);
  MainWindow w;
  w.setPresentationLayout(true);
  w.resize(1280, 720);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  ASSERT_TRUE(w.openTrace(trace).isEmpty());
  w.comparisonModel().setTrace(shardlab::trace::readTrace(sixUnitTrace(2)).trace);
  w.workspace()->refreshViews();
  ASSERT_TRUE(w.workspace()->showView(QStringLiteral("both")));
  w.playback().setFraction(0.4);
  QCoreApplication::processEvents();
  CompareView* both = w.workspace()->compareView();
  EXPECT_FALSE(both->timelinesShown());
  EXPECT_FALSE(both->timelineView(0)->isVisible());
  for (int run = 0; run < 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    EXPECT_GE(QFontInfo(both->rankView(run)->font()).pixelSize(), 18);
    expectLegibleCards(*both->rankView(run), run == 0 ? w.model() : w.comparisonModel());
  }
  const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
  if (!out.isEmpty()) w.grab().save(out + QStringLiteral("/presentation-both-1280.png"));
  auto* button = both->findChild<QToolButton*>(QStringLiteral("compareTimelines"));
  ASSERT_NE(button, nullptr);
  button->click();
  QCoreApplication::processEvents();
  EXPECT_TRUE(both->timelineView(1)->isVisible());
  // Out of presentation mode the timelines are back by default.
  button->click();
  w.setPresentationLayout(false);
  EXPECT_TRUE(both->timelinesShown());
}

namespace {
QAction* viewAction(MainWindow& w, const QString& text) {
  for (auto* a : w.findChildren<QAction*>())
    if (a->text() == text) return a;
  return nullptr;
}
} // namespace

// The walk's instructor (90–92): View → Dark theme after --theme light was checked and
// saved but the window stayed light; F11 after --presentation kept the text at 1.5×.
// A choice made in the app after start wins over the command line.
TEST(Presentation, AMenuChoiceAfterTheCommandLineWins) {
  const QString savedTheme = QSettings().value(QStringLiteral("ui/theme")).toString();
  const double normal = qApp->font().pointSizeF();
  AppSettings::setOverrides(QStringLiteral("light"), true); // --theme light --presentation
  Appearance::apply(*qApp);
  ASSERT_GT(qApp->font().pointSizeF(), normal * 1.4);
  {
    MainWindow w;
    w.setPresentationLayout(true);
    w.resize(1280, 720);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    QAction* dark = viewAction(w, QStringLiteral("Dark theme"));
    ASSERT_NE(dark, nullptr);
    dark->trigger();
    EXPECT_EQ(AppSettings::theme(), QStringLiteral("dark"));
    EXPECT_EQ(qApp->palette().color(QPalette::Window), Palette::dark().color(QPalette::Window)) << "the window turned dark";
    QAction* presentation = viewAction(w, QStringLiteral("Presentation mode (large)"));
    ASSERT_NE(presentation, nullptr);
    ASSERT_TRUE(presentation->isChecked());
    presentation->trigger(); // F11
    EXPECT_FALSE(AppSettings::presentation());
    EXPECT_FALSE(w.presentationLayout());
    EXPECT_DOUBLE_EQ(qApp->font().pointSizeF(), normal) << "normal text sizes again";
    EXPECT_TRUE(w.workspace()->compareView()->timelinesShown()) << "Both runs has its normal layout again";
    viewAction(w, QStringLiteral("Light theme"))->trigger();
  }
  AppSettings::setOverrides(QString(), false);
  if (savedTheme.isEmpty()) QSettings().remove(QStringLiteral("ui/theme"));
  else AppSettings::setTheme(savedTheme);
  QSettings().remove(QStringLiteral("ui/presentation"));
  Appearance::apply(*qApp);
}

namespace {
// The app's language for one test (as --lang does), then English again.
struct Language {
  explicit Language(const char* code) {
    AppSettings::setLanguageOverride(QLatin1String(code));
    ok = AppSettings::applyLanguage(*qApp);
  }
  ~Language() {
    AppSettings::setLanguageOverride(QStringLiteral("en"));
    AppSettings::applyLanguage(*qApp);
  }
  bool ok = false;
};

// Nothing on a card cut without its whole text at hand: each text the card shows is whole,
// or shortened with the whole of it in the card's tooltip.
void expectNothingCutWithoutATooltip(const RankView& ranks, const TraceModel& model) {
  for (int r = 0; r < model.rankCount(); ++r) {
    const auto texts = ranks.shownTexts(r);
    EXPECT_GE(texts.size(), 3u) << "title, activity and memory of rank " << r;
    const QString tip = ranks.toolTipAt(ranks.cardRect(r).center());
    for (const auto& t : texts) {
      if (t.shown == t.full) continue;
      EXPECT_TRUE(tip.contains(t.full)) << "rank " << r << ": \"" << t.shown.toStdString() << "\" without \""
                                        << t.full.toStdString() << "\" in the tooltip";
    }
  }
}
} // namespace

// The walk's instructor (98): the out-of-memory lesson's Both runs at 1280x720, two runs of
// four ranks, had 5 px cells under overlapping names and cut texts ("…block2 needed"). Four
// cards in half the width stand in one row, each unit a row across them named once, cells
// of 16 px; a text too long for the column is whole in its tooltip. In every language.
TEST(Presentation, BothRunsOfFourRanksAreLegibleAt1280x720) {
  PresentationMode presenting;
  QTemporaryDir dir;
  const QString trace = dir.filePath(QStringLiteral("oom.trace"));
  std::ofstream(trace.toStdString()) << sixUnitTrace(4, true);
  for (const char* lang : {"en", "fr", "ru"}) {
    SCOPED_TRACE(lang);
    Language language(lang);
    ASSERT_TRUE(language.ok);
    MainWindow w;
    w.setPresentationLayout(true);
    w.resize(1280, 720);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(w.openTrace(trace).isEmpty());
    w.comparisonModel().setTrace(shardlab::trace::readTrace(sixUnitTrace(4)).trace);
    w.workspace()->refreshViews();
    ASSERT_TRUE(w.workspace()->showView(QStringLiteral("both")));
    CompareView* both = w.workspace()->compareView();
    for (const double at : {0.4, 1.0}) {
      SCOPED_TRACE(at);
      w.playback().setFraction(at);
      QCoreApplication::processEvents();
      for (int run = 0; run < 2; ++run) {
        SCOPED_TRACE("run " + std::to_string(run));
        RankView* ranks = both->rankView(run);
        const TraceModel& model = run == 0 ? w.model() : w.comparisonModel();
        ASSERT_EQ(model.rankCount(), 4);
        ranks->repaint();
        EXPECT_GE(QFontInfo(ranks->font()).pixelSize(), 18);
        EXPECT_TRUE(ranks->unitRows());
        expectLegibleCards(*ranks, model);
        expectNothingCutWithoutATooltip(*ranks, model);
        // Names in a column of their own: no name over another or over a cell.
        for (int u = 0; u + 1 < model.unitCount(); ++u)
          EXPECT_LE(ranks->slotRect(0, u, 0).bottom(), ranks->slotRect(0, u + 1, 0).top());
      }
    }
    EXPECT_EQ(both->rankView(0)->outOfMemoryText(1).isEmpty(), false);
    EXPECT_TRUE(both->rankView(0)->toolTipAt(both->rankView(0)->cardRect(1).center()).contains(both->rankView(0)->outOfMemoryText(1)));
    const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
    if (!out.isEmpty()) w.grab().save(out + QStringLiteral("/presentation-both-4ranks-%1.png").arg(QLatin1String(lang)));
  }
}

// The walk's instructor (99): Compare runs at 1280x720 stopped at "Peak memory" and drew
// its chart as a 20 px strip under the budget's label, with an empty legend. The page
// scrolls: the whole table, the chart at its least height, the legend filled, the budget's
// label clear of every bar.
TEST(Presentation, CompareRunsIsWholeAt1280x720) {
  PresentationMode presenting;
  QTemporaryDir dir;
  const QString trace = dir.filePath(QStringLiteral("oom.trace"));
  std::ofstream(trace.toStdString()) << sixUnitTrace(4, true);
  for (const char* lang : {"en", "ru"}) {
    SCOPED_TRACE(lang);
    Language language(lang);
    MainWindow w;
    w.setPresentationLayout(true);
    w.resize(1280, 720);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(w.openTrace(trace).isEmpty());
    w.comparisonModel().setTrace(shardlab::trace::readTrace(sixUnitTrace(4)).trace);
    w.workspace()->refreshViews();
    w.workspace()->plotsView()->setComparison(&w.comparisonModel(), QStringLiteral("DDP"), QStringLiteral("FSDP"));
    ASSERT_TRUE(w.workspace()->showView(QStringLiteral("compare")));
    QCoreApplication::processEvents();
    PlotsView* plots = w.workspace()->plotsView();
    QTableWidget* table = plots->compareTable();
    QCustomPlot* chart = plots->comparePlot();
    ASSERT_TRUE(table->isVisible());
    ASSERT_GE(table->rowCount(), 8);
    // Every row of the table inside the table (no row under its edge).
    EXPECT_LE(table->horizontalHeader()->height() + table->verticalHeader()->length(), table->viewport()->height() +
                                                                                          table->horizontalHeader()->height());
    EXPECT_EQ(table->verticalScrollBar()->maximum(), 0);
    // The row names whole.
    for (int i = 0; i < table->rowCount(); ++i) {
      const QString name = table->verticalHeaderItem(i)->text();
      EXPECT_GE(table->verticalHeader()->width(), table->verticalHeader()->fontMetrics().horizontalAdvance(name)) << name.toStdString();
    }
    // The chart at its least height, the legend filled and as tall as its text.
    EXPECT_GE(chart->height(), PlotsView::kCompareChartLines * chart->fontMetrics().height() - 1);
    chart->replot();
    EXPECT_GE(chart->legend->outerRect().height(), QFontMetrics(chart->legend->font()).height());
    int entries = 0;
    for (int i = 0; i < chart->legend->itemCount(); ++i)
      if (QCPAbstractLegendItem* item = chart->legend->item(i)) {
        ++entries;
        EXPECT_GE(item->outerRect().height(), QFontMetrics(chart->legend->font()).height() - 1);
      }
    EXPECT_GE(entries, 4);
    // The budget's label over no bar.
    QRectF label;
    for (int i = 0; i < chart->itemCount(); ++i)
      if (auto* text = qobject_cast<QCPItemText*>(chart->item(i)))
        label = QRectF(text->topLeft->pixelPosition(), text->bottomRight->pixelPosition()).normalized();
    ASSERT_FALSE(label.isNull());
    EXPECT_TRUE(chart->axisRect()->rect().contains(label.toRect()));
    for (int i = 0; i < chart->plottableCount(); ++i)
      if (auto* bars = qobject_cast<QCPBars*>(chart->plottable(i)))
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) {
          const double base = bars->baseValue();
          const QPointF a = bars->coordsToPixels(it->key - bars->width() / 2, base);
          const QPointF b = bars->coordsToPixels(it->key + bars->width() / 2, base + it->value);
          EXPECT_FALSE(QRectF(a, b).normalized().intersects(label)) << bars->name().toStdString() << " at " << it->key;
        }
    // Scrolled, the whole page is reachable.
    EXPECT_GE(plots->compareScroll()->widget()->height(), table->height() + chart->height());
    const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
    if (!out.isEmpty()) w.grab().save(out + QStringLiteral("/presentation-compare-%1.png").arg(QLatin1String(lang)));
  }
}

namespace {
// A real pipeline run of 2 stages, 4 micro-batches, 3 steps (a second or two).
QString pipelineTrace(const QTemporaryDir& dir, const QString& schedule) {
  const QString trace = dir.filePath(schedule + QStringLiteral(".trace"));
  QProcess run;
  run.start(JobRunner::findLauncher(),
            {QStringLiteral("--strategy"), QStringLiteral("pipeline"), QStringLiteral("--ranks"), QStringLiteral("2"),
             QStringLiteral("--schedule"), schedule, QStringLiteral("--microbatches"), QStringLiteral("4"),
             QStringLiteral("--steps"), QStringLiteral("3"), QStringLiteral("--layers"), QStringLiteral("4"),
             QStringLiteral("--hidden"), QStringLiteral("64"), QStringLiteral("--batch"), QStringLiteral("256"),
             QStringLiteral("--trace"), trace});
  if (!run.waitForFinished(120000) || run.exitCode() != 0) return {};
  return trace;
}
} // namespace

// The walk's instructor (125, 36, 80): presenting at 1280x720, the Russian pipeline header
// lost its theory figure; in Both runs the two diagrams filled a third to half of their
// width, without micro-batch labels, and nothing said what the hatched gaps are. The header
// is whole (two lines where one does not hold it), the longer step spans its diagram, the
// blocks are labelled where they have room and a legend names recorded idle.
TEST(Presentation, PipelineHeadersAndDiagramsAt1280x720) {
  if (!QFileInfo(JobRunner::findLauncher()).isExecutable()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  PresentationMode presenting;
  QTemporaryDir dir;
  const QString gpipe = pipelineTrace(dir, QStringLiteral("gpipe"));
  const QString ofob = pipelineTrace(dir, QStringLiteral("1f1b"));
  ASSERT_FALSE(gpipe.isEmpty());
  ASSERT_FALSE(ofob.isEmpty());
  for (const char* lang : {"en", "fr", "ru"}) {
    SCOPED_TRACE(lang);
    Language language(lang);
    MainWindow w;
    w.setPresentationLayout(true);
    w.resize(1280, 720);
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    ASSERT_TRUE(w.openTrace(gpipe).isEmpty());
    w.comparisonModel().setTrace(shardlab::trace::readTraceFile(ofob.toStdString()).trace);
    w.workspace()->refreshViews();
    // The bubble measured and the theory, as the header writes them: never cut.
    auto expectWholeHeader = [&](PipelineView* view, const TraceModel& model) {
      view->repaint();
      const QString header = view->shownHeader().join(QLatin1Char(' '));
      ASSERT_TRUE(model.breakdown().has_value());
      const QLocale locale;
      for (double f : {model.breakdown()->measured, model.breakdown()->theory})
        EXPECT_TRUE(header.contains(locale.toString(f * 100.0, 'f', 1))) << header.toStdString();
      EXPECT_FALSE(header.contains(QChar(0x2026))) << header.toStdString();
      EXPECT_LE(view->shownHeader().size(), 2);
      EXPECT_TRUE(view->legendEntries().contains(PipelineView::tr("recorded idle (hatched)")));
    };
    ASSERT_TRUE(w.workspace()->showView(QStringLiteral("pipeline")));
    w.playback().setFraction(0.5);
    QCoreApplication::processEvents();
    expectWholeHeader(w.workspace()->pipelineView(), w.model());
    ASSERT_TRUE(w.workspace()->showView(QStringLiteral("both")));
    CompareView* both = w.workspace()->compareView();
    ASSERT_TRUE(both->showsPipeline());
    for (const double at : {0.0, 0.5}) {
      SCOPED_TRACE(at);
      w.playback().setFraction(at);
      QCoreApplication::processEvents();
      double widest = 0;
      int labelled = 0, roomy = 0;
      for (int run = 0; run < 2; ++run) {
        PipelineView* view = both->pipelineView(run);
        expectWholeHeader(view, run == 0 ? w.model() : w.comparisonModel());
        EXPECT_GE(QFontInfo(view->font()).pixelSize(), 18);
        widest = std::max(widest, view->stepWidthShare());
        labelled += view->labelledBlocks();
        roomy += view->roomyBlocks();
      }
      EXPECT_EQ(both->pipelineView(0)->shownStep(), both->pipelineView(1)->shownStep());
      EXPECT_GT(widest, 0.999) << "the longer of the two steps spans its diagram";
      EXPECT_EQ(labelled, roomy) << "every block with room for its micro-batch is labelled";
      EXPECT_GT(both->pipelineView(0)->drawnBlocks(), 0);
    }
    const QString out = qEnvironmentVariable("SHARDLAB_APP_TEST_OUT");
    if (!out.isEmpty()) w.grab().save(out + QStringLiteral("/presentation-pipeline-both-%1.png").arg(QLatin1String(lang)));
  }
}

namespace {
// The largest difference in lightness between `colour` and a pixel of `rect` in `image`.
int contrastIn(const QImage& image, const QRect& rect, const QColor& colour) {
  int most = 0;
  for (int y = rect.top(); y <= rect.bottom(); ++y)
    for (int x = rect.left(); x <= rect.right(); ++x)
      if (image.rect().contains(x, y)) most = std::max(most, std::abs(image.pixelColor(x, y).lightness() - colour.lightness()));
  return most;
}
} // namespace

// The walk's instructor (94): in the dark theme the "Follow live" box and the slider's groove
// were nearly the window's colour; radio buttons kept their small size when presenting. The
// box's outline and the groove stand out from the window, and indicators grow with the text.
TEST(Presentation, DarkControlsStandOutAndIndicatorsGrow) {
  const int normalRadio = qApp->style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth);
  const int normalBox = qApp->style()->pixelMetric(QStyle::PM_IndicatorWidth);
  AppSettings::setOverrides(QStringLiteral("dark"), true);
  Appearance::apply(*qApp);
  EXPECT_GE(qApp->style()->pixelMetric(QStyle::PM_ExclusiveIndicatorWidth), normalRadio * 1.4);
  EXPECT_GE(qApp->style()->pixelMetric(QStyle::PM_IndicatorWidth), normalBox * 1.4);
  {
    QWidget page;
    page.setAutoFillBackground(true);
    auto* box = new QCheckBox(QStringLiteral("Follow live"), &page);
    auto* slider = new QSlider(Qt::Horizontal, &page);
    auto* radio = new QRadioButton(QStringLiteral("choice"), &page);
    box->move(10, 10);
    slider->setGeometry(10, 60, 400, 40);
    radio->move(10, 110);
    page.resize(440, 160);
    page.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&page));
    EXPECT_GE(radio->sizeHint().height(), QFontInfo(radio->font()).pixelSize());
    const QImage image = page.grab().toImage();
    const QColor window = page.palette().color(QPalette::Window);
    ASSERT_LT(window.lightness(), 60) << "the dark theme";
    QStyleOptionButton bo;
    bo.initFrom(box);
    const QRect indicator = box->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &bo, box).translated(box->pos());
    EXPECT_GE(contrastIn(image, indicator, window), 70) << "the box's outline";
    QStyleOptionSlider so;
    so.initFrom(slider);
    so.minimum = slider->minimum();
    so.maximum = slider->maximum();
    so.sliderPosition = so.sliderValue = slider->value();
    so.orientation = Qt::Horizontal;
    const QRect handle = slider->style()->subControlRect(QStyle::CC_Slider, &so, QStyle::SC_SliderHandle, slider);
    QRect groove = slider->style()->subControlRect(QStyle::CC_Slider, &so, QStyle::SC_SliderGroove, slider);
    groove.setLeft(handle.right() + 4); // the groove right of the handle, at the start of a run
    EXPECT_GE(contrastIn(image, groove.translated(slider->pos()), window), 40) << "the slider's groove";
  }
  AppSettings::setOverrides(QString(), false);
  Appearance::apply(*qApp);
}
