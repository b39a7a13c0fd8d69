// The learner's dialogs: the name asked at first start and from the Learner menu, and
// the confirmation before "Reset my progress" (a shared lab PC passes from student to
// student). Both are modal; tests call LearnerMenu::switchLearner and resetProgress,
// which do the work without asking, and SHARDLAB_LEARNER skips the first-start question.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <optional>

class QWidget;

namespace shardlab::app {

class LearnerDialogs {
  Q_DECLARE_TR_FUNCTIONS(LearnerDialogs)
public:
  // The name typed, trimmed; nullopt when cancelled. An empty name is the unnamed learner.
  static std::optional<QString> askName(QWidget* parent, const QString& current);
  // True when the learner confirms that their answers and predictions may be forgotten.
  static bool confirmReset(QWidget* parent, const QString& learner);
};

} // namespace shardlab::app
