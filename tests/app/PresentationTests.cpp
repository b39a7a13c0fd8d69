// The projector layout (issue 12, item 4): presentation mode at 1280×720 and 1920×1080
// names every unit in full on the rank cards with cells of at least 16 px, keeps text at
// 18 px or more, keeps the slider and the prediction box at their minimum widths, and
// shows the quiz as an overlay the instructor shows or hides. Offscreen, over a
// synthetic 4-rank × 6-unit trace (a layout test: no run is claimed).
#include "MainWindow.h"
#include "SampleTrace.h"
#include "models/AppSettings.h"
#include "views/CompareView.h"
#include "views/Palette.h"
#include "views/PlaybackBar.h"
#include "views/QuizPanel.h"
#include "views/RankView.h"
#include "views/TimelineView.h"

#include <QAction>
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

namespace {
// Presentation mode for this test only (as --presentation does), then back.
struct PresentationMode {
  PresentationMode() {
    AppSettings::setOverrides(QString(), true);
    AppSettings::applyAppearance(*qApp);
  }
  ~PresentationMode() {
    AppSettings::setOverrides(QString(), false);
    AppSettings::applyAppearance(*qApp);
  }
};
} // namespace

// A synthetic FSDP trace of `ranks` ranks and 6 units under the engine's own unit
// names, the longest of which ("embedding") a narrow cell cuts.
std::string sixUnitTrace(int ranks) {
  sample::Options o;
  o.ranks = ranks;
  o.steps = 2;
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
    ASSERT_TRUE(w.showView(QStringLiteral("ranks")));
    w.playback().setFraction(0.4);
    QCoreApplication::processEvents();
    RankView* ranks = w.rankView();
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
    ASSERT_TRUE(w.quizOverlayShown());
    EXPECT_TRUE(w.quizOverlay()->isAncestorOf(w.quizPanel()));
    EXPECT_TRUE(w.quizPanel()->isVisible());
    EXPECT_FALSE(dock->isVisible());
    EXPECT_TRUE(w.rect().contains(QRect(w.quizOverlay()->mapTo(&w, QPoint()), w.quizOverlay()->size())));
    w.quizPanel()->setAwaitingPrediction(true);
    QCoreApplication::processEvents();
    auto* input = w.quizPanel()->findChild<QLineEdit*>(QStringLiteral("predictionInput"));
    ASSERT_NE(input, nullptr);
    EXPECT_GE(input->width(), input->fontMetrics().horizontalAdvance(QStringLiteral("0000000000")));
    w.quizPanel()->setAwaitingPrediction(false);
    QTest::keyClick(&w, Qt::Key_F9);
    EXPECT_FALSE(w.quizOverlayShown()) << "F9 hides it";
    QTest::keyClick(&w, Qt::Key_F9);
    EXPECT_TRUE(w.quizOverlayShown()) << "and shows it again";
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
  w.refreshViews();
  ASSERT_TRUE(w.showView(QStringLiteral("both")));
  w.playback().setFraction(0.4);
  QCoreApplication::processEvents();
  CompareView* both = w.compareView();
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
  AppSettings::applyAppearance(*qApp);
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
    EXPECT_TRUE(w.compareView()->timelinesShown()) << "Both runs has its normal layout again";
    viewAction(w, QStringLiteral("Light theme"))->trigger();
  }
  AppSettings::setOverrides(QString(), false);
  if (savedTheme.isEmpty()) QSettings().remove(QStringLiteral("ui/theme"));
  else AppSettings::setTheme(savedTheme);
  QSettings().remove(QStringLiteral("ui/presentation"));
  AppSettings::applyAppearance(*qApp);
}
