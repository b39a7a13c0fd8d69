#include "views/QuizPlace.h"

#include "views/QuizOverlay.h"
#include "views/QuizPanel.h"
#include "views/WorkspacePage.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>

namespace shardlab::app {

QuizPlace::QuizPlace(QuizPanel& quiz, QDockWidget& dock, WorkspacePage& workspace, QObject* parent)
    : QObject(parent), quiz_(quiz), dock_(dock), workspace_(workspace) {
  connect(workspace_.quizOverlay(), &QuizOverlay::hideRequested, this, [this] { setOverlayShown(false); });
}

void QuizPlace::setPresenting(bool on) {
  if (on == presenting_) return;
  presenting_ = on;
  if (on) {
    // The quiz moves from its dock into the overlay, which keeps the dock's shown state.
    const bool shown = dock_.isVisible();
    workspace_.quizOverlay()->setQuiz(&quiz_);
    dock_.hide();
    setOverlayShown(shown);
  } else {
    const bool shown = workspace_.quizOverlayShown();
    workspace_.setQuizOverlayShown(false);
    workspace_.quizOverlay()->takeQuiz();
    dock_.setWidget(&quiz_);
    dock_.setVisible(shown);
  }
  if (overlayAction_) overlayAction_->setEnabled(on);
  // The quiz is in the overlay while presenting: View → Quiz would show its empty dock.
  dock_.toggleViewAction()->setEnabled(!on);
}

void QuizPlace::setOverlayShown(bool shown) {
  if (!presenting_) return;
  workspace_.setQuizOverlayShown(shown);
  if (overlayAction_) overlayAction_->setChecked(shown);
}

void QuizPlace::show() {
  if (presenting_) setOverlayShown(true);
  else dock_.show();
}

void QuizPlace::offerQuestions() {
  if (quiz_.questionCount() > 0 && !presenting_) dock_.show();
}

void QuizPlace::addOverlayAction(QMenu& menu) {
  overlayAction_ = menu.addAction(tr("Quiz overlay (presentation)"));
  overlayAction_->setCheckable(true);
  overlayAction_->setShortcut(QKeySequence(Qt::Key_F9));
  overlayAction_->setEnabled(presenting_);
  overlayAction_->setChecked(workspace_.quizOverlayShown());
  connect(overlayAction_, &QAction::triggered, this, &QuizPlace::setOverlayShown);
}

} // namespace shardlab::app
