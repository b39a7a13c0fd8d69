// The Learner menu: whose progress the quiz records ("Learner: NAME", Switch learner…)
// and forgetting it (Reset my progress…). The menu's items ask first (LearnerDialogs);
// switchLearner and resetProgress do the work without asking (tests call them).
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QMenuBar;

namespace shardlab::app {

class QuizPanel;

class LearnerMenu : public QObject {
  Q_OBJECT
public:
  // `dialogParent` is the window the dialogs are shown over.
  LearnerMenu(QuizPanel& quiz, QWidget* dialogParent);

  // Adds the menu (again after a language change: the bar is rebuilt then).
  void addTo(QMenuBar& bar);
  // The quiz records this learner's answers from now on (remembered for the next start).
  void switchLearner(const QString& name);
  void resetProgress();

Q_SIGNALS:
  // The learner or their progress changed: the start page's ticks are someone else's.
  void learnerChanged();
  // What the window tells the learner about it.
  void said(const QString& text);

private:
  void refreshLabel();

  QuizPanel& quiz_;
  QWidget* dialogParent_;
  QPointer<QAction> label_; // "Learner: NAME", gone with the menu when the bar is rebuilt
};

} // namespace shardlab::app
