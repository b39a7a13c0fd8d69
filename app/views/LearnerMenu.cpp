#include "views/LearnerMenu.h"

#include "models/AppSettings.h"
#include "views/LearnerDialogs.h"
#include "views/QuizPanel.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>

namespace shardlab::app {

LearnerMenu::LearnerMenu(QuizPanel& quiz, QWidget* dialogParent)
    : QObject(dialogParent), quiz_(quiz), dialogParent_(dialogParent) {
  connect(&quiz_.controller(), &QuizController::progressChanged, this, &LearnerMenu::refreshLabel);
}

void LearnerMenu::addTo(QMenuBar& bar) {
  auto* menu = bar.addMenu(tr("L&earner"));
  label_ = menu->addAction(QString());
  label_->setEnabled(false);
  menu->addAction(tr("&Switch learner…"), this, [this] {
    if (const auto name = LearnerDialogs::askName(dialogParent_, quiz_.controller().learner())) switchLearner(*name);
  });
  menu->addAction(tr("&Reset my progress…"), this, [this] {
    if (LearnerDialogs::confirmReset(dialogParent_, quiz_.controller().learner())) resetProgress();
  });
  refreshLabel();
}

void LearnerMenu::switchLearner(const QString& name) {
  AppSettings::setLearner(name);
  quiz_.setLearner(name);
  refreshLabel();
  Q_EMIT learnerChanged();
  Q_EMIT said(tr("Answers are now recorded for %1.").arg(name.isEmpty() ? tr("(no name)") : name));
}

void LearnerMenu::resetProgress() {
  quiz_.resetProgress();
  Q_EMIT learnerChanged();
  Q_EMIT said(tr("Your progress was reset."));
}

void LearnerMenu::refreshLabel() {
  const QString name = quiz_.controller().learner();
  if (label_) label_->setText(tr("Learner: %1").arg(name.isEmpty() ? tr("(no name)") : name));
}

} // namespace shardlab::app
