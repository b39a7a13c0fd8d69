#include "window/MainWindow.h"

#include "models/LessonVerdict.h"
#include "models/TraceOpening.h"
#include "views/Appearance.h"
#include "views/CompareWindow.h"
#include "views/ExperimentPanel.h"
#include "views/GuidePanel.h"
#include "views/HelpMenu.h"
#include "views/LabOpener.h"
#include "views/LabPanel.h"
#include "views/LearnerMenu.h"
#include "views/LessonCheckBar.h"
#include "views/LogPane.h"
#include "views/PlaybackBar.h"
#include "views/QuizPlace.h"
#include "views/QuizPanel.h"
#include "views/StartPage.h"
#include "views/WorkspacePage.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>

namespace shardlab::app {

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
    workspace_->showMessage(tr("Your progress file could not be read, so the quiz starts empty: %1").arg(problem), true);
    log_->append(problem + QLatin1Char('\n'));
  }
  resize(1280, 800);
}

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
    workspace_->startExperiment();
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
  quizPlace_ = new QuizPlace(*quiz_, *quizDock_, *workspace_, this);
  flow_.setQuiz(&quiz_->controller());
  connect(quiz_, &QuizPanel::lessonRunRequested, this, [this](const QString& id) { runLesson(id); });
  connect(quiz_, &QuizPanel::predictionDone, &flow_, &LessonFlow::predictionDone);
  // Saved or skipped: Space plays again instead of typing into the prediction box.
  connect(quiz_, &QuizPanel::predictionDone, this, &MainWindow::focusView);
  connect(&quiz_->controller(), &QuizController::progressChanged, this, &MainWindow::refreshCompletion);
  learner_ = new LearnerMenu(*quiz_, this);
  connect(learner_, &LearnerMenu::learnerChanged, this, &MainWindow::refreshCompletion);
  connect(learner_, &LearnerMenu::said, this, [this](const QString& text) { workspace_->showMessage(text, false); });
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
  for (auto* r : {&flow_.runner(), &flow_.comparisonRunner()}) log_->follow(*r);
  experiment_->follow(flow_);
  connect(&flow_, &LessonFlow::lessonStarting, this, &MainWindow::onLessonStarting);
  connect(&flow_, &LessonFlow::predictionAwaited, this, &MainWindow::onPredictionAwaited);
  connect(&flow_, &LessonFlow::jobStarting, log_, &LogPane::clear); // the log is the new run's
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
  // A PyTorch job writes one profiler trace per rank: the folder of them is the whole job.
  file->addAction(tr("Open PyTorch trace &folder…"), this, &MainWindow::choosePytorchFolderToOpen);
  file->addAction(tr("&Compare with trace…"), this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, tr("Compare with trace"));
    if (f.isEmpty()) return;
    workspace_->compareWithTrace(f);
    (new CompareWindow(model_, compare_, this))->show();
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

  learner_->addTo(*menuBar());

  PlaybackBar::addActions(*menuBar()->addMenu(tr("&Playback")), playback_);

  auto* view = menuBar()->addMenu(tr("&View"));
  Appearance::addActions(*view, [this](bool on) { setPresentationLayout(on); });
  view->addSeparator();
  // Installing the translator sends LanguageChange to every widget: menus, tabs, docks,
  // the start page and the lesson guides switch now; views redraw in the new language.
  Appearance::addLanguageMenu(*view, [this] {
    workspace_->showMessage(tr("Language changed. The experiment panel, the playback bar and the log show the new language after a restart."), false);
  });
  quizPlace_->addOverlayAction(*view);
  view->addSeparator();
  for (auto* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
  HelpMenu::add(*menuBar(), *this);
}

void MainWindow::chooseTraceToOpen() {
  const QString f = QFileDialog::getOpenFileName(
      this, tr("Open trace"), QString(),
      tr("Traces (*.trace *.txt *.json *.json.gz);;ShardLab traces (*.trace *.txt);;"
         "PyTorch profiler traces (*.pt.trace.json *.pt.trace.json.gz *.json *.json.gz);;All files (*)"));
  if (!f.isEmpty()) openTrace(f);
}

void MainWindow::choosePytorchFolderToOpen() {
  const QString d = QFileDialog::getExistingDirectory(this, tr("Open a folder of PyTorch profiler traces, one per rank"));
  if (!d.isEmpty()) openTrace(d);
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

void MainWindow::report(const QString& text, bool problem) {
  workspace_->showMessage(text, problem);
  log_->append(text + QLatin1Char('\n'));
}

void MainWindow::refreshCompletion() {
  if (quiz_) start_->showCompletion(quiz_->controller());
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
  if (on == presentationLayout()) return;
  // The guide and the sizing note too: the room reads the run; the instructor has the guide.
  if (on) guideDock_->hide();
  else if (!lessonId_.isEmpty()) guideDock_->show();
  workspace_->setPresenting(on);
  quizPlace_->setPresenting(on); // the quiz moves into the overlay or back into its dock
}

bool MainWindow::presentationLayout() const { return quizPlace_->presenting(); }
void MainWindow::showQuiz() { quizPlace_->show(); }

QString MainWindow::openTrace(const QString& path) {
  showWorkspace();
  // A damaged file replaces the run only with something readable; one that shows
  // nothing leaves the run on screen as it was (TraceOpening).
  TraceOpening opened = TraceOpening::read(path);
  const QString err = opened.problem;
  if (!opened.readable()) {
    report(opened.refusal(), true);
    return err.isEmpty() ? opened.refusal() : err;
  }
  workspace_->showTrace(std::move(opened.trace));
  // The opened file is the run now: the log, the title, the form and the quiz describe it.
  log_->clear();
  lessonId_.clear();
  setWindowTitle(tr("ShardLab — %1").arg(QFileInfo(path).fileName()));
  // An imported trace's job record holds only what the profiler showed: the form would
  // show defaults (batch, sizes) as if they were the job's, so it keeps what it had.
  if (opened.imported) log_->append(opened.importNote() + QLatin1Char('\n'));
  if (const auto config = model_.config(); config && !opened.imported) {
    experiment_->setConfig(*config);
    const std::string& command = model_.trace().job->command;
    if (!command.empty()) log_->setCommandLine(QString::fromStdString(command));
  }
  leaveLesson();
  labDock_->hide(); // the lab's steps are not this trace (the lab stays open: View → Lab)
  quiz_->refreshObservations(path);
  quizPlace_->offerQuestions();
  const bool whole = err.isEmpty();
  workspace_->showMessage(opened.imported && whole ? opened.importedMessage(model_.summary().stepsCompleted) : opened.damage(), !whole);
  if (!err.isEmpty()) log_->append(err + QLatin1Char('\n'));
  if (!opened.stopped) workspace_->showEnding(); // a whole run (lines skipped or not): how it ended
  return err;
}

bool MainWindow::runLesson(const QString& id, bool askPrediction) {
  const Lesson* l = catalog_.find(id);
  if (!l) {
    workspace_->showMessage(tr("There is no lesson '%1'.").arg(id), true);
    return false;
  }
  // A lesson sized for this machine waits for its calibration (cached: at once).
  if (l->sizing && !machine_.calibration()) machine_.waitForCalibration();
  flow_.start(*l, askPrediction);
  return true;
}

void MainWindow::onLessonStarting(const Lesson& lesson) {
  setWindowTitle(tr("ShardLab — %1").arg(lesson.title()));
  lessonId_ = lesson.id;
  const bool labStep = lab_->showStepOf(lesson.id);
  quiz_->setLesson(lesson.id);
  guide_->setLesson(lesson.id);
  // On a projector the run takes the width; View → Guide brings the guide back. A lab's
  // step keeps the Lab dock in front (its notes, steps and Next step), the guide beside it.
  if (!presentationLayout()) {
    guideDock_->show();
    if (labStep) labDock_->show();
    (labStep ? labDock_ : guideDock_)->raise();
  }
}

void MainWindow::onPredictionAwaited() {
  showWorkspace();
  showQuiz();
  quiz_->setAwaitingPrediction(true);
  workspace_->showMessage(quiz_->awaitingMessage(), false);
}

void MainWindow::onRunFinished(JobRunner::Outcome outcome, const QString& text) {
  quiz_->refreshObservations();
  // The run's questions are asked where they can be seen (a free experiment's too).
  quizPlace_->offerQuestions();
  report(text, outcome != JobRunner::Outcome::Finished);
  if (outcome == JobRunner::Outcome::RankFailed) workspace_->showEnding();
}

void MainWindow::onComparisonFinished(const QString& text) {
  log_->append(text + QLatin1Char('\n'));
  const QStringList labels = flow_.runLabels();
  workspace_->showComparison(labels.value(0, tr("run A")), labels.value(1, tr("run B")));
  quiz_->refreshObservations(QString(), &compare_.trace());
  workspace_->showMessage(tr("%1 — both runs side by side in \"Both runs\"; their figures in Plots → Compare runs.").arg(workspace_->message()),
              !flow_.lessonOk());
}

bool MainWindow::exportChromeTrace(const QString& path) {
  return exported(model_.writeChromeTrace(path), path, tr("Chrome trace written to %1"));
}

bool MainWindow::exportPng(const QString& path) {
  // The whole window, as the learner sees it: the view, the timeline, the caption and the docks.
  return exported(grab().save(path, "PNG"), path, tr("Picture of the window saved to %1"));
}

bool MainWindow::exported(bool ok, const QString& path, const QString& written) {
  if (!ok) workspace_->showMessage(tr("Cannot write %1.").arg(path), true);
  statusBar()->showMessage(ok ? written.arg(QFileInfo(path).absoluteFilePath()) : tr("Cannot write %1.").arg(path));
  return ok;
}

bool MainWindow::openLabFile(const QString& path) {
  const auto result = openLab(path);
  if (!result.lab) {
    // Every error, each with its file and place, as LabLoader reports them.
    workspace_->showMessage(tr("This lab has %n error(s); see the log.", nullptr, static_cast<int>(result.errors.size())), true);
    log_->append(result.errors.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    if (isVisible()) showLabErrors(this, path, result.errors);
    return false;
  }
  installLab(*result.lab, catalog_, *quiz_, *lab_);
  start_->refresh();
  // The lab, its steps and this confirmation on screen, not on a page behind the start page.
  showWorkspace();
  if (labDock_->isHidden()) tabifyDockWidget(experimentDock_, labDock_);
  labDock_->show();
  labDock_->raise();
  // Opened before the window shows (--lab): a tab raises only once it is on screen.
  QTimer::singleShot(0, labDock_, &QDockWidget::raise);
  showQuiz();
  workspace_->showMessage(labOpenedText(*result.lab), false);
  statusBar()->showMessage(labOpenedText(*result.lab), 20000);
  setWindowTitle(tr("ShardLab — %1").arg(labTitle(*result.lab)));
  return true;
}

void MainWindow::focusView() {
  if (stack_->currentWidget() == workspace_) workspace_->focusCurrentView();
}

} // namespace shardlab::app
