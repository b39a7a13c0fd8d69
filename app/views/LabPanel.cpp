#include "views/LabPanel.h"

#include "models/LessonCatalog.h"
#include "models/QuizController.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace shardlab::app {

LabPanel::LabPanel(const LessonCatalog& catalog, QWidget* parent) : QWidget(parent), catalog_(catalog) {
  auto* l = new QVBoxLayout(this);
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("labTitle"));
  title_->setWordWrap(true);
  QFont big = title_->font();
  big.setBold(true);
  big.setPointSizeF(big.pointSizeF() * 1.2);
  title_->setFont(big);
  l->addWidget(title_);
  description_ = new QLabel(this);
  description_->setWordWrap(true);
  l->addWidget(description_);
  progressText_ = new QLabel(this);
  progressText_->setObjectName(QStringLiteral("labProgress"));
  progressText_->setWordWrap(true);
  l->addWidget(progressText_);
  progressBar_ = new QProgressBar(this);
  progressBar_->setTextVisible(false);
  progressBar_->setMaximumHeight(progressBar_->fontMetrics().height() / 2 + 4);
  l->addWidget(progressBar_);
  steps_ = new QListWidget(this);
  steps_->setObjectName(QStringLiteral("labSteps"));
  // Room for every step without scrolling: labs have a handful.
  steps_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
  steps_->setWordWrap(true);
  steps_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  l->addWidget(steps_);
  connect(steps_, &QListWidget::currentRowChanged, this, [this](int row) {
    if (!updating_ && row >= 0) {
      // A step chosen in the list after the end: the lab goes on from there.
      if (finished_ && row == current_) {
        finished_ = false;
        refresh();
      }
      setCurrentStep(row);
    }
  });
  notesHeading_ = new QLabel(this);
  QFont bold = notesHeading_->font();
  bold.setBold(true);
  notesHeading_->setFont(bold);
  l->addWidget(notesHeading_);
  notes_ = new QTextBrowser(this);
  notes_->setObjectName(QStringLiteral("labNotes"));
  notes_->setOpenExternalLinks(true);
  l->addWidget(notes_, 1);
  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton(this);
  next_ = new QPushButton(this);
  next_->setObjectName(QStringLiteral("labNextStep"));
  connect(run_, &QPushButton::clicked, this, &LabPanel::runCurrentStep);
  connect(next_, &QPushButton::clicked, this, &LabPanel::nextStep);
  buttons->addWidget(run_);
  buttons->addWidget(next_);
  l->addLayout(buttons);
  refresh();
}

int LabPanel::stepCount() const { return lab_ ? static_cast<int>(lab_->steps.size()) : 0; }

QString LabPanel::lessonOf(int step) const {
  if (!lab_ || step < 0 || step >= stepCount()) return {};
  return QString::fromStdString(lab_->steps[static_cast<std::size_t>(step)].lesson);
}

void LabPanel::setLab(const shardlab::quiz::Lab& lab) {
  lab_ = lab;
  current_ = 0;
  done_.clear();
  finished_ = false;
  refresh();
  Q_EMIT currentStepChanged(lessonOf(current_));
}

bool LabPanel::showStepOf(const QString& lessonId) {
  if (!hasLab()) return false;
  for (int step = 0; step < stepCount(); ++step)
    if (lessonOf(step) == lessonId && lessonOf(current_) != lessonId) setCurrentStep(step);
  return lessonOf(current_) == lessonId;
}

void LabPanel::setCurrentStep(int step) {
  if (!lab_ || step < 0 || step >= stepCount() || (step == current_ && !finished_)) return;
  current_ = step;
  finished_ = false;
  refresh();
  Q_EMIT currentStepChanged(lessonOf(current_));
}

void LabPanel::lessonFinished(const QString& lessonId, bool ok) {
  if (!lab_ || !ok) return;
  int step = lessonOf(current_) == lessonId ? current_ : -1;
  for (int i = 0; step < 0 && i < stepCount(); ++i)
    if (lessonOf(i) == lessonId) step = i;
  if (step < 0) return;
  done_.insert(step);
  refresh();
}

void LabPanel::runCurrentStep() {
  if (lab_) Q_EMIT stepRunRequested(lessonOf(current_));
}

void LabPanel::nextStep() {
  if (!lab_ || finished_) return;
  if (current_ + 1 >= stepCount()) {
    finish();
    return;
  }
  setCurrentStep(current_ + 1);
  runCurrentStep();
}

void LabPanel::finish() {
  if (!lab_) return;
  finished_ = true;
  refresh();
}

QString LabPanel::progressText() const { return progressText_->text(); }

QString LabPanel::resultsMarkdown() const {
  if (!lab_) return {};
  const QString lang = Lesson::currentLanguage();
  QString md = QStringLiteral("### %1\n\n").arg(tr("Results"));
  for (int i = 0; i < stepCount(); ++i) {
    const QString id = lessonOf(i);
    const Lesson* lesson = catalog_.find(id);
    const QString name = lesson ? lesson->title(lang) : id;
    // The answers the learner gave in this step's lesson: how many, how many right.
    int answered = 0, right = 0;
    if (quiz_)
      for (const auto& [key, answer] : quiz_->progress().answers())
        if (QString::fromStdString(key.lesson) == id) {
          ++answered;
          right += answer.correct ? 1 : 0;
        }
    const QString state = done_.contains(i) ? tr("done") : tr("not run to its end");
    const QString answers = answered == 0 ? tr("no answers")
                                          : tr("%1 of %n answer(s) right", nullptr, answered).arg(right);
    md += QStringLiteral("%1. **%2**: %3 · %4\n").arg(i + 1).arg(name, state, answers);
  }
  return md;
}

QString LabPanel::titleText() const { return title_->text(); }

QString LabPanel::notesMarkdown() const {
  const Lesson* lesson = catalog_.find(lessonOf(current_));
  return lesson ? lesson->labNotesMarkdown(Lesson::currentLanguage()) : QString();
}

void LabPanel::refresh() {
  updating_ = true;
  const QString lang = Lesson::currentLanguage();
  run_->setText(tr("Run this step"));
  next_->setText(tr("Next step"));
  notesHeading_->setText(tr("Notes for this step"));
  steps_->clear();
  if (!lab_) {
    title_->setText(tr("No lab open. File → Open lab… loads one."));
    description_->clear();
    progressBar_->setRange(0, 1);
    progressBar_->setValue(0);
    progressText_->clear();
    notes_->clear();
    run_->setEnabled(false);
    next_->setEnabled(false);
    updating_ = false;
    return;
  }
  title_->setText(QString::fromStdString(lab_->title.get(lang.toStdString())));
  const QString description = QString::fromStdString(lab_->description.get(lang.toStdString()));
  description_->setText(description);
  description_->setVisible(!description.isEmpty());
  for (int i = 0; i < stepCount(); ++i) {
    const Lesson* lesson = catalog_.find(lessonOf(i));
    const QString name = lesson ? lesson->title(lang) : lessonOf(i);
    auto* item = new QListWidgetItem(done_.contains(i) ? tr("%1. %2 ✓ done").arg(i + 1).arg(name)
                                                       : tr("%1. %2").arg(i + 1).arg(name),
                                     steps_);
    if (i == current_ && !finished_) {
      QFont f = item->font();
      f.setBold(true);
      item->setFont(f);
    }
  }
  steps_->setCurrentRow(current_);
  progressBar_->setRange(0, stepCount());
  progressBar_->setValue(static_cast<int>(done_.size()));
  const int done = static_cast<int>(done_.size());
  if (finished_) {
    // The lab's end: how many steps went as planned, and each step's results.
    progressText_->setText(done == stepCount() ? tr("Lab complete: %1 of %n step(s) done", nullptr, stepCount()).arg(done)
                                               : tr("Lab finished: %1 of %n step(s) done", nullptr, stepCount()).arg(done));
    notesHeading_->setText(tr("Results"));
    notes_->setMarkdown(resultsMarkdown());
    steps_->setCurrentRow(-1);
  } else {
    progressText_->setText(tr("Step %1 of %2 · %n done", nullptr, done).arg(current_ + 1).arg(stepCount()));
    const QString notes = notesMarkdown();
    if (notes.isEmpty())
      notes_->setPlainText(tr("This step has no notes: follow the lesson's guide and its questions."));
    else
      notes_->setMarkdown(notes);
  }
  run_->setEnabled(!finished_);
  // On the last step Next finishes the lab (its results); nothing after that.
  next_->setText(current_ + 1 < stepCount() ? tr("Next step") : tr("Finish lab"));
  next_->setEnabled(!finished_);
  updating_ = false;
}

void LabPanel::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) refresh();
  QWidget::changeEvent(e);
}

} // namespace shardlab::app
