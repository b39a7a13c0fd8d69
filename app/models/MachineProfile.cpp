#include "models/MachineProfile.h"

#include <QThread>

#include <nlohmann/json.hpp>

namespace shardlab::app {

MachineProfile::MachineProfile(QObject* parent) : QObject(parent) {
  connect(&process_, &QProcess::finished, this, [this](int status, QProcess::ExitStatus how) {
    if (how != QProcess::NormalExit || status != 0) return;  // lessons then run as written
    const auto json = nlohmann::json::parse(process_.readAllStandardOutput().toStdString(), nullptr, false);
    if (const auto c = shardlab::Calibration::fromJson(json)) setCalibration(*c);
  });
}

MachineProfile::~MachineProfile() {
  process_.disconnect(this);
  if (process_.state() == QProcess::NotRunning) return;
  process_.terminate();
  if (!process_.waitForFinished(3000)) {
    process_.kill();
    process_.waitForFinished(1000);
  }
}

void MachineProfile::start(const QString& launcher) {
  if (process_.state() != QProcess::NotRunning) return;
  process_.start(launcher, {QStringLiteral("--calibrate")});
}

void MachineProfile::waitForCalibration() {
  if (process_.state() != QProcess::NotRunning) process_.waitForFinished(30000);
}

void MachineProfile::setCalibration(const shardlab::Calibration& calibration) {
  calibration_ = calibration;
  Q_EMIT ready();
}

int MachineProfile::cores() const { return calibration_ ? calibration_->cores : QThread::idealThreadCount(); }

} // namespace shardlab::app
