#include "MainWindow.h"

#include "models/AppSettings.h"
#include "models/JobText.h"
#include "models/TraceOpening.h"
#include "models/LessonVerdict.h"
#include "views/CaptionBar.h"
#include "views/LessonCheckBar.h"
#include "trace/ChromeTrace.h"
#include "views/CompareView.h"
#include "views/CompareWindow.h"
#include "views/ExperimentPanel.h"
#include "views/GuidePanel.h"
#include "views/LearnerDialogs.h"
#include "views/LogPane.h"
#include "views/Palette.h"
#include "views/PipelineView.h"
#include "views/PlaybackBar.h"
#include "views/PlotsView.h"
#include "views/LabOpener.h"
#include "views/LabPanel.h"
#include "views/QuizPanel.h"
#include "views/RankView.h"
#include "views/StartPage.h"
#include "views/LedgerView.h"
#include "views/SummaryView.h"
#include "views/TimelineView.h"

#include <QAction>
#include <QActionGroup>
#include <QButtonGroup>
#include <QToolButton>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFrame>
#include <QFileDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

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
  connect(&machine_, &MachineProfile::ready, this, [this] {
    catalog_.sizeFor(*machine_.calibration());
    start_->refresh();
    if (lab_) lab_->refresh();
  });
  machine_.start(JobRunner::findLauncher());

  auto* work = workspace_ = new QWidget(stack_);
  auto* wl = new QVBoxLayout(work);
  wl->setContentsMargins(4, 4, 4, 4);
  auto* header = new QHBoxLayout;
  runLabel_ = new QLabel(work);
  QFont bold = runLabel_->font();
  bold.setBold(true);
  runLabel_->setFont(bold);
  progress_ = new QProgressBar(work);
  progress_->setFormat(tr("%v / %m steps"));
  progress_->setMaximumWidth(260);
  progress_->setMinimumWidth(progress_->fontMetrics().horizontalAdvance(QStringLiteral("100 / 100 steps")) + 24);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  // The switch over the same views: what was measured, or a replay of it
  // (docs/replay.md), always labelled as such in the run label and the pipeline header.
  shownSwitch_ = new QWidget(work);
  shownSwitch_->setObjectName(QStringLiteral("shownSwitch"));
  auto* sl = new QHBoxLayout(shownSwitch_);
  sl->setContentsMargins(0, 0, 0, 0);
  sl->setSpacing(0);
  shownGroup_ = new QButtonGroup(shownSwitch_);
  shownGroup_->setExclusive(true);
  for (int id = 0; id < 3; ++id) {
    auto* b = new QToolButton(shownSwitch_);
    b->setCheckable(true);
    b->setAutoRaise(false);
    b->setObjectName(QStringList{QStringLiteral("showMeasured"), QStringLiteral("showScheduleAlone"),
                                 QStringLiteral("showProjected")}[id]);
    shownGroup_->addButton(b, id);
    sl->addWidget(b);
  }
  shownGroup_->button(0)->setChecked(true);
  connect(shownGroup_, &QButtonGroup::idClicked, this, [this](int id) {
    showRun(id == 0   ? std::nullopt
            : id == 1 ? std::optional(shardlab::trace::ReplayMode::ScheduleAlone)
                      : std::optional(shardlab::trace::ReplayMode::Reference));
  });
  header->addWidget(runLabel_, 1);
  header->addWidget(shownSwitch_);
  header->addWidget(progress_);
  wl->addLayout(header);
  message_label_ = new QLabel(work);
  message_label_->setWordWrap(true);
  message_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_label_->hide();
  wl->addWidget(message_label_);
  lessonNote_ = new QLabel(work);
  lessonNote_->setObjectName(QStringLiteral("lessonNote"));
  lessonNote_->setTextFormat(Qt::MarkdownText);
  lessonNote_->setWordWrap(true);
  lessonNote_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  lessonNote_->hide();
  wl->addWidget(lessonNote_);
  // After a lesson's runs: did its point show here, and if not, why (the lesson's check).
  lessonCheck_ = new LessonCheckBar(work);
  wl->addWidget(lessonCheck_);
  connect(lessonCheck_, &LessonCheckBar::replayRequested, this, [this](shardlab::trace::ReplayMode mode) {
    showRun(mode);
    syncShownSwitch();
  });

  auto* split = new QSplitter(Qt::Vertical, work);
  tabs_ = new QTabWidget(split);
  rankView_ = new RankView(model_, tabs_);
  pipeline_ = new PipelineView(model_, tabs_);
  plots_ = new PlotsView(model_, tabs_);
  summary_ = new SummaryView(model_, tabs_);
  ledger_ = new LedgerView(model_, tabs_);
  compareView_ = new CompareView(model_, compare_, tabs_);
  compareView_->setObjectName(QStringLiteral("bothRuns"));
  playback_.setFollower(&compareView_->follower()); // a comparison plays both runs to their ends
  tabs_->addTab(rankView_, tr("Ranks"));
  tabs_->addTab(pipeline_, tr("Pipeline"));
  tabs_->addTab(plots_, tr("Plots"));
  tabs_->addTab(summary_, tr("Summary"));
  tabs_->addTab(ledger_, tr("Memory ledger"));
  tabs_->addTab(compareView_, tr("Both runs")); // offered while there is a comparison run
  timeline_ = new TimelineView(model_, split);
  // Click a view to focus it; the playback shortcuts (window-wide) then still apply.
  for (QWidget* view : std::initializer_list<QWidget*>{rankView_, compareView_, timeline_, pipeline_, plots_, summary_})
    view->setFocusPolicy(Qt::StrongFocus);
  split->addWidget(tabs_);
  split->addWidget(timeline_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  wl->addWidget(split, 1);
  caption_ = new CaptionBar(model_, work);
  wl->addWidget(caption_);
  playbar_ = new PlaybackBar(playback_, work);
  wl->addWidget(playbar_);
  stack_->addWidget(work);

  auto* expDock = new QDockWidget(tr("Experiment"), this);
  expDock->setObjectName(QStringLiteral("experiment"));
  experiment_ = new ExperimentPanel(expDock);
  expDock->setWidget(experiment_);
  addDockWidget(Qt::LeftDockWidgetArea, expDock);
  auto* logDock = new QDockWidget(tr("Log"), this);
  logDock->setObjectName(QStringLiteral("log"));
  log_ = new LogPane(logDock);
  logDock->setWidget(log_);
  addDockWidget(Qt::BottomDockWidgetArea, logDock);
  // The left docks (experiment form, guide, lab) keep the window's whole height; the log
  // spans only the views, so it never covers the form's Run and Stop buttons.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  // The quiz dock: guide and observation questions of the current lesson and run (QuizPanel).
  quizDock_ = new QDockWidget(tr("Quiz"), this);
  quizDock_->setObjectName(QStringLiteral("quiz"));
  quiz_ = new QuizPanel(model_, playback_, quizDock_);
  quizDock_->setWidget(quiz_);
  connect(quiz_, &QuizPanel::lessonRunRequested, this, [this](const QString& id) { runLesson(id); });
  connect(quiz_, &QuizPanel::predictionDone, &flow_, &LessonFlow::predictionDone);
  // Saved or skipped: Space plays again instead of typing into the prediction box.
  connect(quiz_, &QuizPanel::predictionDone, this, &MainWindow::focusView);
  addDockWidget(Qt::RightDockWidgetArea, quizDock_);
  quizDock_->hide();
  // Presentation mode: the quiz over the right part of the views, shown or hidden by the
  // instructor, so the room sees the run at full width the rest of the time.
  quizOverlay_ = new QFrame(workspace_);
  quizOverlay_->setObjectName(QStringLiteral("quizOverlay"));
  static_cast<QFrame*>(quizOverlay_)->setFrameShape(QFrame::StyledPanel);
  quizOverlay_->setAutoFillBackground(true);
  auto* overlayLayout = new QVBoxLayout(quizOverlay_);
  overlayLayout->setContentsMargins(6, 6, 6, 6);
  auto* overlayHead = new QHBoxLayout;
  auto* overlayTitle = new QLabel(quizOverlay_);
  overlayTitle->setObjectName(QStringLiteral("quizOverlayTitle"));
  auto* overlayHide = new QToolButton(quizOverlay_);
  overlayHide->setObjectName(QStringLiteral("quizOverlayHide"));
  overlayHead->addWidget(overlayTitle, 1);
  overlayHead->addWidget(overlayHide);
  overlayLayout->addLayout(overlayHead);
  // The questions scroll inside the overlay rather than squeeze their lines together.
  auto* overlayScroll = new QScrollArea(quizOverlay_);
  overlayScroll->setObjectName(QStringLiteral("quizOverlayScroll"));
  overlayScroll->setWidgetResizable(true);
  overlayScroll->setFrameShape(QFrame::NoFrame);
  overlayScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  overlayLayout->addWidget(overlayScroll, 1);
  connect(overlayHide, &QToolButton::clicked, this, [this] { setQuizOverlayShown(false); });
  quizOverlay_->hide();
  workspace_->installEventFilter(this);
  // The running lesson's guide stays beside the run (the start page that showed it is
  // replaced by the workspace when the job starts), with "Next lesson" once it ran.
  guideDock_ = new QDockWidget(tr("Guide"), this);
  guideDock_->setObjectName(QStringLiteral("guide"));
  guide_ = new GuidePanel(catalog_, guideDock_);
  guideDock_->setWidget(guide_);
  // A tab beside the experiment form: the quiz keeps the whole right side's height.
  addDockWidget(Qt::LeftDockWidgetArea, guideDock_);
  tabifyDockWidget(expDock, guideDock_);
  guideDock_->hide();
  connect(guide_, &GuidePanel::nextLessonRequested, this, [this](const QString& id) {
    start_->selectLesson(id);
    runLesson(id, true);
  });
  connect(&quiz_->controller(), &QuizController::progressChanged, this, &MainWindow::refreshCompletion);
  // The lab dock: an open lab's title, steps and notes, beside the experiment form.
  labDock_ = new QDockWidget(tr("Lab"), this);
  labDock_->setObjectName(QStringLiteral("lab"));
  lab_ = new LabPanel(catalog_, labDock_);
  labDock_->setWidget(lab_);
  addDockWidget(Qt::LeftDockWidgetArea, labDock_);
  labDock_->hide(); // tabbed with the experiment form when a lab opens
  connect(lab_, &LabPanel::stepRunRequested, this, [this](const QString& id) { runLesson(id, true); });
  lab_->setQuiz(&quiz_->controller());
  // A step made current before it runs: its questions are asked with its own job (the
  // step's spec over the lesson: "with 2 ranks"), not the previous lesson's.
  connect(lab_, &LabPanel::currentStepChanged, this, [this](const QString& id) {
    if (flow_.isRunning() || flow_.waitingForPrediction() || quiz_->lesson() == id) return;
    if (const Lesson* l = catalog_.find(id)) quiz_->controller().setPlaceholderValues(l->placeholderValues());
    quiz_->setLesson(id);
  });

  // Data flow: runner -> model -> (coalesced) views; playback -> views.
  viewTimer_.setSingleShot(true);
  viewTimer_.setInterval(40);
  slowTimer_.setSingleShot(true);
  slowTimer_.setInterval(500);
  connect(&model_, &TraceModel::appended, this, [this] {
    playback_.modelChanged();
    if (!viewTimer_.isActive()) viewTimer_.start();
    if (!slowTimer_.isActive()) slowTimer_.start();
  });
  connect(&model_, &TraceModel::reset, this, &MainWindow::onModelReset);
  // The comparison run streams into its own model; the "Both runs" tab shows it beside the first.
  connect(&compare_, &TraceModel::appended, this, [this] {
    if (!viewTimer_.isActive()) viewTimer_.start();
  });
  connect(&compare_, &TraceModel::reset, this, [this] {
    compareView_->modelReset();
    syncCompareTab();
  });
  connect(&viewTimer_, &QTimer::timeout, this, [this] {
    runLabel_->setText(model_.runLabel());
    timeline_->modelChanged();
    rankView_->update();
    pipeline_->update();
    if (comparisonShown()) {
      syncCompareTab(); // offered as soon as the comparison run streams in
      compareView_->modelChanged();
    }
    caption_->setTime(playback_.time());
    playbar_->refresh();
  });
  connect(&slowTimer_, &QTimer::timeout, this, [this] {
    if (tabs_->currentWidget() == plots_) plots_->rebuild();
    if (tabs_->currentWidget() == summary_) summary_->rebuild();
    if (tabs_->currentWidget() == ledger_) ledger_->rebuild();
  });
  connect(tabs_, &QTabWidget::currentChanged, this, [this] {
    // Both runs has a timeline per run: the window's own makes room for them.
    timeline_->setVisible(tabs_->currentWidget() != compareView_);
    if (tabs_->currentWidget() == plots_) plots_->rebuild();
    if (tabs_->currentWidget() == summary_) summary_->rebuild();
    if (tabs_->currentWidget() == ledger_) ledger_->rebuild();
  });
  for (auto* r : {&flow_.runner(), &flow_.comparisonRunner()}) {
    connect(r, &JobRunner::logText, log_, &LogPane::append);
    connect(r, &JobRunner::started, this, [this](const QString& cmd) {
      log_->setCommandLine(cmd);
      log_->append(QStringLiteral("$ %1\n").arg(cmd));
      experiment_->setRunning(true);
    });
  }
  connect(&flow_.runner(), &JobRunner::progress, this, [this](int done, int planned) {
    progress_->setRange(0, std::max(1, planned));
    progress_->setValue(std::min(done, std::max(1, planned)));
    progress_->setFormat(planned > 0 ? tr("%v / %m steps") : tr("no run"));
  });
  // A run that records nothing for a while says so, and when it will stop (its hang timeout).
  connect(&flow_.runner(), &JobRunner::silenceChanged, this, [this](const QString& text) {
    if (!text.isEmpty()) showMessage(text, true);
    else if (flow_.runner().isRunning()) showMessage(tr("Running: %1").arg(describeJob(flow_.runner().config())), false);
  });
  connect(&flow_, &LessonFlow::jobStarting, this, &MainWindow::onJobStarting);
  connect(&flow_, &LessonFlow::runFinished, this, &MainWindow::onRunFinished);
  connect(&flow_, &LessonFlow::comparisonFinished, this,
          [this](JobRunner::Outcome, const QString& text) { onComparisonFinished(text); });
  connect(&flow_, &LessonFlow::lessonFinished, this, [this](bool ok) {
    if (const Lesson* l = catalog_.find(lessonId_); l && !lessonId_.isEmpty())
      lessonCheck_->setVerdict(lessonVerdict(*l, model_, l->specs.size() > 1 ? &compare_ : nullptr));
    guide_->setRunDone(true);
    lab_->lessonFinished(lessonId_, ok);
    Q_EMIT lessonFinished(ok, message_);
  });
  connect(&playback_, &PlaybackController::timeChanged, rankView_, &RankView::setTime);
  connect(&playback_, &PlaybackController::timeChanged, timeline_, &TimelineView::setTime);
  connect(&playback_, &PlaybackController::timeChanged, pipeline_, &PipelineView::setTime);
  connect(&playback_, &PlaybackController::timeChanged, caption_, &CaptionBar::setTime);
  connect(&playback_, &PlaybackController::timeChanged, plots_, &PlotsView::setTime);
  connect(&playback_, &PlaybackController::timeChanged, compareView_, &CompareView::setTime);
  connect(compareView_, &CompareView::timeRequested, &playback_, [this](qint64 t) {
    playback_.setFollowLive(false);
    playback_.setTime(t);
  });
  connect(timeline_, &TimelineView::timeRequested, &playback_, [this](qint64 t) {
    playback_.setFollowLive(false);
    playback_.setTime(t);
  });
  connect(start_, &StartPage::lessonChosen, this, [this](const QString& id) { runLesson(id, true); });
  connect(start_, &StartPage::experimentChosen, this, [this] {
    leaveLesson();
    showWorkspace();
    experiment_->parentWidget()->show();
  });
  connect(start_, &StartPage::openTraceChosen, this, &MainWindow::chooseTraceToOpen);
  connect(experiment_, &ExperimentPanel::runRequested, this, [this](const shardlab::JobConfig& config) {
    compare_.clear();
    plots_->setComparison(nullptr, {}, {});
    lessonNote_->hide();
    leaveLesson();
    flow_.runJob(config);
  });
  connect(experiment_, &ExperimentPanel::stopRequested, &flow_, &LessonFlow::stop);
  retranslate(); // the menus and every text set in one place
  onModelReset();
  refreshCompletion();
  if (const QString problem = quiz_->controller().progressProblem(); !problem.isEmpty()) {
    showMessage(tr("Your progress file could not be read, so the quiz starts empty: %1").arg(problem), true);
    log_->append(problem + QLatin1Char('\n'));
  }
  resize(1280, 800);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
  auto* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("&Start page"), this, &MainWindow::showStartPage);
  file->addAction(tr("&Open trace…"), QKeySequence::Open, this, &MainWindow::chooseTraceToOpen);
  file->addAction(tr("&Compare with trace…"), this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, tr("Compare with trace"));
    if (f.isEmpty()) return;
    const QString err = compare_.loadFile(f);
    if (!err.isEmpty()) showMessage(err, true);
    plots_->setComparison(&compare_, tr("this run"), QFileInfo(f).fileName());
    ledger_->setComparison(&compare_, tr("this run"), QFileInfo(f).fileName());
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

  auto* play = menuBar()->addMenu(tr("&Playback"));
  auto add = [&](const QString& text, const QKeySequence& key, auto slot) {
    auto* a = play->addAction(text);
    a->setShortcut(key);
    a->setShortcutContext(Qt::WindowShortcut);
    connect(a, &QAction::triggered, &playback_, slot);
  };
  add(tr("Play / pause"), QKeySequence(Qt::Key_Space), &PlaybackController::togglePlay);
  add(tr("Next event"), QKeySequence(Qt::Key_Right), &PlaybackController::nextEvent);
  add(tr("Previous event"), QKeySequence(Qt::Key_Left), &PlaybackController::previousEvent);
  add(tr("Next collective"), QKeySequence(Qt::CTRL | Qt::Key_Right), &PlaybackController::nextCollective);
  add(tr("Previous collective"), QKeySequence(Qt::CTRL | Qt::Key_Left), &PlaybackController::previousCollective);
  add(tr("Next phase"), QKeySequence(Qt::SHIFT | Qt::Key_Right), &PlaybackController::nextPhase);
  add(tr("Previous phase"), QKeySequence(Qt::SHIFT | Qt::Key_Left), &PlaybackController::previousPhase);
  add(tr("Start"), QKeySequence(Qt::Key_Home), &PlaybackController::home);
  add(tr("End"), QKeySequence(Qt::Key_End), &PlaybackController::toEnd);
  add(tr("Faster"), QKeySequence(Qt::Key_Plus), &PlaybackController::faster);
  add(tr("Faster"), QKeySequence(Qt::Key_Equal), &PlaybackController::faster);
  add(tr("Slower"), QKeySequence(Qt::Key_Minus), &PlaybackController::slower);

  auto* view = menuBar()->addMenu(tr("&View"));
  auto* themes = new QActionGroup(view);
  for (const auto& [code, name] : {std::pair{QStringLiteral("light"), tr("Light theme")}, std::pair{QStringLiteral("dark"), tr("Dark theme")}}) {
    auto* a = view->addAction(name);
    a->setCheckable(true);
    a->setChecked(AppSettings::theme() == code);
    themes->addAction(a);
    connect(a, &QAction::triggered, this, [code] {
      AppSettings::setTheme(code);
      AppSettings::applyAppearance(*qApp);
    });
  }
  view->addSeparator();
  auto* pres = view->addAction(tr("Presentation mode (large)"));
  pres->setCheckable(true);
  pres->setChecked(AppSettings::presentation());
  pres->setShortcut(QKeySequence(Qt::Key_F11));
  connect(pres, &QAction::toggled, this, [this](bool on) {
    AppSettings::setPresentation(on);
    AppSettings::applyAppearance(*qApp);
    setPresentationLayout(on);
  });
  view->addAction(tr("Larger text"), QKeySequence::ZoomIn, this, [] {
    AppSettings::setFontScale(std::min(3.0, AppSettings::fontScale() * 1.15));
    AppSettings::applyAppearance(*qApp);
  });
  view->addAction(tr("Smaller text"), QKeySequence::ZoomOut, this, [] {
    AppSettings::setFontScale(std::max(0.6, AppSettings::fontScale() / 1.15));
    AppSettings::applyAppearance(*qApp);
  });
  view->addSeparator();
  auto* lang = view->addMenu(tr("Language"));
  auto* langs = new QActionGroup(lang);
  for (const auto& [code, name] : {std::pair{QStringLiteral("en"), QStringLiteral("English")},
                                   std::pair{QStringLiteral("fr"), QStringLiteral("Français")},
                                   std::pair{QStringLiteral("ru"), QStringLiteral("Русский")}}) {
    auto* a = lang->addAction(name);
    a->setCheckable(true);
    a->setChecked(AppSettings::language() == code);
    langs->addAction(a);
    connect(a, &QAction::triggered, this, [this, code] {
      AppSettings::setLanguageOverride(QString());
      AppSettings::setLanguage(code);
      // Installing the translator sends LanguageChange to every widget: menus, tabs, docks,
      // the start page and the lesson guides switch now; views redraw in the new language.
      AppSettings::applyLanguage(*qApp);
      showMessage(tr("Language changed. The experiment panel, the playback bar and the log show the new language after a restart."), false);
    });
  }
  quizOverlayAction_ = view->addAction(tr("Quiz overlay (presentation)"));
  quizOverlayAction_->setCheckable(true);
  quizOverlayAction_->setShortcut(QKeySequence(Qt::Key_F9));
  quizOverlayAction_->setEnabled(presenting_);
  quizOverlayAction_->setChecked(quizOverlayShown());
  connect(quizOverlayAction_, &QAction::triggered, this, &MainWindow::setQuizOverlayShown);
  view->addSeparator();
  for (auto* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());
  auto* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&Keyboard shortcuts"), QKeySequence::HelpContents, this, [this] {
    QMessageBox box(this);
    box.setObjectName(QStringLiteral("shortcuts"));
    box.setWindowTitle(tr("Keyboard shortcuts"));
    box.setTextFormat(Qt::RichText);
    box.setText(shortcutsHtml());
    box.exec();
  });
  help->addAction(tr("&About ShardLab"), this, [this] {
    QMessageBox::about(this, tr("About ShardLab"),
                       tr("<p><b>ShardLab %1</b></p><p>Teaches distributed training by running small real jobs under "
                          "Open MPI and replaying what they recorded.</p>")
                           .arg(QCoreApplication::applicationVersion()));
  });
}

void MainWindow::chooseTraceToOpen() {
  const QString f = QFileDialog::getOpenFileName(this, tr("Open trace"), QString(), tr("ShardLab traces (*.trace *.txt);;All files (*)"));
  if (!f.isEmpty()) openTrace(f);
}

void MainWindow::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) retranslate();
  QMainWindow::changeEvent(e);
}

QString MainWindow::shortcutsHtml() const {
  QString rows;
  std::function<void(const QList<QAction*>&, const QString&)> walk = [&](const QList<QAction*>& actions, const QString& menu) {
    for (auto* a : actions) {
      if (a->menu()) {
        walk(a->menu()->actions(), QString(a->menu()->title()).remove(QLatin1Char('&')));
        continue;
      }
      if (a->shortcuts().isEmpty()) continue;
      QStringList keys;
      for (const auto& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText).toHtmlEscaped();
      rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td></tr>")
                  .arg(keys.join(QStringLiteral(", ")), QString(a->text()).remove(QLatin1Char('&')).toHtmlEscaped(), menu.toHtmlEscaped());
    }
  };
  walk(menuBar()->actions(), QString());
  return tr("<p>They work wherever the focus is in the window, also when the timeline or the rank view has it "
            "(click a view to give it the focus). In a text field being edited, Space and the arrows type and move "
            "the cursor; saving a prediction gives the keys back to the view.</p>") +
         QStringLiteral("<table cellpadding=\"3\">%1</table>").arg(rows) +
         tr("<p>In the timeline: mouse wheel zooms, dragging pans, a click moves the playhead.</p>");
}

void MainWindow::retranslate() {
  setWindowTitle(tr("ShardLab"));
  if (menuBar()) {
    const auto old = menuBar()->actions();
    menuBar()->clear();
    for (auto* a : old)
      if (a->menu()) a->menu()->deleteLater(); // may be the menu whose action is running now
    buildMenus();
  }
  if (experiment_) experiment_->parentWidget()->setWindowTitle(tr("Experiment"));
  if (log_) log_->parentWidget()->setWindowTitle(tr("Log"));
  if (quizDock_) quizDock_->setWindowTitle(tr("Quiz"));
  if (quizOverlay_) {
    quizOverlay_->findChild<QLabel*>(QStringLiteral("quizOverlayTitle"))->setText(tr("Quiz"));
    auto* hide = quizOverlay_->findChild<QToolButton*>(QStringLiteral("quizOverlayHide"));
    hide->setText(tr("Hide (F9)"));
    hide->setToolTip(tr("Hide the quiz; F9 shows it again."));
  }
  if (guideDock_) guideDock_->setWindowTitle(tr("Guide"));
  if (labDock_) labDock_->setWindowTitle(tr("Lab"));
  if (runLabel_) runLabel_->setText(model_.runLabel());
  if (shownGroup_) {
    const QStringList names{tr("Measured"), tr("Schedule alone"), tr("Projected")};
    const QStringList tips{
        tr("What this run measured on this machine."),
        tr("Replay of this run's own dependency graph with communication free and each op at its fastest "
           "recorded time: what the schedule alone costs. A computation on the trace, not a new run."),
        tr("Replay of this run's graph with each transfer costed on %1 (docs/replay.md) and each op at its "
           "fastest recorded time. A computation on the trace, not a new run.")
            .arg(QString::fromUtf8(shardlab::trace::kReferenceInterconnect.name.data(),
                                   static_cast<qsizetype>(shardlab::trace::kReferenceInterconnect.name.size())))};
    for (int id = 0; id < 3; ++id) {
      shownGroup_->button(id)->setText(names[id]);
      shownGroup_->button(id)->setToolTip(tips[id]);
    }
  }
  if (summary_) summary_->rebuild();
  if (ledger_) ledger_->rebuild();
  if (plots_) plots_->rebuild();
  if (tabs_) {
    tabs_->setTabText(tabs_->indexOf(rankView_), tr("Ranks"));
    tabs_->setTabText(tabs_->indexOf(compareView_), tr("Both runs"));
    tabs_->setTabText(tabs_->indexOf(pipeline_), tr("Pipeline"));
    tabs_->setTabText(tabs_->indexOf(plots_), tr("Plots"));
    tabs_->setTabText(tabs_->indexOf(summary_), tr("Summary"));
    tabs_->setTabText(tabs_->indexOf(ledger_), tr("Memory ledger"));
  }
}

void MainWindow::closeEvent(QCloseEvent* e) {
  flow_.stop();
  e->accept();
}

void MainWindow::showWorkspace() { stack_->setCurrentWidget(workspace_); }
void MainWindow::showStartPage() { stack_->setCurrentWidget(start_); }

bool MainWindow::showView(const QString& name) {
  if ((name == QLatin1String("both") || name == QLatin1String("compare")) && !comparisonShown()) return false;
  if (name == QLatin1String("compare")) { // Plots → Compare runs
    showWorkspace();
    tabs_->setCurrentWidget(plots_);
    plots_->showComparison();
    return true;
  }
  const std::pair<QString, QWidget*> views[] = {{QStringLiteral("ranks"), rankView_},
                                                {QStringLiteral("both"), compareView_},
                                                {QStringLiteral("pipeline"), pipeline_},
                                                {QStringLiteral("plots"), plots_},
                                                {QStringLiteral("summary"), summary_},
                                                {QStringLiteral("ledger"), ledger_}};
  for (const auto& [viewName, view] : views)
    if (viewName == name) {
      showWorkspace();
      tabs_->setCurrentWidget(view);
      return true;
    }
  return false;
}

void MainWindow::showRun(std::optional<shardlab::trace::ReplayMode> mode) {
  if (flow_.isRunning() && mode) return; // a replay of a run still streaming would be stale at once
  model_.showReplay(mode);
  playback_.fitDuration();
  refreshViews();
}

// The switch follows the model (a new run shows what was measured) and is offered
// once a finished run has ops to replay.
void MainWindow::syncShownSwitch() {
  const auto& mode = model_.replayMode();
  const int id = !mode ? 0 : *mode == shardlab::trace::ReplayMode::ScheduleAlone ? 1 : 2;
  if (auto* b = shownGroup_->button(id); b && !b->isChecked()) b->setChecked(true);
  shownSwitch_->setEnabled(!flow_.isRunning() && !model_.measured().events.empty());
}

void MainWindow::onModelReset() {
  syncShownSwitch();
  // While a lesson waits for its prediction the views say there is no run yet for it.
  rankView_->setAwaitingRun(flow_.waitingForPrediction());
  plots_->setAwaitingRun(flow_.waitingForPrediction());
  ledger_->setAwaitingRun(flow_.waitingForPrediction());
  playback_.modelReset();
  rankView_->modelReset();
  timeline_->modelReset();
  pipeline_->modelReset();
  runLabel_->setText(model_.runLabel());
  progress_->setRange(0, std::max(1, model_.stepsPlanned()));
  progress_->setValue(model_.stepsDone());
  // No run, no steps: not "0 / 1 steps".
  progress_->setFormat(model_.stepsPlanned() > 0 ? tr("%v / %m steps") : tr("no run"));
  plots_->rebuild();
  summary_->rebuild();
  ledger_->rebuild();
  caption_->setTime(playback_.time());
}

bool MainWindow::comparisonShown() const { return !compare_.isEmpty(); }

void MainWindow::syncCompareTab() {
  const int index = tabs_->indexOf(compareView_);
  tabs_->setTabVisible(index, comparisonShown());
  if (!comparisonShown() && tabs_->currentIndex() == index) tabs_->setCurrentWidget(rankView_);
}

void MainWindow::refreshViews() {
  onModelReset();
  syncCompareTab();
  const qint64 t = playback_.time();
  if (comparisonShown()) {
    compareView_->modelChanged();
    compareView_->setTime(t);
  }
  rankView_->setTime(t);
  timeline_->setTime(t);
  pipeline_->setTime(t);
  caption_->setTime(t);
  plots_->setTime(t);
  playbar_->refresh();
}

void MainWindow::showMessage(const QString& text, bool problem) {
  message_ = text;
  message_label_->setText(text);
  message_label_->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; padding: 6px; border-radius: 4px; }")
                                    .arg((problem ? Palette::problem() : Palette::ok()).name()));
  message_label_->setVisible(!text.isEmpty());
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
  lessonCheck_->clear();
  if (flow_.waitingForPrediction()) flow_.stop(); // its job must not start once the prediction box is gone
  rankView_->setAwaitingRun(false);
  plots_->setAwaitingRun(false);
  ledger_->setAwaitingRun(false);
  quiz_->setLesson(QString());
  guide_->setLesson(QString());
  guideDock_->hide();
}

void MainWindow::setPresentationLayout(bool on) {
  // On a projector the class watches the run: the form and the log make room for it
  // (the View menu's dock toggles bring them back).
  experiment_->parentWidget()->setVisible(!on);
  log_->parentWidget()->setVisible(!on);
  if (on == presenting_) return;
  // The guide and the sizing note too: the room reads the run; the instructor has the guide.
  if (on) {
    guideDock_->hide();
    lessonNote_->hide();
  } else if (!lessonId_.isEmpty()) {
    guideDock_->show();
    lessonNote_->setVisible(!lessonNote_->text().isEmpty());
  }
  presenting_ = on;
  // The Both runs tab gives its timelines' height to the cards, whose unit cells a room
  // must read (16 px at 1280x720); its Timelines button brings them back.
  compareView_->setTimelinesShown(!on);
  if (on) {
    // The quiz moves from its dock into the overlay, which keeps the dock's shown state.
    const bool shown = quizDock_->isVisible();
    quizOverlay_->findChild<QScrollArea*>(QStringLiteral("quizOverlayScroll"))->setWidget(quiz_);
    quizDock_->hide();
    setQuizOverlayShown(shown);
  } else {
    const bool shown = quizOverlayShown();
    quizOverlay_->hide();
    quizOverlay_->findChild<QScrollArea*>(QStringLiteral("quizOverlayScroll"))->takeWidget();
    quizDock_->setWidget(quiz_);
    quizDock_->setVisible(shown);
  }
  if (quizOverlayAction_) quizOverlayAction_->setEnabled(on);
  // The quiz is in the overlay while presenting: View → Quiz would show its empty dock.
  quizDock_->toggleViewAction()->setEnabled(!on);
}

void MainWindow::setQuizOverlayShown(bool shown) {
  if (!presenting_) return;
  quizOverlay_->setVisible(shown);
  if (shown) {
    placeQuizOverlay();
    quizOverlay_->raise();
  }
  if (quizOverlayAction_) quizOverlayAction_->setChecked(shown);
}

bool MainWindow::quizOverlayShown() const { return quizOverlay_ && !quizOverlay_->isHidden(); }

void MainWindow::placeQuizOverlay() {
  // The right part of the views, from the tabs down to the caption.
  const int top = tabs_->mapTo(workspace_, QPoint(0, 0)).y();
  const int bottom = caption_->mapTo(workspace_, QPoint(0, 0)).y() - 4;
  const QRect area(QPoint(0, top), QPoint(workspace_->width() - 4, std::max(top + 100, bottom)));
  const int width = std::clamp(area.width() * 2 / 5, std::min(area.width(), fontMetrics().averageCharWidth() * 40),
                               std::max(fontMetrics().averageCharWidth() * 40, area.width() / 2));
  quizOverlay_->setGeometry(area.right() - width, area.top(), width, area.height());
}

void MainWindow::showQuiz() {
  if (presenting_) setQuizOverlayShown(true);
  else quizDock_->show();
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if (watched == workspace_ && (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest) &&
      quizOverlayShown())
    placeQuizOverlay();
  return QMainWindow::eventFilter(watched, event);
}

QString MainWindow::openTrace(const QString& path) {
  showWorkspace();
  // A file that shows nothing leaves the run on screen as it was.
  const QFileInfo info(path);
  if (info.isFile() && info.size() == 0) {
    const QString err = tr("%1 is empty: there is no trace in it.").arg(info.fileName());
    showMessage(err, true);
    log_->append(err + QLatin1Char('\n'));
    return err;
  }
  // A damaged file replaces the run only with something readable (TraceOpening).
  TraceOpening opened = TraceOpening::read(path);
  const QString err = opened.problem;
  if (!opened.readable()) {
    const QString shown = tr("%1 The run on screen stays.").arg(err.isEmpty() ? tr("%1 holds no trace.").arg(info.fileName()) : err);
    showMessage(shown, true);
    log_->append(shown + QLatin1Char('\n'));
    return err.isEmpty() ? shown : err;
  }
  playback_.setLive(false);
  compare_.clear();
  plots_->setComparison(nullptr, {}, {});
  model_.setTrace(std::move(opened.trace));
  playback_.fitDuration();
  // The opened file is the run now: the log, the title, the form and the quiz describe it.
  log_->clear();
  lessonNote_->hide();
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
  if (!opened.stopped) showEnding(); // a whole run (lines skipped or not): how it ended
  return err;
}

bool MainWindow::showEnding() {
  const RunEnding& ending = model_.ending();
  if (ending.kind == RunEnding::Kind::None) return false;
  // The run's last moments: the playhead where the hang was seen or the rank failed,
  // the timeline from a little before it to the end, and what happened above the views.
  playback_.pause();
  playback_.setFollowLive(false);
  playback_.setTime(ending.moment);
  const qint64 end = std::max(model_.endTime(), ending.moment);
  timeline_->setVisibleRange(ending.windowStart, end + std::max<qint64>(1, (end - ending.windowStart) / 40));
  showMessage(ending.text(), true);
  return true;
}

bool MainWindow::runLesson(const QString& id, bool askPrediction) {
  const Lesson* l = catalog_.find(id);
  if (!l) {
    showMessage(tr("There is no lesson '%1'.").arg(id), true);
    return false;
  }
  compare_.clear();
  plots_->setComparison(nullptr, {}, {});
  // A lesson sized for this machine waits for its calibration (cached: at once).
  if (l->sizing && !machine_.calibration()) machine_.waitForCalibration();
  setWindowTitle(tr("ShardLab — %1").arg(l->title()));
  lessonId_ = id;
  // The size chosen for this machine; an open lab's notes are in the Lab dock.
  const QString sizing = l->sizingMarkdown();
  lessonNote_->setText(sizing);
  lessonNote_->setVisible(!sizing.isEmpty() && !presenting_);
  if (lab_->hasLab()) {
    for (int step = 0; step < lab_->stepCount(); ++step)
      if (lab_->lessonOf(step) == id && lab_->lessonOf(lab_->currentStep()) != id) lab_->setCurrentStep(step);
  }
  quiz_->controller().setPlaceholderValues(l->placeholderValues());
  quiz_->setLesson(id);
  guide_->setLesson(id);
  // On a projector the run takes the width; View → Guide brings the guide back. A lab's
  // step keeps the Lab dock in front (its notes, steps and Next step), the guide beside it.
  const bool labStep = lab_->hasLab() && lab_->lessonOf(lab_->currentStep()) == id;
  if (!presenting_) {
    guideDock_->show();
    if (labStep) labDock_->show();
    (labStep ? labDock_ : guideDock_)->raise();
  }
  // Predict, then run, then compare: the lesson's order.
  const bool predictFirst = askPrediction && quiz_->hasPrediction();
  if (predictFirst) {
    showWorkspace();
    showQuiz();
    quiz_->setAwaitingPrediction(true);
    showMessage(quiz_->awaitingMessage(), false);
  }
  flow_.startLesson(l->specs, l->specLabels(), predictFirst);
  return true;
}

void MainWindow::onJobStarting(const shardlab::JobConfig& job) {
  lessonCheck_->clear(); // a new run: the last lesson's check no longer describes what is shown
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
  refreshViews();
  quiz_->refreshObservations();
  // The run's questions are asked where they can be seen (a free experiment's too); on a
  // projector the instructor shows the overlay (F9).
  if (quiz_->questionCount() > 0 && !presenting_) quizDock_->show();
  showMessage(text, outcome != JobRunner::Outcome::Finished);
  log_->append(text + QLatin1Char('\n'));
  if (outcome == JobRunner::Outcome::RankFailed) showEnding();
}

void MainWindow::onComparisonFinished(const QString& text) {
  experiment_->setRunning(flow_.isRunning());
  log_->append(text + QLatin1Char('\n'));
  const QStringList labels = flow_.runLabels();
  plots_->setComparison(&compare_, labels.value(0, tr("run A")), labels.value(1, tr("run B")));
  ledger_->setComparison(&compare_, labels.value(0, tr("run A")), labels.value(1, tr("run B"))); // the ledger of each run
  // Both runs side by side, one playhead: what a comparison lesson is for.
  compareView_->setRunNames(labels.value(0, tr("run A")), labels.value(1, tr("run B")));
  compareView_->modelReset();
  syncCompareTab();
  tabs_->setCurrentWidget(compareView_);
  playback_.fitDuration(); // both runs, each to its own end (RunFollower::end())
  compareView_->setTime(playback_.time());
  quiz_->refreshObservations(QString(), &compare_.trace());
  showMessage(tr("%1 — both runs side by side in \"Both runs\"; their figures in Plots → Compare runs.").arg(message_),
              !flow_.lessonOk());
}

bool MainWindow::exportChromeTrace(const QString& path) {
  std::ofstream out(path.toStdString());
  if (out) shardlab::trace::writeChromeTrace(model_.trace(), out);
  if (!out) {
    showMessage(tr("Cannot write %1.").arg(path), true);
    statusBar()->showMessage(tr("Cannot write %1.").arg(path));
    return false;
  }
  statusBar()->showMessage(tr("Chrome trace written to %1").arg(QFileInfo(path).absoluteFilePath()));
  return true;
}

bool MainWindow::exportPng(const QString& path) {
  // The whole window, as the learner sees it: the view, the timeline, the caption and the docks.
  if (!grab().save(path, "PNG")) {
    showMessage(tr("Cannot write %1.").arg(path), true);
    statusBar()->showMessage(tr("Cannot write %1.").arg(path));
    return false;
  }
  statusBar()->showMessage(tr("Picture of the window saved to %1").arg(QFileInfo(path).absoluteFilePath()));
  return true;
}

bool MainWindow::openLabFile(const QString& path) {
  const auto result = openLab(path);
  if (!result.lab) {
    // Every error, each with its file and place, as LabLoader reports them.
    showMessage(tr("This lab has %n error(s); see the log.", nullptr, static_cast<int>(result.errors.size())), true);
    log_->append(result.errors.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    if (isVisible()) {
      QMessageBox box(QMessageBox::Warning, tr("Open lab"), tr("The lab %1 is not valid.").arg(QFileInfo(path).fileName()),
                      QMessageBox::Ok, this);
      box.setObjectName(QStringLiteral("labErrors"));
      box.setInformativeText(result.errors.join(QLatin1Char('\n')));
      box.setDetailedText(result.errors.join(QLatin1Char('\n')));
      box.exec();
    }
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
  if (labDock_->isHidden()) tabifyDockWidget(static_cast<QDockWidget*>(experiment_->parentWidget()), labDock_);
  labDock_->show();
  labDock_->raise();
  // Opened before the window shows (--lab): a tab raises only once it is on screen.
  QTimer::singleShot(0, labDock_, &QDockWidget::raise);
  showQuiz();
  const QString confirmation =
      tr("Lab \"%1\" opened: %n step(s). Press \"Run this step\" in the Lab panel to start.", nullptr,
         static_cast<int>(result.lab->steps.size()))
          .arg(QString::fromStdString(result.lab->title.get(AppSettings::effectiveLanguage().toStdString())));
  showMessage(confirmation, false);
  statusBar()->showMessage(confirmation, 20000);
  setWindowTitle(tr("ShardLab — %1").arg(QString::fromStdString(result.lab->title.get(AppSettings::effectiveLanguage().toStdString()))));
  return true;
}

void MainWindow::focusView() {
  if (stack_->currentWidget() == workspace_) tabs_->currentWidget()->setFocus(Qt::OtherFocusReason);
}
