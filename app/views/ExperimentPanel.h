// ExperimentPanel: the engine's job options (shardlab::JobConfig) as a form. The rules
// a value breaks (JobConfig::fromJson and validate(), translated) are named under the
// form, and Run is disabled, before anything runs.
#pragma once

#include "job/JobConfig.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QFormLayout;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace shardlab::app {

class LessonFlow;

class ExperimentPanel : public QWidget {
  Q_OBJECT
public:
  explicit ExperimentPanel(QWidget* parent = nullptr);
  // The job the form shows; options the form has no widget for (weight decay,
  // stages) keep the values of the last setConfig().
  shardlab::JobConfig config() const;
  void setConfig(const shardlab::JobConfig& config);
  // The rules the form's values break; empty when the job can run.
  std::vector<shardlab::JobIssue> issues() const;
  QString issuesText() const;
  void setRunning(bool running);
  // The lesson flow's runs: the form shows the job that starts, Stop while one runs.
  void follow(LessonFlow& flow);

Q_SIGNALS:
  void runRequested(const shardlab::JobConfig& config);
  void stopRequested();

private:
  // The form's values as a spec; the seed and the memory budget go as typed, so
  // JobConfig::fromJson (parseBytes) names what is wrong with them.
  nlohmann::json formJson() const;
  shardlab::JobConfig read(std::vector<shardlab::JobIssue>& issues) const;
  void revalidate();
  shardlab::JobConfig base_;
  QComboBox *strategy_, *sharding_, *backwardPrefetch_, *schedule_, *device_, *paramDtype_, *reduceDtype_;
  QSpinBox *ranks_, *layers_, *hidden_, *vocab_, *batch_, *steps_, *micro_, *virtual_, *shardGroup_, *limitAllGathers_, *accumulate_;
  QLineEdit* seed_;
  QDoubleSpinBox* lr_;
  QDoubleSpinBox* hangTimeout_; // collective_timeout: seconds before a job is declared hung
  QCheckBox *forwardPrefetch_, *checkpoint_, *noSync_;
  QLineEdit* budget_;
  QLineEdit* hostfile_;
  QLineEdit* mesh_;
  QLabel* issues_;
  QPushButton *run_, *stop_;
  QFormLayout* form_ = nullptr;
  bool running_ = false;
};

} // namespace shardlab::app
