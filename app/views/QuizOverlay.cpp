#include "views/QuizOverlay.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace shardlab::app {

QuizOverlay::QuizOverlay(QWidget* parent) : QFrame(parent) {
  setObjectName(QStringLiteral("quizOverlay"));
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  auto* head = new QHBoxLayout;
  title_ = new QLabel(this);
  title_->setObjectName(QStringLiteral("quizOverlayTitle"));
  hide_ = new QToolButton(this);
  hide_->setObjectName(QStringLiteral("quizOverlayHide"));
  head->addWidget(title_, 1);
  head->addWidget(hide_);
  layout->addLayout(head);
  // The questions scroll inside the overlay rather than squeeze their lines together.
  scroll_ = new QScrollArea(this);
  scroll_->setObjectName(QStringLiteral("quizOverlayScroll"));
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  layout->addWidget(scroll_, 1);
  connect(hide_, &QToolButton::clicked, this, &QuizOverlay::hideRequested);
  retranslate();
  hide();
}

void QuizOverlay::setQuiz(QWidget* quiz) { scroll_->setWidget(quiz); }

QWidget* QuizOverlay::takeQuiz() { return scroll_->takeWidget(); }

void QuizOverlay::placeIn(const QRect& area) {
  const int chars40 = fontMetrics().averageCharWidth() * 40;
  const int width = std::clamp(area.width() * 2 / 5, std::min(area.width(), chars40), std::max(chars40, area.width() / 2));
  setGeometry(area.right() - width, area.top(), width, area.height());
}

void QuizOverlay::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) retranslate();
  QFrame::changeEvent(e);
}

void QuizOverlay::retranslate() {
  title_->setText(tr("Quiz"));
  hide_->setText(tr("Hide (F9)"));
  hide_->setToolTip(tr("Hide the quiz; F9 shows it again."));
}

} // namespace shardlab::app
