// MachineProfile: what this machine can do, for sizing lessons. Asks `shardlab-run
// --calibrate` in the background (cached per machine and build by the launcher, so
// usually instant; measured in about 2 s the first time) and says when it is known.
#pragma once

#include "job/Calibration.h"

#include <QObject>
#include <QProcess>

#include <optional>

namespace shardlab::app {

class MachineProfile : public QObject {
  Q_OBJECT
public:
  explicit MachineProfile(QObject* parent = nullptr);
  // Stops a calibration still running (the launcher stops its probe's ranks on SIGTERM),
  // without answering: whoever listened may be half destroyed.
  ~MachineProfile() override;

  // Starts `launcher --calibrate`; ready() follows when it answers.
  void start(const QString& launcher);
  // Blocks until the answer started by start() is in (at most 30 s): a lesson about to run needs it.
  void waitForCalibration();
  // Sets it directly (tests hand it a fake calibration).
  void setCalibration(const shardlab::Calibration& calibration);
  const std::optional<shardlab::Calibration>& calibration() const { return calibration_; }
  // Cores the lessons can count on: the calibration's, else Qt's idea of them.
  int cores() const;
  int gpus() const { return calibration_ ? calibration_->gpus : 0; }

Q_SIGNALS:
  void ready();

private:
  QProcess process_;
  std::optional<shardlab::Calibration> calibration_;
};

} // namespace shardlab::app
