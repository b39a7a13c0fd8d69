#include "views/LessonCheckBar.h"

#include "models/TraceModel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>

namespace shardlab::app {

LessonCheckBar::LessonCheckBar(QWidget* parent) : QFrame(parent) {
  setObjectName(QStringLiteral("lessonCheck"));
  setFrameShape(QFrame::StyledPanel);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(8, 4, 8, 4);
  label_ = new QLabel(this);
  label_->setWordWrap(true);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_ = new QToolButton(this);
  details_->setObjectName(QStringLiteral("lessonCheckDetails"));
  details_->setCheckable(true);
  connect(details_, &QToolButton::toggled, this, [this] { retranslate(); });
  replay_ = new QPushButton(this);
  replay_->setObjectName(QStringLiteral("lessonCheckReplay"));
  layout->addWidget(label_, 1);
  layout->addWidget(details_, 0, Qt::AlignVCenter);
  layout->addWidget(replay_, 0, Qt::AlignVCenter);
  connect(replay_, &QPushButton::clicked, this, [this] {
    if (verdict_.replay) Q_EMIT replayRequested(*verdict_.replay);
  });
  hide();
}

void LessonCheckBar::setVerdict(const LessonVerdict& verdict) {
  verdict_ = verdict;
  retranslate();
  setVisible(verdict.made);
}

void LessonCheckBar::clear() { setVerdict({}); }

QString LessonCheckBar::text() const { return verdict_.made ? verdict_.text() : QString(); }

void LessonCheckBar::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QFrame::changeEvent(event);
}

void LessonCheckBar::retranslate() {
  // The mark says at a glance whether the point showed; the text says what was measured.
  const QString mark = verdict_.passed ? QStringLiteral("✓ ") : QStringLiteral("⚠ ");
  // The first sentence says whether the point showed; the rest (what was measured, the
  // cause) on demand, so the bar stays one line on a projector.
  const QString whole = verdict_.made ? verdict_.text() : QString();
  const qsizetype firstEnd = whole.indexOf(QLatin1Char(':'));
  const QString headline = firstEnd > 0 ? whole.left(firstEnd).trimmed() + QStringLiteral(".") : whole;
  const bool more = !verdict_.passed && headline != whole;
  details_->setVisible(verdict_.made && more);
  details_->setText(details_->isChecked() ? tr("Less") : tr("Why?"));
  label_->setText(mark + (details_->isChecked() || !more ? whole : headline));
  label_->setToolTip(whole);
  replay_->setVisible(verdict_.made && !verdict_.passed && verdict_.replay.has_value());
  if (verdict_.replay) {
    const bool alone = *verdict_.replay == shardlab::trace::ReplayMode::ScheduleAlone;
    replay_->setText(alone ? tr("Show the schedule-alone replay") : tr("Show the projected replay"));
    replay_->setToolTip(TraceModel::replayName(*verdict_.replay));
  }
}

} // namespace shardlab::app
