// The Quiz dock (QuizPanel) against a REAL run's trace: shardlab-run (found like the
// app finds it) records a 2-rank FSDP job, the panel asks the lesson's guide
// questions and the observation questions of that trace, records answers in a
// progress file, and "Show me" moves the playhead to the evidence moment.
#include "models/AppSettings.h"
#include "models/LessonCatalog.h"
#include "models/QuizController.h"
#include "quiz/observations/EvidenceMoment.h"
#include "models/JobRunner.h"
#include "views/LogPane.h"
#include "window/MainWindow.h"
#include "models/PlaybackController.h"
#include "quiz/progress/Progress.h"
#include "quiz/progress/ProgressLocation.h"
#include "quiz/bank/QuestionBank.h"
#include "views/GuidePanel.h"
#include "views/LearnerMenu.h"
#include "views/QuizPanel.h"
#include "views/ExperimentPanel.h"
#include "views/ReviewView.h"
#include "views/StartPage.h"
#include "models/TraceModel.h"

#include <QApplication>
#include <QCommandLinkButton>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QEvent>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRadioButton>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace shardlab::app;

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
  if (trace_.isEmpty()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first (" << JobRunner::findLauncher().toStdString() << ")"; \
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

TEST(QuizPanel, AnsweringRecordsProgressWithTheFirstAttempt) {
  Fixture f;
  NEED_TRACE(f);
  f.panel.showQuestion(f.panel.firstObservation());
  const int right = f.panel.correctShown();
  ASSERT_GE(right, 0);
  EXPECT_FALSE(f.panel.answer((right + 1) % 4)); // wrong, then right
  EXPECT_TRUE(f.panel.answer(right));
  EXPECT_FALSE(f.panel.explanationText().isEmpty());
  const auto& answers = f.panel.progress().answers();
  ASSERT_EQ(answers.size(), 1u);
  const auto& [key, record] = *answers.begin();
  EXPECT_EQ(key.question.rfind("obs-", 0), 0u);
  EXPECT_EQ(key.run.rfind("fnv1a64:", 0), 0u); // which run it was about
  EXPECT_EQ(key.lesson, "fsdp-shard-gather-free");
  EXPECT_TRUE(record.correct);
  ASSERT_TRUE(record.firstAttemptCorrect.has_value());
  EXPECT_FALSE(*record.firstAttemptCorrect) << "the retry does not hide the wrong first answer";
  EXPECT_EQ(record.attempts, 2);
  EXPECT_EQ(record.correctCount, 1);
  EXPECT_EQ(record.answeredAt.size(), 20u) << record.answeredAt; // 2026-12-01T10:40:35Z
  EXPECT_EQ(record.answeredAt.back(), 'Z');
  // Saved at once: a new session reads it back.
  const auto saved = shardlab::quiz::Progress::load(f.dir.filePath(QStringLiteral("progress.json")).toStdString());
  ASSERT_NE(saved.findAnswer(key), nullptr);
  EXPECT_TRUE(saved.findAnswer(key)->correct);
  EXPECT_EQ(saved.findAnswer(key)->firstAttemptCorrect, std::optional<bool>(false));
  EXPECT_EQ(saved.runs().count(key.run), 1u);
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
  EXPECT_FALSE(p.session.empty()) << "a prediction belongs to this start of the app";
  ASSERT_TRUE(p.actual.has_value());
  EXPECT_EQ(*p.actual, static_cast<double>(persistent));
}

TEST(QuizPanel, AFarOffPredictionLeadsToTheMomentThatShowsWhy) {
  Fixture f;
  NEED_TRACE(f); // the lesson's prediction names the moment persistent_memory
  auto* showMe = f.panel.findChild<QPushButton*>(QStringLiteral("predictionShowMe"));
  auto* moment = f.panel.findChild<QLabel*>(QStringLiteral("predictionMoment"));
  ASSERT_NE(showMe, nullptr);
  ASSERT_NE(moment, nullptr);
  f.panel.show(); // isVisible() of a child needs its window shown
  ASSERT_TRUE(f.panel.savePrediction(QStringLiteral("1")));
  EXPECT_TRUE(showMe->isVisible()) << "the check says to look at a moment: the button goes there";
  f.playback.setTime(f.model.endTime());
  showMe->click();
  const auto expected = shardlab::quiz::findMoment(f.model.measured(), f.model.summary(), "persistent_memory");
  ASSERT_TRUE(expected.has_value());
  EXPECT_EQ(f.playback.time(), expected->time);
  EXPECT_TRUE(moment->text().contains(QStringLiteral("t ="))) << moment->text().toStdString();
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
  EXPECT_EQ(f.panel.review()->answerCount(), 1) << "only the question answered is listed";
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

// ---- Quiz state across lessons, runs, restarts and learners ----

namespace {

// The same run's trace under another name with one more (empty) line: another file
// hash, so another run for the quiz, with the same questions.
QString otherRunOf(const QString& trace, const QTemporaryDir& dir) {
  const QString copy = dir.filePath(QStringLiteral("other-run.trace"));
  QFile::remove(copy);
  QFile::copy(trace, copy);
  QFile f(copy);
  f.setPermissions(f.permissions() | QFileDevice::WriteOwner);
  if (f.open(QIODevice::Append)) f.write("\n");
  return copy;
}

// Answers item `index` wrong (the choice after the right one).
void answerWrong(QuizPanel& panel, int index) {
  panel.showQuestion(index);
  panel.answer((panel.correctShown() + 1) % 4);
}

// Points QStandardPaths (XDG_DATA_HOME) and the learner setting at a test's own state.
struct LearnerSandbox {
  QTemporaryDir data;
  QByteArray oldXdg = qgetenv("XDG_DATA_HOME");
  LearnerSandbox() {
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    qunsetenv("SHARDLAB_LEARNER");
    QSettings().remove(QStringLiteral("learner/name"));
  }
  ~LearnerSandbox() {
    QSettings().remove(QStringLiteral("learner/name"));
    if (oldXdg.isEmpty()) qunsetenv("XDG_DATA_HOME");
    else qputenv("XDG_DATA_HOME", oldXdg);
  }
};

} // namespace

TEST(QuizState, LessonAsAnswersNeverAppearInLessonBsReview) {
  Fixture f;
  NEED_TRACE(f); // lesson A: fsdp-shard-gather-free, on the FSDP run
  answerWrong(f.panel, f.panel.firstObservation());
  answerWrong(f.panel, 0); // a guide question too
  ASSERT_EQ(f.panel.review()->mistakeCount(), 2);
  // Lesson B on the same run: the same observation templates, none of them answered here.
  f.panel.setLesson(QStringLiteral("ddp-replicas"));
  f.panel.refreshObservations(trace_);
  ASSERT_GT(f.panel.questionCount(), 0);
  EXPECT_EQ(f.panel.review()->answerCount(), 0) << f.panel.review()->html().toStdString();
  for (int i = 0; i < f.panel.questionCount(); ++i) EXPECT_EQ(f.panel.controller().answerOf(i), nullptr) << i;
  // Lesson A again, on another run: its guide answer is there, the other run's observation answer is not.
  f.panel.setLesson(QStringLiteral("fsdp-shard-gather-free"));
  f.panel.refreshObservations(otherRunOf(trace_, f.dir));
  EXPECT_EQ(f.panel.review()->answerCount(), 1) << f.panel.review()->html().toStdString();
  EXPECT_EQ(f.panel.controller().answerOf(f.panel.firstObservation()), nullptr) << "answered about the first run only";
  // And back on the first run, both are listed again.
  f.panel.refreshObservations(trace_);
  EXPECT_EQ(f.panel.review()->answerCount(), 2);
}

TEST(QuizState, EachLessonsQuizStartsAtItsFirstQuestion) {
  Fixture f;
  f.panel.setLesson(QStringLiteral("fsdp-shard-gather-free"));
  ASSERT_EQ(f.panel.questionCount(), 4);
  f.panel.showQuestion(3);
  f.panel.setLesson(QStringLiteral("ddp-replicas"));
  EXPECT_EQ(f.panel.currentIndex(), 0);
  ASSERT_EQ(f.panel.questionCount(), 2) << "lesson 1 asks only its own questions";
  const auto bank = shardlab::quiz::QuestionBank::loadDirectory(LessonCatalog::assetsDirectory().toStdString() + "/quiz");
  for (int i = 0; i < f.panel.questionCount(); ++i)
    EXPECT_EQ(f.panel.controller().items()[static_cast<std::size_t>(i)].item.question.quiz, "ddp")
        << "lesson 1 (DDP) asks about DDP: " << f.panel.controller().items()[static_cast<std::size_t>(i)].item.question.id;
  EXPECT_EQ(f.panel.questionText().toStdString(), bank.find("ddp-1")->text.get("en"));
}

TEST(QuizState, ARestartKeepsTheAnswersButShowsNoEarlierPrediction) {
  Fixture f;
  NEED_TRACE(f);
  answerWrong(f.panel, f.panel.firstObservation());
  ASSERT_TRUE(f.panel.savePrediction(QStringLiteral("75 KiB")));
  ASSERT_FALSE(f.panel.predictionResult().isEmpty());
  // The app starts again on the same progress file (a new controller).
  QuizPanel again(f.model, f.playback);
  again.setProgressFile(f.dir.filePath(QStringLiteral("progress.json")));
  again.setLesson(QStringLiteral("fsdp-shard-gather-free"));
  again.refreshObservations(trace_);
  EXPECT_EQ(again.review()->mistakeCount(), 1) << "the answer was kept";
  EXPECT_TRUE(again.predictionResult().isEmpty()) << again.predictionResult().toStdString();
  EXPECT_FALSE(again.controller().checkPrediction().has_value()) << "another session's guess is not this learner's now";
  EXPECT_EQ(again.progress().predictions().size(), 1u) << "it is still in the file, for the instructor";
}

TEST(QuizState, ACorruptProgressFileIsNamedAndTheQuizStillWorks) {
  Fixture f;
  const QString bad = f.dir.filePath(QStringLiteral("broken-progress.json"));
  QFile out(bad);
  ASSERT_TRUE(out.open(QIODevice::WriteOnly));
  out.write("{\"format\": 2, \"answers\": [");
  out.close();
  f.panel.setProgressFile(bad);
  EXPECT_TRUE(f.panel.controller().progressProblem().contains(QStringLiteral("broken-progress.json")))
      << f.panel.controller().progressProblem().toStdString();
  f.panel.setLesson(QStringLiteral("ddp-replicas"));
  f.panel.answer(f.panel.correctShown());
  EXPECT_EQ(f.panel.progress().answers().size(), 1u);
  EXPECT_NO_THROW(shardlab::quiz::Progress::load(bad.toStdString())) << "the first answer replaced the bad file";
  // The broken file, which may hold earlier answers, was kept aside and named, not overwritten.
  const QStringList kept = QDir(f.dir.path()).entryList({QStringLiteral("broken-progress.json.corrupt-*")});
  ASSERT_EQ(kept.size(), 1) << QDir(f.dir.path()).entryList().join(QLatin1Char(' ')).toStdString();
  QFile keptFile(f.dir.filePath(kept.first()));
  ASSERT_TRUE(keptFile.open(QIODevice::ReadOnly));
  EXPECT_EQ(keptFile.readAll(), QByteArray("{\"format\": 2, \"answers\": ["));
  EXPECT_TRUE(f.panel.controller().progressProblem().contains(kept.first()))
      << f.panel.controller().progressProblem().toStdString();
}

TEST(QuizState, AnOpenedTraceOrAFreeExperimentStartsWithoutTheLessonsQuiz) {
  const QString trace = realFsdpTrace();
  if (trace.isEmpty()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  MainWindow w;
  QTemporaryDir dir;
  auto* quiz = w.quizPanel();
  quiz->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  ASSERT_TRUE(w.runLesson(QStringLiteral("fsdp-shard-gather-free"), true)); // waits for the prediction
  ASSERT_TRUE(quiz->hasPrediction());
  ASSERT_TRUE(w.flow().waitingForPrediction());
  EXPECT_TRUE(w.openTrace(trace).isEmpty());
  EXPECT_FALSE(w.flow().waitingForPrediction()) << "the lesson left behind does not start later";
  EXPECT_TRUE(quiz->lesson().isEmpty());
  EXPECT_FALSE(quiz->hasPrediction());
  EXPECT_TRUE(quiz->predictionResult().isEmpty());
  EXPECT_EQ(quiz->firstObservation(), 0) << "only questions about the trace opened";
  EXPECT_EQ(quiz->currentIndex(), 0);
  EXPECT_FALSE(w.findChild<QDockWidget*>(QStringLiteral("guide"))->isVisibleTo(&w)) << "no lesson, no guide";
  // The start page's free experiment leaves the lesson too.
  quiz->setLesson(QStringLiteral("tensor-parallel"));
  ASSERT_TRUE(quiz->hasPrediction());
  w.showStartPage();
  w.startPage()->findChild<QCommandLinkButton*>(QStringLiteral("free-experiment"))->click();
  EXPECT_TRUE(quiz->lesson().isEmpty());
  EXPECT_FALSE(quiz->hasPrediction());
  EXPECT_EQ(quiz->questionCount(), 0);
}

TEST(QuizState, TicksAndPredictionsBelongToTheLearner) {
  LearnerSandbox sandbox;
  {
    MainWindow w;
    auto* quiz = w.quizPanel();
    w.learnerMenu()->switchLearner(QStringLiteral("Anna"));
    // The file shardlab-quiz finds without Qt is the one the app writes (ProgressLocation.h).
    const auto dataDir = shardlab::quiz::dataDirectory(QCoreApplication::organizationName().toStdString(),
                                                       QCoreApplication::applicationName().toStdString());
    EXPECT_EQ(quiz->progress().file(), shardlab::quiz::progressFile(dataDir, "Anna"));
    EXPECT_EQ(dataDir.string().rfind(sandbox.data.path().toStdString(), 0), 0u) << dataDir;
    EXPECT_FALSE(w.startPage()->isCompleted(QStringLiteral("ddp-replicas")));
    quiz->setLesson(QStringLiteral("ddp-replicas"));
    ASSERT_TRUE(quiz->savePrediction(QStringLiteral("2 MiB")));
    quiz->showQuestion(0);
    quiz->answer(quiz->correctShown());
    EXPECT_FALSE(w.startPage()->isCompleted(QStringLiteral("ddp-replicas"))) << "one of two questions answered";
    quiz->showQuestion(1);
    quiz->answer((quiz->correctShown() + 1) % 4); // a wrong answer still completes the lesson
    EXPECT_TRUE(w.startPage()->isCompleted(QStringLiteral("ddp-replicas")));
    auto* list = w.startPage()->findChild<QListWidget*>(QStringLiteral("lessons"));
    ASSERT_NE(list, nullptr);
    EXPECT_TRUE(list->item(0)->text().startsWith(QStringLiteral("✓"))) << list->item(0)->text().toStdString();
    EXPECT_FALSE(list->item(1)->text().startsWith(QStringLiteral("✓")));
    // Another learner at the same PC: no ticks, no prediction, an empty review.
    w.learnerMenu()->switchLearner(QStringLiteral("Boris"));
    EXPECT_FALSE(w.startPage()->isCompleted(QStringLiteral("ddp-replicas")));
    EXPECT_TRUE(quiz->predictionResult().isEmpty()) << quiz->predictionResult().toStdString();
    EXPECT_EQ(quiz->review()->answerCount(), 0);
  }
  // A restart remembers the last learner (Boris); Anna's ticks come back with her name.
  MainWindow w;
  EXPECT_EQ(w.quizPanel()->controller().learner(), QStringLiteral("Boris"));
  EXPECT_FALSE(w.startPage()->isCompleted(QStringLiteral("ddp-replicas")));
  w.learnerMenu()->switchLearner(QStringLiteral("Anna"));
  EXPECT_TRUE(w.startPage()->isCompleted(QStringLiteral("ddp-replicas")));
  // Reset my progress (the menu confirms first; this is what it does then).
  w.learnerMenu()->resetProgress();
  EXPECT_FALSE(w.startPage()->isCompleted(QStringLiteral("ddp-replicas")));
  EXPECT_TRUE(shardlab::quiz::Progress::load(w.quizPanel()->progress().file()).answers().empty()) << "saved";
}

TEST(LessonFlow, TheGuideStaysBesideTheRunAndNextLessonWaitsForIt) {
  MainWindow w;
  QTemporaryDir dir;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  ASSERT_TRUE(w.runLesson(QStringLiteral("ddp-replicas"), true)); // waits for the prediction: no job yet
  auto* dock = w.findChild<QDockWidget*>(QStringLiteral("guide"));
  ASSERT_NE(dock, nullptr);
  EXPECT_TRUE(dock->isVisibleTo(&w));
  auto* guide = w.guidePanel();
  EXPECT_EQ(guide->lesson(), QStringLiteral("ddp-replicas"));
  EXPECT_TRUE(guide->guideMarkdown().contains(w.catalog().find(QStringLiteral("ddp-replicas"))->title()))
      << guide->guideMarkdown().toStdString();
  EXPECT_EQ(guide->nextLesson(), w.catalog().lessons().at(1).id);
  EXPECT_FALSE(guide->nextEnabled()) << "not before the lesson's run";
  guide->setRunDone(true);
  ASSERT_TRUE(guide->nextEnabled());
  guide->findChild<QPushButton*>(QStringLiteral("nextLesson"))->click();
  EXPECT_EQ(w.quizPanel()->lesson(), w.catalog().lessons().at(1).id);
  EXPECT_EQ(guide->lesson(), w.catalog().lessons().at(1).id);
  EXPECT_FALSE(guide->nextEnabled()) << "the next lesson has not run yet";
  EXPECT_EQ(w.quizPanel()->currentIndex(), 0);
  // The last lesson has no next one.
  GuidePanel last(w.catalog());
  last.setLesson(w.catalog().lessons().back().id);
  last.setRunDone(true);
  EXPECT_TRUE(last.nextLesson().isEmpty());
  EXPECT_FALSE(last.nextEnabled());
}

// The walk (25, 26): the Review tab stayed selected on the next lesson, showing "No answers
// yet in this quiz.". A new lesson opens on its questions.
TEST(QuizState, ANewLessonOpensOnTheQuestionsTab) {
  Fixture f;
  f.panel.setLesson(QStringLiteral("fsdp-shard-gather-free"));
  auto* tabs = f.panel.findChild<QTabWidget*>();
  ASSERT_NE(tabs, nullptr);
  tabs->setCurrentWidget(f.panel.review());
  f.panel.setLesson(QStringLiteral("ddp-replicas"));
  EXPECT_NE(tabs->currentWidget(), f.panel.review());
  EXPECT_EQ(tabs->currentIndex(), 0);
}

// The walk (08–23): the Quiz dock widened with a long explanation and narrowed again.
// Its width stays what the window gives it, question after question, answered or not.
TEST(QuizPanel, TheDockKeepsItsWidthFromQuestionToQuestion) {
  MainWindow w;
  QTemporaryDir dir;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  const QString trace = realFsdpTrace();
  if (trace.isEmpty()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  w.resize(1600, 1000);
  w.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
  ASSERT_TRUE(w.openTrace(trace).isEmpty());
  QuizPanel* panel = w.quizPanel();
  panel->setLesson(QStringLiteral("fsdp-shard-gather-free"));
  panel->refreshObservations(trace);
  auto* dock = w.findChild<QDockWidget*>(QStringLiteral("quiz"));
  dock->show();
  ASSERT_GT(panel->questionCount(), 5);
  QCoreApplication::processEvents();
  const int width = dock->width(), minimum = panel->minimumSizeHint().width();
  for (int i = 0; i < panel->questionCount(); ++i) {
    panel->showQuestion(i);
    QCoreApplication::processEvents();
    EXPECT_EQ(dock->width(), width) << "question " << i;
    EXPECT_EQ(panel->minimumSizeHint().width(), minimum) << "question " << i;
    panel->answer((panel->correctShown() + 1) % 4); // the longest text: the verdict and the explanation
    QCoreApplication::processEvents();
    EXPECT_EQ(dock->width(), width) << "question " << i << " answered";
    EXPECT_EQ(panel->minimumSizeHint().width(), minimum) << "question " << i << " answered";
  }
}

// The walk (115): after a first free experiment the Quiz dock was hidden, its questions unseen.
TEST(QuizState, AFreeExperimentsQuestionsAreShown) {
  if (realFsdpTrace().isEmpty()) FAIL() << "shardlab-run missing, though tests/app/CMakeLists.txt builds it first";
  MainWindow w;
  QTemporaryDir dir;
  w.quizPanel()->setProgressFile(dir.filePath(QStringLiteral("progress.json")));
  w.show();
  auto* dock = w.findChild<QDockWidget*>(QStringLiteral("quiz"));
  ASSERT_FALSE(dock->isVisible());
  QSignalSpy finished(&w.runner(), &JobRunner::finished);
  shardlab::JobConfig job;
  job.strategy = shardlab::StrategyKind::Fsdp;
  job.ranks = 2;
  job.steps = 2;
  job.device = shardlab::DeviceKind::Cpu;
  Q_EMIT w.experimentPanel()->runRequested(job); // the form's Run
  ASSERT_TRUE(finished.wait(180000)) << w.runner().standardError().toStdString();
  QCoreApplication::processEvents();
  ASSERT_GT(w.quizPanel()->questionCount(), 0);
  EXPECT_TRUE(dock->isVisible()) << "the run's questions are on screen";
}

TEST(QuizSentences, ADamagedSentencesFileIsNamedAndTheShippedOnesLoad) {
  const QString shipped = LessonCatalog::assetsDirectory();
  ASSERT_FALSE(shipped.isEmpty());
  EXPECT_EQ(QuizController::useSentences(shipped), QString());
  // A copy of the shipped sentences with one file cut in half.
  QTemporaryDir dir;
  ASSERT_TRUE(QDir(dir.path()).mkpath(QStringLiteral("observations")));
  for (const QString& name : QDir(shipped + QStringLiteral("/observations")).entryList(QDir::Files))
    ASSERT_TRUE(QFile::copy(shipped + QStringLiteral("/observations/") + name, dir.filePath(QStringLiteral("observations/") + name)));
  QFile damaged(dir.filePath(QStringLiteral("observations/fsdp.json")));
  ASSERT_TRUE(damaged.open(QIODevice::ReadOnly));
  const QByteArray half = damaged.readAll().left(200);
  damaged.close();
  ASSERT_TRUE(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
  damaged.write(half);
  damaged.close();
  const QString problem = QuizController::useSentences(dir.path());
  EXPECT_TRUE(problem.contains(QStringLiteral("fsdp.json"))) << problem.toStdString();
  EXPECT_FALSE(QuizController::useSentences(QString()).isEmpty());
  // What failed to load is not used: the shipped sentences stay in use.
  EXPECT_EQ(QuizController::useSentences(shipped), QString());
}
