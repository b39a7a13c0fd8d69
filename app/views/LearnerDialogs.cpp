#include "views/LearnerDialogs.h"

#include <QInputDialog>
#include <QMessageBox>

namespace shardlab::app {

std::optional<QString> LearnerDialogs::askName(QWidget* parent, const QString& current) {
  QInputDialog dialog(parent);
  dialog.setObjectName(QStringLiteral("learnerName"));
  dialog.setWindowTitle(tr("Who is learning?"));
  dialog.setLabelText(tr("Your name (or a nickname). Your answers and predictions are kept under it, apart from "
                         "other learners on this computer."));
  dialog.setTextValue(current);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;
  return dialog.textValue().trimmed();
}

bool LearnerDialogs::confirmReset(QWidget* parent, const QString& learner) {
  const QString who = learner.isEmpty() ? tr("this computer's unnamed learner") : learner;
  QMessageBox box(QMessageBox::Warning, tr("Reset my progress"),
                  tr("Forget every answer and prediction of %1? The lessons lose their ticks. This cannot be undone.").arg(who),
                  QMessageBox::Yes | QMessageBox::Cancel, parent);
  box.setObjectName(QStringLiteral("resetProgress"));
  box.setDefaultButton(QMessageBox::Cancel);
  return box.exec() == QMessageBox::Yes;
}

} // namespace shardlab::app
