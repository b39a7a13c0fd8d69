#include "MainWindow.h"

#include "models/AppSettings.h"
#include "models/JobText.h"
#include "models/LessonVerdict.h"
#include "models/TraceOpening.h"
#include "trace/ChromeTrace.h"
#include "views/Appearance.h"
#include "views/CompareWindow.h"
#include "views/ExperimentPanel.h"
#include "views/GuidePanel.h"
#include "views/HelpMenu.h"
#include "views/LabOpener.h"
#include "views/LabPanel.h"
#include "views/LearnerDialogs.h"
#include "views/LessonCheckBar.h"
#include "views/LogPane.h"
#include "views/PlaybackBar.h"
#include "views/QuizOverlay.h"
#include "views/QuizPanel.h"
#include "views/StartPage.h"
#include "views/WorkspacePage.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>

#include <fstream>
#include <functional>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), catalog_(LessonCatalog::load()), playback_(model_), flow_(model_, compare_) {
  setWindowTitle(tr("ShardLab"));
  setMinimumSize(960, 600);
  stack_ = new QStackedWidget(this);
  setCentralWidget(stack_);
  start_ = new StartPage(catalog_, stack_);
  stack_->addWidget(start_);
  workspace_ = new WorkspacePage(model_, compare_, playback_, flow_, stack_);
  stack_->addWidget(workspace_);
  connect(workspace_, &WorkspacePage::showRequested, this, &MainWindow::showWorkspace);
  connect(workspace_->quizOverlay(), &QuizOverlay::hideRequested, this, [this] { setQuizOverlayShown(false); });
  connect(&machine_, &MachineProfile::ready, this, [this] {
    catalog_.sizeFor(*machine_.calibration());
    start_->refresh();
    if (lab_) lab_->refresh();
  });
  machine_.start(JobRunner::findLauncher());
  buildDocks();
  connectFlow();
  connect(start_, &StartPage::lessonChosen, this, [this](const QString& id) { runLesson(id, true); });
  connect(start_, &StartPage::experimentChosen, this, [this] {
    leaveLesson();
    showWorkspace();
    experimentDock_->show();
  });
  connect(start_, &StartPage::openTraceChosen, this, &MainWindow::chooseTraceToOpen);
  retranslate(); // the menus and every text set in one place
  refreshCompletion();
  if (const QString problem = quiz_->controller().progressProblem(); !problem.isEmpty()) {
    showMessage(tr("Your progress file could not be read, so the quiz starts empty: %1").arg(problem), true);
    log_->append(problem + QLatin1Char('\n'));
  }
  resize(1280, 800);
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::addDock(const QString& name, QWidget* panel, Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(this); // titled by retranslate()
  dock->setObjectName(name);
  dock->setWidget(panel);
  addDockWidget(area, dock);
  return dock;
}

void MainWindow::buildDocks() {
  experiment_ = new ExperimentPanel(this);
  experimentDock_ = addDock(QStringLiteral("experiment"), experiment_, Qt::LeftDockWidgetArea);
  connect(experiment_, &ExperimentPanel::runRequested, this, [this](const shardlab::JobConfig& config) {
    compare_.clear();
    workspace_->clearComparison();
    workspace_->setLessonNote(QString());
    leaveLesson();
    flow_.runJob(config);
  });
  connect(experiment_, &ExperimentPanel::stopRequested, &flow_, &LessonFlow::stop);
  log_ = new LogPane(this);
  logDock_ = addDock(QStringLiteral("log"), log_, Qt::BottomDockWidgetArea);
  // The left docks (experiment form, guide, lab) keep the window's whole height; the log
  // spans only the views, so it never covers the form's Run and Stop buttons.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  // The quiz dock: guide and observation questions of the current lesson and run (QuizPanel).
  quiz_ = new QuizPanel(model_, playback_, this);
  quizDock_ = addDock(QStringLiteral("quiz"), quiz_, Qt::RightDockWidgetArea);
  quizDock_->hide();
  flow_.setQuiz(&quiz_->controller());
  connect(quiz_, &QuizPanel::lessonRunRequested, this, [this](const QString& id) { runLesson(id); });
  connect(quiz_, &QuizPanel::predictionDone, &flow_, &LessonFlow::predictionDone);
  // Saved or skipped: Space plays again instead of typing into the prediction box.
  connect(quiz_, &QuizPanel::predictionDone, this, &MainWindow::focusView);
  connect(&quiz_->controller(), &QuizController::progressChanged, this, &MainWindow::refreshCompletion);
  // The running lesson's guide stays beside the run (the start page that showed it is
  // replaced by the workspace when the job starts), with "Next lesson" once it ran. A tab
  // beside the experiment form: the quiz keeps the whole right side's height.
  guide_ = new GuidePanel(catalog_, this);
  guideDock_ = addDock(QStringLiteral("guide"), guide_, Qt::LeftDockWidgetArea);
  tabifyDockWidget(experimentDock_, guideDock_);
  guideDock_->hide();
  connect(guide_, &GuidePanel::nextLessonRequested, this, [this](const QString& id) {
    start_->selectLesson(id);
    runLesson(id, true);
  });
  // The lab dock: an open lab's title, steps and notes, tabbed with the experiment form when a lab opens.
  lab_ = new LabPanel(catalog_, this);
  labDock_ = addDock(QStringLiteral("lab"), lab_, Qt::LeftDockWidgetArea);
  labDock_->hide();
  lab_->setQuiz(&quiz_->controller());
  connect(lab_, &LabPanel::stepRunRequested, this, [this](const QString& id) { runLesson(id, true); });
  // A step made current before it runs: its questions are asked with its own job (the
  // step's spec over the lesson: "with 2 ranks"), not the previous lesson's.
  connect(lab_, &LabPanel::currentStepChanged, this, [this](const QString& id) {
    if (flow_.isRunning() || flow_.waitingForPrediction() || quiz_->lesson() == id) return;
    if (const Lesson* l = catalog_.find(id)) quiz_->controller().setPlaceholderValues(l->placeholderValues());
    quiz_->setLesson(id);
  });
}

void MainWindow::connectFlow() {
  for (auto* r : {&flow_.runner(), &flow_.comparisonRunner()}) {
    log_->follow(*r);
    connect(r, &JobRunner::started, experiment_, [this] { experiment_->setRunning(true); });
  }
  // A run that records nothing for a while says so, and when it will stop (its hang timeout).
  connect(&flow_.runner(), &JobRunner::silenceChanged, this, [this](const QString& text) {
    if (!text.isEmpty()) showMessage(text, true);
    else if (flow_.runner().isRunning()) showMessage(tr("Running: %1").arg(describeJob(flow_.runner().config())), false);
  });
  connect(&flow_, &LessonFlow::lessonStarting, this, &MainWindow::onLessonStarting);
  connect(&flow_, &LessonFlow::predictionAwaited, this, &MainWindow::onPredictionAwaited);
  connect(&flow_, &LessonFlow::jobStarting, this, &MainWindow::onJobStarting);
  connect(&flow_, &LessonFlow::runFinished, this, &MainWindow::onRunFinished);
  connect(&flow_, &LessonFlow::comparisonFinished, this,
          [this](JobRunner::Outcome, const QString& text) { onComparisonFinished(text); });
  connect(&flow_, &LessonFlow::lessonFinished, this, [this](bool ok) {
    if (const Lesson* l = catalog_.find(lessonId_); l && !lessonId_.isEmpty())
      workspace_->lessonCheck()->setVerdict(lessonVerdict(*l, model_, l->specs.size() > 1 ? &compare_ : nullptr));
    guide_->setRunDone(true);
    lab_->lessonFinished(lessonId_, ok);
    Q_EMIT lessonFinished(ok, workspace_->message());
  });
}

void MainWindow::buildMenus() {
  auto* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Start page"), this, &MainWindow::showStartPage);
  file->addAction(tr("&Open trace…"), QKeySequence::Open, this, &MainWindow::chooseTraceToOpen);
  file->addAction(tr("&Compare with trace…"), this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, tr("Compare with trace"));
    if (f.isEmpty()) return;
    const QString err = compare_.loadFile(f);
    if (!err.isEmpty()) showMessage(err, true);
    workspace_->compareWithFile(QFileInfo(f).fileName());
    auto* w = new CompareWindow(model_, compare_, this);
    w->show();
  });
  file->addAction(tr("Open &lab…"), this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, tr("Open lab"), labDialogFolder(), tr("ShardLab labs (*.json);;All files (*)"));
    if (!f.isEmpty()) openLabFile(f);
  });
  file->addSeparator();
  file->addAction(tr("Export &Chrome trace…"), this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, tr("Export Chrome trace"), QStringLiteral("shardlab.json"), tr("JSON (*.json)"));
    if (!f.isEmpty()) exportChromeTrace(f);
  });
  file->addAction(tr("Export &PNG of the view…"), this, [this] {
    const QString f = QFileDialog::getSaveFileName(this, tr("Export PNG"), QStringLiteral("shardlab.png"), tr("PNG (*.png)"));
    if (!f.isEmpty()) exportPng(f);
  });
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  auto* learner = menuBar()->addMenu(tr("L&earner"));
  learnerLabel_ = learner->addAction(QString());
  learnerLabel_->setEnabled(false);
  learner->addAction(tr("&Switch learner…"), this, [this] {
    if (const auto name = LearnerDialogs::askName(this, quiz_->controller().learner())) switchLearner(*name);
  });
  learner->addAction(tr("&Reset my progress…"), this, [this] {
    if (LearnerDialogs::confirmReset(this, quiz_->controller().learner())) resetProgress();
  });
  refreshCompletion(); // names the learner in the menu

  PlaybackBar::addActions(*menuBar()->addMenu(tr("&Playback")), playback_);

  auto* view = menuBar()->addMenu(tr("&View"));
  Appearance::addActions(*view, [this](bool on) { setPresentationLayout(on); });
  view->addSeparator();
  // Installing the translator sends LanguageChange to every widget: menus, tabs, docks,
  // the start page and the lesson guides switch now; views redraw in the new language.
  Appearance::addLanguageMenu(*view, [this] {
    showMessage(tr("Language changed. The experiment panel, the playback bar and the log show the new language after a restart."), false);
  });
  quizOverlayAction_ = view->addAction(tr("Quiz overlay (presentation)"));
  quizOverlayAction_->setCheckable(true);
  quizOverlayAction_->setShortcut(QKeySequence(Qt::Key_F9));
  quizOverlayAction_->setEnabled(presenting_);
  quizOverlayAction_->setChecked(workspace_->quizOverlayShown());
  connect(quizOverlayAction_, &QAction::triggered, this, &MainWindow::setQuizOverlayShown);
  view->addSeparator();
  for (auto* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
  HelpMenu::add(*menuBar(), *this);
}

void MainWindow::chooseTraceToOpen() {
  const QString f = QFileDialog::getOpenFileName(this, tr("Open trace"), QString(), tr("ShardLab traces (*.trace *.txt);;All files (*)"));
  if (!f.isEmpty()) openTrace(f);
}

void MainWindow::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) retranslate();
  QMainWindow::changeEvent(e);
}

QString MainWindow::shortcutsHtml() const { return HelpMenu::shortcutsHtml(*menuBar()); }

void MainWindow::retranslate() {
  setWindowTitle(tr("ShardLab"));
  if (menuBar()) {
    const auto old = menuBar()->actions();
    menuBar()->clear();
    for (auto* a : old)
      if (a->menu()) a->menu()->deleteLater(); // may be the menu whose action is running now
    buildMenus();
  }
  experimentDock_->setWindowTitle(tr("Experiment"));
  logDock_->setWindowTitle(tr("Log"));
  quizDock_->setWindowTitle(tr("Quiz"));
  guideDock_->setWindowTitle(tr("Guide"));
  labDock_->setWindowTitle(tr("Lab"));
}

void MainWindow::closeEvent(QCloseEvent* e) {
  flow_.stop();
  e->accept();
}

void MainWindow::showWorkspace() { stack_->setCurrentWidget(workspace_); }
void MainWindow::showStartPage() { stack_->setCurrentWidget(start_); }

void MainWindow::showMessage(const QString& text, bool problem) { workspace_->showMessage(text, problem); }

void MainWindow::report(const QString& text, bool problem) {
  showMessage(text, problem);
  log_->append(text + QLatin1Char('\n'));
}

void MainWindow::refreshCompletion() {
  if (!quiz_) return;
  const QString name = quiz_->controller().learner();
  if (learnerLabel_) learnerLabel_->setText(tr("Learner: %1").arg(name.isEmpty() ? tr("(no name)") : name));
  QStringList done;
  for (const auto& l : catalog_.lessons())
    if (quiz_->controller().lessonComplete(l.id, l.questionIds())) done << l.id;
  start_->setCompleted(done);
}

void MainWindow::switchLearner(const QString& name) {
  AppSettings::setLearner(name);
  quiz_->setLearner(name);
  refreshCompletion();
  showMessage(tr("Answers are now recorded for %1.").arg(name.isEmpty() ? tr("(no name)") : name), false);
}

void MainWindow::resetProgress() {
  quiz_->resetProgress();
  refreshCompletion();
  showMessage(tr("Your progress was reset."), false);
}

void MainWindow::leaveLesson() {
  if (flow_.waitingForPrediction()) flow_.stop(); // its job must not start once the prediction box is gone
  workspace_->leaveLesson();
  quiz_->setLesson(QString());
  guide_->setLesson(QString());
  guideDock_->hide();
}

void MainWindow::setPresentationLayout(bool on) {
  // On a projector the class watches the run: the form and the log make room for it
  // (the View menu's dock toggles bring them back).
  experimentDock_->setVisible(!on);
  logDock_->setVisible(!on);
  if (on == presenting_) return;
  // The guide and the sizing note too: the room reads the run; the instructor has the guide.
  if (on) guideDock_->hide();
  else if (!lessonId_.isEmpty()) guideDock_->show();
  presenting_ = on;
  workspace_->setPresenting(on);
  if (on) {
    // The quiz moves from its dock into the overlay, which keeps the dock's shown state.
    const bool shown = quizDock_->isVisible();
    workspace_->quizOverlay()->setQuiz(quiz_);
    quizDock_->hide();
    setQuizOverlayShown(shown);
  } else {
    const bool shown = workspace_->quizOverlayShown();
    workspace_->setQuizOverlayShown(false);
    workspace_->quizOverlay()->takeQuiz();
    quizDock_->setWidget(quiz_);
    quizDock_->setVisible(shown);
  }
  if (quizOverlayAction_) quizOverlayAction_->setEnabled(on);
  // The quiz is in the overlay while presenting: View → Quiz would show its empty dock.
  quizDock_->toggleViewAction()->setEnabled(!on);
}

void MainWindow::setQuizOverlayShown(bool shown) {
  if (!presenting_) return;
  workspace_->setQuizOverlayShown(shown);
  if (quizOverlayAction_) quizOverlayAction_->setChecked(shown);
}

void MainWindow::showQuiz() {
  if (presenting_) setQuizOverlayShown(true);
  else quizDock_->show();
}

QString MainWindow::openTrace(const QString& path) {
  showWorkspace();
  // A file that shows nothing leaves the run on screen as it was.
  const QFileInfo info(path);
  if (info.isFile() && info.size() == 0) {
    const QString err = tr("%1 is empty: there is no trace in it.").arg(info.fileName());
    report(err, true);
    return err;
  }
  // A damaged file replaces the run only with something readable (TraceOpening).
  TraceOpening opened = TraceOpening::read(path);
  const QString err = opened.problem;
  if (!opened.readable()) {
    const QString shown = tr("%1 The run on screen stays.").arg(err.isEmpty() ? tr("%1 holds no trace.").arg(info.fileName()) : err);
    report(shown, true);
    return err.isEmpty() ? shown : err;
  }
  playback_.setLive(false);
  compare_.clear();
  workspace_->clearComparison();
  model_.setTrace(std::move(opened.trace));
  playback_.fitDuration();
  // The opened file is the run now: the log, the title, the form and the quiz describe it.
  log_->clear();
  workspace_->setLessonNote(QString());
  lessonId_.clear();
  setWindowTitle(tr("ShardLab — %1").arg(info.fileName()));
  if (const auto config = model_.config()) {
    experiment_->setConfig(*config);
    const std::string& command = model_.trace().job->command;
    if (!command.empty()) log_->setCommandLine(QString::fromStdString(command));
  }
  leaveLesson();
  labDock_->hide(); // the lab's steps are not this trace (the lab stays open: View → Lab)
  quiz_->refreshObservations(path);
  if (quiz_->questionCount() > 0 && !presenting_) quizDock_->show();
  showMessage(err.isEmpty() ? QString() : tr("This trace could not be read completely: %1").arg(err), !err.isEmpty());
  if (!err.isEmpty()) log_->append(err + QLatin1Char('\n'));
  if (!opened.stopped) workspace_->showEnding(); // a whole run (lines skipped or not): how it ended
  return err;
}

bool MainWindow::runLesson(const QString& id, bool askPrediction) {
  const Lesson* l = catalog_.find(id);
  if (!l) {
    showMessage(tr("There is no lesson '%1'.").arg(id), true);
    return false;
  }
  // A lesson sized for this machine waits for its calibration (cached: at once).
  if (l->sizing && !machine_.calibration()) machine_.waitForCalibration();
  flow_.start(*l, askPrediction);
  return true;
}

void MainWindow::onLessonStarting(const Lesson& lesson) {
  workspace_->clearComparison();
  setWindowTitle(tr("ShardLab — %1").arg(lesson.title()));
  lessonId_ = lesson.id;
  // The size chosen for this machine; an open lab's notes are in the Lab dock.
  workspace_->setLessonNote(lesson.sizingMarkdown());
  const bool labStep = lab_->showStepOf(lesson.id);
  quiz_->setLesson(lesson.id);
  guide_->setLesson(lesson.id);
  // On a projector the run takes the width; View → Guide brings the guide back. A lab's
  // step keeps the Lab dock in front (its notes, steps and Next step), the guide beside it.
  if (!presenting_) {
    guideDock_->show();
    if (labStep) labDock_->show();
    (labStep ? labDock_ : guideDock_)->raise();
  }
}

void MainWindow::onPredictionAwaited() {
  showWorkspace();
  showQuiz();
  quiz_->setAwaitingPrediction(true);
  showMessage(quiz_->awaitingMessage(), false);
}

void MainWindow::onJobStarting(const shardlab::JobConfig& job) {
  workspace_->lessonCheck()->clear(); // a new run: the last lesson's check no longer describes what is shown
  showWorkspace();
  experiment_->setConfig(job);
  showMessage(tr("Running: %1").arg(describeJob(job)), false);
  log_->clear();
  playback_.setLive(true);
  playback_.setFollowLive(true);
}

void MainWindow::onRunFinished(JobRunner::Outcome outcome, const QString& text) {
  experiment_->setRunning(flow_.isRunning());
  playback_.setLive(false);
  playback_.setFollowLive(false);
  playback_.fitDuration();
  model_.breakdown(0); // the whole run's, not the last one computed while it streamed
  workspace_->refreshViews();
  quiz_->refreshObservations();
  // The run's questions are asked where they can be seen (a free experiment's too); on a
  // projector the instructor shows the overlay (F9).
  if (quiz_->questionCount() > 0 && !presenting_) quizDock_->show();
  report(text, outcome != JobRunner::Outcome::Finished);
  if (outcome == JobRunner::Outcome::RankFailed) workspace_->showEnding();
}

void MainWindow::onComparisonFinished(const QString& text) {
  experiment_->setRunning(flow_.isRunning());
  log_->append(text + QLatin1Char('\n'));
  const QStringList labels = flow_.runLabels();
  workspace_->showComparison(labels.value(0, tr("run A")), labels.value(1, tr("run B")));
  quiz_->refreshObservations(QString(), &compare_.trace());
  showMessage(tr("%1 — both runs side by side in \"Both runs\"; their figures in Plots → Compare runs.").arg(workspace_->message()),
              !flow_.lessonOk());
}

bool MainWindow::exportChromeTrace(const QString& path) {
  std::ofstream out(path.toStdString());
  if (out) shardlab::trace::writeChromeTrace(model_.trace(), out);
  return exported(static_cast<bool>(out), path, tr("Chrome trace written to %1"));
}

bool MainWindow::exportPng(const QString& path) {
  // The whole window, as the learner sees it: the view, the timeline, the caption and the docks.
  return exported(grab().save(path, "PNG"), path, tr("Picture of the window saved to %1"));
}

bool MainWindow::exported(bool ok, const QString& path, const QString& written) {
  if (!ok) showMessage(tr("Cannot write %1.").arg(path), true);
  statusBar()->showMessage(ok ? written.arg(QFileInfo(path).absoluteFilePath()) : tr("Cannot write %1.").arg(path));
  return ok;
}

bool MainWindow::openLabFile(const QString& path) {
  const auto result = openLab(path);
  if (!result.lab) {
    // Every error, each with its file and place, as LabLoader reports them.
    showMessage(tr("This lab has %n error(s); see the log.", nullptr, static_cast<int>(result.errors.size())), true);
    log_->append(result.errors.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    if (isVisible()) showLabErrors(this, path, result.errors);
    return false;
  }
  catalog_.setLab(*result.lab);
  start_->refresh();
  // The first step's questions are asked with its job (its spec over the lesson).
  if (!result.lab->steps.empty())
    if (const Lesson* first = catalog_.find(QString::fromStdString(result.lab->steps.front().lesson)))
      quiz_->controller().setPlaceholderValues(first->placeholderValues());
  quiz_->setLab(*result.lab);
  lab_->setLab(*result.lab);
  // The lab, its steps and this confirmation on screen, not on a page behind the start page.
  showWorkspace();
  if (labDock_->isHidden()) tabifyDockWidget(experimentDock_, labDock_);
  labDock_->show();
  labDock_->raise();
  // Opened before the window shows (--lab): a tab raises only once it is on screen.
  QTimer::singleShot(0, labDock_, &QDockWidget::raise);
  showQuiz();
  const QString title = QString::fromStdString(result.lab->title.get(AppSettings::effectiveLanguage().toStdString()));
  const QString confirmation = tr("Lab \"%1\" opened: %n step(s). Press \"Run this step\" in the Lab panel to start.",
                                  nullptr, static_cast<int>(result.lab->steps.size()))
                                   .arg(title);
  showMessage(confirmation, false);
  statusBar()->showMessage(confirmation, 20000);
  setWindowTitle(tr("ShardLab — %1").arg(title));
  return true;
}

void MainWindow::focusView() {
  if (stack_->currentWidget() == workspace_) workspace_->focusCurrentView();
}
