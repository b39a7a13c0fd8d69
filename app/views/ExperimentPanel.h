// ExperimentPanel: the engine's options as a form. The rule a value breaks is named
// under the form (and Run is disabled) before anything runs.
#pragma once

#include "models/JobSpec.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

class ExperimentPanel : public QWidget {
  Q_OBJECT
public:
  explicit ExperimentPanel(QWidget* parent = nullptr);
  JobSpec spec() const;
  void setSpec(const JobSpec& spec);
  QString issuesText() const;
  void setRunning(bool running);

Q_SIGNALS:
  void runRequested(const JobSpec& spec);
  void stopRequested();

private:
  void revalidate();
  QComboBox *strategy_, *sharding_, *schedule_, *device_;
  QSpinBox *ranks_, *layers_, *hidden_, *vocab_, *batch_, *steps_, *seed_, *micro_, *virtual_;
  QDoubleSpinBox* lr_;
  QCheckBox* prefetch_;
  QLineEdit* budget_;
  QLabel* issues_;
  QPushButton *run_, *stop_;
  bool running_ = false;
};
