#include "views/StartPage.h"

#include "models/QuizController.h"

#include <QCheckBox>
#include <QCommandLinkButton>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace shardlab::app {

StartPage::StartPage(const LessonCatalog& catalog, QWidget* parent) : QWidget(parent), catalog_(catalog) {
  auto* outer = new QVBoxLayout(this);
  intro_ = new QLabel(this);
  intro_->setWordWrap(true);
  outer->addWidget(intro_);

  auto* split = new QSplitter(Qt::Horizontal, this);
  auto* left = new QWidget(split);
  auto* ll = new QVBoxLayout(left);
  ll->setContentsMargins(0, 0, 0, 0);
  lessonsHeading_ = new QLabel(left);
  ll->addWidget(lessonsHeading_);
  list_ = new QListWidget(left);
  list_->setObjectName(QStringLiteral("lessons"));
  list_->setWordWrap(true);
  list_->setAlternatingRowColors(true);
  list_->setSpacing(2);
  ll->addWidget(list_, 1);
  if (catalog_.lessons().isEmpty()) {
    auto* none = new QLabel(left);
    none->setObjectName(QStringLiteral("no-lessons"));
    none->setWordWrap(true);
    none->setTextInteractionFlags(Qt::TextSelectableByMouse);
    none->setText(tr("No lessons were found: %1").arg(catalog_.warnings().join(QLatin1Char('\n')).toHtmlEscaped()));
    ll->addWidget(none);
  }
  ownHeading_ = new QLabel(left);
  ll->addWidget(ownHeading_);
  free_ = new QCommandLinkButton(left);
  free_->setObjectName(QStringLiteral("free-experiment"));
  connect(free_, &QCommandLinkButton::clicked, this, &StartPage::experimentChosen);
  open_ = new QCommandLinkButton(left);
  open_->setObjectName(QStringLiteral("open-trace"));
  connect(open_, &QCommandLinkButton::clicked, this, &StartPage::openTraceChosen);
  ll->addWidget(free_);
  ll->addWidget(open_);

  auto* right = new QWidget(split);
  auto* rl = new QVBoxLayout(right);
  rl->setContentsMargins(0, 0, 0, 0);
  guide_ = new QTextBrowser(right);
  guide_->setObjectName(QStringLiteral("guide"));
  guide_->setOpenExternalLinks(true);
  rl->addWidget(guide_, 1);
  auto* buttons = new QHBoxLayout;
  answer_ = new QCheckBox(right);
  answer_->setObjectName(QStringLiteral("show-answer"));
  run_ = new QPushButton(right);
  run_->setObjectName(QStringLiteral("run-lesson"));
  run_->setDefault(true);
  buttons->addWidget(answer_);
  buttons->addStretch();
  buttons->addWidget(run_);
  rl->addLayout(buttons);
  split->addWidget(left);
  split->addWidget(right);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  outer->addWidget(split, 1);

  for (const auto& lesson : catalog_.lessons()) {
    auto* item = new QListWidgetItem(list_);
    item->setData(Qt::UserRole, lesson.id);
  }
  connect(list_, &QListWidget::currentRowChanged, this, [this] {
    answer_->setChecked(false);
    showGuide();
  });
  connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { Q_EMIT lessonChosen(item->data(Qt::UserRole).toString()); });
  connect(run_, &QPushButton::clicked, this, [this] {
    if (!selectedLesson().isEmpty()) Q_EMIT lessonChosen(selectedLesson());
  });
  connect(answer_, &QCheckBox::toggled, this, &StartPage::showGuide);
  retranslate();
  if (list_->count() > 0) list_->setCurrentRow(0);
}

void StartPage::showCompletion(const QuizController& quiz) {
  completed_.clear();
  for (const auto& l : catalog_.lessons())
    if (quiz.lessonComplete(l.id, l.questionIds())) completed_ << l.id;
  retranslate();
}

void StartPage::selectLesson(const QString& id) {
  for (int i = 0; i < list_->count(); ++i)
    if (list_->item(i)->data(Qt::UserRole).toString() == id) list_->setCurrentRow(i);
}

QString StartPage::selectedLesson() const {
  const auto* item = list_->currentItem();
  return item ? item->data(Qt::UserRole).toString() : QString();
}

QPair<QString, QString> StartPage::splitAnswer(const QString& markdown) {
  const auto at = markdown.lastIndexOf(QLatin1String("\n## "));
  // The first "## " section is never the answer: a page needs at least two sections to hide one.
  if (at < 0 || markdown.indexOf(QLatin1String("\n## ")) == at) return {markdown, QString()};
  return {markdown.left(at), markdown.mid(at + 1)};
}

void StartPage::showGuide() {
  const Lesson* l = catalog_.find(selectedLesson());
  run_->setEnabled(l != nullptr);
  if (!l) {
    guide_->clear();
    shownMarkdown_.clear();
    answer_->setEnabled(false);
    return;
  }
  const QString lang = Lesson::currentLanguage();
  QString md = l->guideMarkdown(lang);
  if (md.isEmpty()) md = QStringLiteral("# %1\n\n%2").arg(l->title(lang), l->summary(lang));
  // The size chosen for this machine, and the lab's notes, before the page.
  for (const QString& note : {l->labNotesMarkdown(lang), l->sizingMarkdown()})
    if (!note.isEmpty()) md = note + QStringLiteral("\n\n---\n\n") + md;
  const auto [body, answer] = splitAnswer(md);
  answer_->setEnabled(!answer.isEmpty());
  shownMarkdown_ = answer_->isChecked() || answer.isEmpty() ? md : body;
  guide_->setMarkdown(shownMarkdown_);
}

void StartPage::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(e);
}

void StartPage::retranslate() {
  intro_->setText(tr("<h1>ShardLab</h1><p>Run a small real training job on several ranks and watch what "
                     "actually happened: every block, shard and number on screen comes from the recorded trace.</p>"));
  lessonsHeading_->setText(tr("<h3>Lessons</h3>"));
  ownHeading_->setText(tr("<h3>On your own</h3>"));
  free_->setText(tr("Free experiment"));
  free_->setDescription(tr("Choose the strategy, ranks, model size and schedule yourself."));
  open_->setText(tr("Open a trace"));
  open_->setDescription(tr("Replay a trace recorded earlier by shardlab-run --trace."));
  run_->setText(tr("Run this lesson"));
  answer_->setText(tr("Show the answer"));
  const QString lang = Lesson::currentLanguage();
  for (int i = 0; i < list_->count(); ++i) {
    auto* item = list_->item(i);
    const Lesson* l = catalog_.find(item->data(Qt::UserRole).toString());
    if (!l) continue;
    const bool done = completed_.contains(l->id);
    // A tick before a lesson whose questions are all answered (by this learner).
    item->setText(QStringLiteral("%1%2. %3\n%4").arg(done ? QStringLiteral("✓ ") : QString()).arg(i + 1).arg(l->title(lang), l->summary(lang)));
    item->setToolTip(done ? tr("%1 — complete: you answered all its questions.").arg(l->title(lang)) : l->title(lang));
  }
  showGuide();
}

} // namespace shardlab::app
