#include "views/GuidePanel.h"

#include "models/LessonCatalog.h"
#include "views/StartPage.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace shardlab::app {

GuidePanel::GuidePanel(const LessonCatalog& catalog, QWidget* parent) : QWidget(parent), catalog_(catalog) {
  setObjectName(QStringLiteral("guidePanel"));
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(2, 2, 2, 2);
  text_ = new QTextBrowser(this);
  text_->setObjectName(QStringLiteral("guideText"));
  text_->setOpenExternalLinks(true);
  l->addWidget(text_, 1);
  auto* row = new QHBoxLayout;
  answer_ = new QCheckBox(this);
  answer_->setObjectName(QStringLiteral("guideShowAnswer"));
  next_ = new QPushButton(this);
  next_->setObjectName(QStringLiteral("nextLesson"));
  row->addWidget(answer_);
  row->addStretch(1);
  row->addWidget(next_);
  l->addLayout(row);
  connect(answer_, &QCheckBox::toggled, this, [this] { show_(); });
  connect(next_, &QPushButton::clicked, this, [this] {
    if (const QString next = nextLesson(); !next.isEmpty()) Q_EMIT nextLessonRequested(next);
  });
  retranslate();
}

void GuidePanel::setLesson(const QString& lessonId) {
  lesson_ = lessonId;
  runDone_ = false;
  answer_->setChecked(false);
  show_();
}

void GuidePanel::setRunDone(bool done) {
  runDone_ = done;
  retranslate();
}

QString GuidePanel::nextLesson() const {
  const auto& lessons = catalog_.lessons();
  for (int i = 0; i + 1 < lessons.size(); ++i)
    if (lessons[i].id == lesson_) return lessons[i + 1].id;
  return {};
}

bool GuidePanel::nextEnabled() const { return next_->isEnabled(); }

void GuidePanel::show_() {
  const Lesson* l = catalog_.find(lesson_);
  if (!l) {
    shown_.clear();
    text_->clear();
    answer_->setEnabled(false);
    retranslate();
    return;
  }
  const QString lang = Lesson::currentLanguage();
  QString md = l->guideMarkdown(lang);
  if (md.isEmpty()) md = QStringLiteral("# %1\n\n%2").arg(l->title(lang), l->summary(lang));
  const auto [body, answer] = StartPage::splitAnswer(md);
  answer_->setEnabled(!answer.isEmpty());
  shown_ = answer_->isChecked() || answer.isEmpty() ? md : body;
  text_->setMarkdown(shown_);
  retranslate();
}

void GuidePanel::retranslate() {
  answer_->setText(tr("Show the answer"));
  const Lesson* next = catalog_.find(nextLesson());
  next_->setText(next ? tr("Next lesson ▶") : tr("Last lesson"));
  next_->setToolTip(!next ? QString() : runDone_ ? next->title() : tr("Available once this lesson's run is over."));
  next_->setEnabled(next && runDone_);
}

void GuidePanel::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) show_();
  QWidget::changeEvent(e);
}

} // namespace shardlab::app
