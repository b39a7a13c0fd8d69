// The Quiz dock (QuizPanel) against a REAL run's trace: shardlab-run (found like the
// app finds it) records a 2-rank FSDP job, the panel asks the lesson's guide
// questions and the observation questions of that trace, records answers in a
// progress file, and "Show me" moves the playhead to the evidence moment.
#include "models/AppSettings.h"
#include "quiz/observations/EvidenceMoment.h"
#include "models/JobRunner.h"
#include "views/LogPane.h"
#include "MainWindow.h"
#include "models/PlaybackController.h"
#include "quiz/progress/Progress.h"
#include "quiz/bank/QuestionBank.h"
#include "views/QuizPanel.h"
#include "views/ReviewView.h"
#include "models/TraceModel.h"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRadioButton>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace {

// One real FSDP trace for every test of this file.
QString realFsdpTrace() {
  static QTemporaryDir dir;
  static QString file;
  static bool tried = false;
  if (tried) return file;
  tried = true;
  const QString launcher = JobRunner::findLauncher();
  if (!QFileInfo(launcher).isExecutable()) return {};
  const QString out = dir.filePath(QStringLiteral("fsdp.trace"));
  QProcess p;
  p.start(launcher, {QStringLiteral("--strategy"), QStringLiteral("fsdp"), QStringLiteral("--ranks"), QStringLiteral("2"),
                     QStringLiteral("--steps"), QStringLiteral("2"), QStringLiteral("--device"), QStringLiteral("cpu"),
                     QStringLiteral("-q"), QStringLiteral("--trace"), out});
  if (!p.waitForFinished(180000) || p.exitCode() != 0) return {};
  file = out;
  return file;
}

struct Fixture {
  TraceModel model;
  PlaybackController playback{model};
  QTemporaryDir dir;
  QuizPanel panel{model, playback};
  Fixture() {
    panel.setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  }
};

} // namespace

#define NEED_TRACE(F_)                                                                                  \
  const QString trace_ = realFsdpTrace();                                                               \
  if (trace_.isEmpty()) GTEST_SKIP() << "shardlab-run not built yet (" << JobRunner::findLauncher().toStdString() << ")"; \
  ASSERT_TRUE((F_).model.loadFile(trace_).isEmpty());                                                   \
  (F_).panel.setLesson(QStringLiteral("fsdp-shard-gather-free"));                                       \
  (F_).panel.refreshObservations(trace_)

TEST(QuizPanel, ShowsFourShuffledChoices) {
  Fixture f;
  NEED_TRACE(f);
  ASSERT_GT(f.panel.questionCount(), 4); // the lesson's 4 guide questions and the run's own
  ASSERT_GE(f.panel.firstObservation(), 0);
  const auto bank = shardlab::quiz::QuestionBank::loadDirectory(LessonCatalog::assetsDirectory().toStdString() + "/quiz");
  bool someShuffled = false;
  for (int i = 0; i < f.panel.questionCount(); ++i) {
    f.panel.showQuestion(i);
    const QStringList shown = f.panel.shownChoices();
    ASSERT_EQ(shown.size(), 4) << i;
    int visible = 0;
    for (auto* b : f.panel.findChildren<QRadioButton*>()) visible += b->isVisibleTo(&f.panel) ? 1 : 0;
    EXPECT_EQ(visible, 4);
    if (i < f.panel.firstObservation()) continue;
    EXPECT_FALSE(f.panel.questionText().isEmpty());
  }
  // Guide questions come from the bank in its order a, b, c, d; the panel must not show that order for all.
  for (int i = 0; i < f.panel.firstObservation(); ++i) {
    f.panel.showQuestion(i);
    for (const auto& q : bank.questions()) {
      if (QString::fromStdString(q.text.get("en")) != f.panel.questionText()) continue;
      QStringList source;
      for (const auto& c : q.choices) source << QString::fromStdString(c.text.get("en"));
      const QStringList shown = f.panel.shownChoices();
      if (source != shown) someShuffled = true;
      EXPECT_EQ(QSet<QString>(source.begin(), source.end()), QSet<QString>(shown.begin(), shown.end()));
    }
  }
  EXPECT_TRUE(someShuffled);
}

TEST(QuizPanel, AnsweringRecordsProgress) {
  Fixture f;
  NEED_TRACE(f);
  f.panel.showQuestion(f.panel.firstObservation());
  const int right = f.panel.correctShown();
  ASSERT_GE(right, 0);
  EXPECT_FALSE(f.panel.answer((right + 1) % 4));
  EXPECT_TRUE(f.panel.answer(right));
  EXPECT_FALSE(f.panel.explanationText().isEmpty());
  const auto& answers = f.panel.progress().answers();
  ASSERT_EQ(answers.size(), 1u);
  const auto& [id, record] = *answers.begin();
  EXPECT_EQ(id.rfind("obs-", 0), 0u);
  EXPECT_TRUE(record.correct);
  EXPECT_EQ(record.attempts, 2);
  EXPECT_EQ(record.correctCount, 1);
  EXPECT_EQ(record.run.rfind("fnv1a64:", 0), 0u); // which run it was about
  // Saved at once: a new session reads it back.
  const auto saved = shardlab::quiz::Progress::load(f.dir.filePath(QStringLiteral("progress.json")).toStdString());
  ASSERT_EQ(saved.answers().count(id), 1u);
  EXPECT_TRUE(saved.answers().at(id).correct);
  EXPECT_EQ(saved.runs().count(record.run), 1u);
}

TEST(QuizPanel, ShowMeMovesThePlayheadToTheEvidence) {
  Fixture f;
  NEED_TRACE(f);
  f.playback.toEnd();
  for (int i = f.panel.firstObservation(); i < f.panel.questionCount(); ++i) {
    f.panel.showQuestion(i);
    const auto& trace = f.model.trace();
    // Which moment does this question point at? Ask the panel, then check against the trace.
    const qint64 before = f.playback.time();
    if (!f.panel.showMe()) continue;
    EXPECT_FALSE(f.panel.evidenceText().isEmpty());
    bool matches = false;
    for (const auto& m : {"first_all_gather", "gathered_freed", "first_reduce_scatter", "persistent_memory",
                          "prefetch_overlap"})
      if (const auto loc = shardlab::quiz::findMoment(trace, m); loc && loc->time == f.playback.time()) matches = true;
    EXPECT_TRUE(matches) << "playhead " << f.playback.time() << " is no evidence moment of the run";
    (void)before;
  }
  // The first all-gather question in particular lands on the real all-gather.
  const auto ag = shardlab::quiz::findMoment(f.model.trace(), "first_all_gather");
  ASSERT_TRUE(ag);
  f.playback.toEnd();
  bool moved = false;
  for (int i = f.panel.firstObservation(); i < f.panel.questionCount() && !moved; ++i) {
    f.panel.showQuestion(i);
    if (f.panel.showMe() && f.playback.time() == ag->time) moved = true;
  }
  EXPECT_TRUE(moved);
  EXPECT_EQ(f.model.event(static_cast<int>(ag->eventIndex)).kind, shardlab::trace::Kind::AllGather);
}

TEST(QuizPanel, SwitchingLanguageSwitchesTheQuestions) {
  Fixture f;
  NEED_TRACE(f);
  f.panel.showQuestion(f.panel.firstObservation());
  const QString en = f.panel.questionText();
  AppSettings::setLanguageOverride(QStringLiteral("fr"));
  QEvent change(QEvent::LanguageChange);
  QCoreApplication::sendEvent(&f.panel, &change);
  const QString fr = f.panel.questionText();
  AppSettings::setLanguageOverride(QStringLiteral("en"));
  QCoreApplication::sendEvent(&f.panel, &change);
  EXPECT_NE(en, fr);
  EXPECT_TRUE(fr.contains(QStringLiteral("Votre"))) << fr.toStdString();
  EXPECT_EQ(f.panel.questionText(), en);
}

TEST(QuizPanel, IsTheMainWindowsQuizDock) {
  MainWindow w;
  auto* dock = w.findChild<QDockWidget*>(QStringLiteral("quiz"));
  ASSERT_NE(dock, nullptr);
  EXPECT_NE(qobject_cast<QuizPanel*>(dock->widget()), nullptr);
}

TEST(QuizPanel, PredictionIsComparedWithTheRun) {
  Fixture f;
  NEED_TRACE(f); // the fsdp-shard-gather-free lesson predicts rank 0's persistent bytes
  EXPECT_FALSE(f.panel.predictionQuestion().isEmpty());
  EXPECT_FALSE(f.panel.savePrediction(QStringLiteral("lots")));
  const auto persistent = f.model.summary().ranksDetail.at(0).persistentBytes;
  ASSERT_TRUE(f.panel.savePrediction(QString::number(persistent)));
  EXPECT_TRUE(f.panel.predictionResult().contains(QString::fromStdString(shardlab::trace::formatBytes(persistent))))
      << f.panel.predictionResult().toStdString();
  ASSERT_EQ(f.panel.progress().predictions().size(), 1u);
  const auto& p = f.panel.progress().predictions().front();
  EXPECT_EQ(p.lesson, "fsdp-shard-gather-free");
  ASSERT_TRUE(p.actual.has_value());
  EXPECT_EQ(*p.actual, static_cast<double>(persistent));
}

TEST(QuizPanel, ReviewListsMistakesWithExplanations) {
  Fixture f;
  NEED_TRACE(f);
  f.panel.showQuestion(0);
  const int right = f.panel.correctShown();
  f.panel.answer((right + 1) % 4);
  EXPECT_EQ(f.panel.review()->mistakeCount(), 1);
  EXPECT_TRUE(f.panel.review()->html().contains(f.panel.questionText())) << f.panel.review()->html().toStdString();
  f.panel.answer(right); // answered right later: no longer a mistake
  EXPECT_EQ(f.panel.review()->mistakeCount(), 0);
}

TEST(QuizPanel, OpenLabReportsEveryErrorWithItsPath) {
  MainWindow w;
  QTemporaryDir dir;
  const QString broken = dir.filePath(QStringLiteral("broken-lab.json"));
  QFile out(broken);
  ASSERT_TRUE(out.open(QIODevice::WriteOnly));
  out.write(R"({"format": 1, "id": "Bad Id", "title": {"en": "x"},
    "steps": [{"lesson": "no-such-lesson", "questions": ["no-such-question"], "observations": ["no-such-template"]}]})");
  out.close();
  EXPECT_FALSE(w.openLabFile(broken));
  const QString log = w.logPane()->text();
  for (const char* where : {"broken-lab.json:/id", "broken-lab.json:/steps/0/lesson", "broken-lab.json:/steps/0/questions/0",
                            "broken-lab.json:/steps/0/observations/0"})
    EXPECT_TRUE(log.contains(QString::fromLatin1(where))) << where << "\n" << log.toStdString();
  EXPECT_TRUE(w.openLabFile(LessonCatalog::assetsDirectory() + QStringLiteral("/labs/fsdp-intro.json")));
  EXPECT_EQ(w.findChild<QuizPanel*>()->lesson(), QStringLiteral("ddp-replicas"));
}
