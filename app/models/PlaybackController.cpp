#include "models/PlaybackController.h"

#include "models/RunFollower.h"
#include "models/TraceModel.h"

#include <algorithm>
#include <cmath>

namespace shardlab::app {

PlaybackController::PlaybackController(const TraceModel& model, QObject* parent) : QObject(parent), model_(model) {
  timer_.setInterval(16);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &PlaybackController::tick);
}

qint64 PlaybackController::start() const { return model_.startTime(); }
qint64 PlaybackController::end() const {
  const qint64 own = std::max(model_.endTime(), start());
  return follower_ ? std::max(own, follower_->end()) : own;
}

double PlaybackController::fraction() const {
  const auto span = end() - start();
  return span > 0 ? static_cast<double>(time_ - start()) / static_cast<double>(span) : 0.0;
}

void PlaybackController::setTime(qint64 t) {
  t = std::clamp(t, start(), end());
  exact_ = static_cast<double>(t);
  if (t == time_) return;
  time_ = t;
  Q_EMIT timeChanged(time_);
}

void PlaybackController::setFraction(double f) {
  f = std::clamp(f, 0.0, 1.0);
  setTime(start() + static_cast<qint64>(std::llround(f * static_cast<double>(end() - start()))));
}

void PlaybackController::play() {
  if (playing_) return;
  if (time_ >= end() && !followLive_) setTime(start());
  playing_ = true;
  exact_ = static_cast<double>(time_);
  clock_.start();
  timer_.start();
  Q_EMIT playingChanged(true);
}

void PlaybackController::pause() {
  if (!playing_) return;
  playing_ = false;
  timer_.stop();
  Q_EMIT playingChanged(false);
}

void PlaybackController::togglePlay() { playing_ ? pause() : play(); }

void PlaybackController::setSlowdown(double factor) {
  factor = std::clamp(factor, 1.0, 1e9);
  if (factor == slowdown_) return;
  slowdown_ = factor;
  Q_EMIT slowdownChanged(slowdown_);
}

void PlaybackController::faster() { setSlowdown(slowdown_ / 2.0); }
void PlaybackController::slower() { setSlowdown(slowdown_ * 2.0); }

void PlaybackController::setFollowLive(bool on) {
  if (on == followLive_) return;
  followLive_ = on;
  if (on) setTime(end());
  Q_EMIT followLiveChanged(on);
}

void PlaybackController::home() {
  setFollowLive(false);
  setTime(start());
}
void PlaybackController::toEnd() { setTime(end()); }

void PlaybackController::stepTo(const std::vector<qint64>& starts, bool forward) {
  setFollowLive(false);
  if (starts.empty()) return;
  if (forward) {
    auto it = std::upper_bound(starts.begin(), starts.end(), time_);
    setTime(it == starts.end() ? end() : *it);
  } else {
    auto it = std::lower_bound(starts.begin(), starts.end(), time_);
    setTime(it == starts.begin() ? start() : *std::prev(it));
  }
}

void PlaybackController::nextEvent() { stepTo(model_.eventStarts(), true); }
void PlaybackController::previousEvent() { stepTo(model_.eventStarts(), false); }
void PlaybackController::nextCollective() { stepTo(model_.collectiveStarts(), true); }
void PlaybackController::previousCollective() { stepTo(model_.collectiveStarts(), false); }
void PlaybackController::nextPhase() { stepTo(phaseStarts(), true); }
void PlaybackController::previousPhase() { stepTo(phaseStarts(), false); }

std::vector<qint64> PlaybackController::phaseStarts() {
  std::vector<qint64> starts;
  for (const auto& phase : phases_.phases(model_)) starts.push_back(phase.start);
  return starts;
}

void PlaybackController::fitDuration(double seconds) {
  const double span = static_cast<double>(end() - start()) * 1e-9;
  if (span <= 0 || seconds <= 0) return;
  // Round to 1, 2 or 5 times a power of ten: "×500", "×2000".
  const double raw = seconds / span;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  double nice = p;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p <= raw) nice = m * p;
  setSlowdown(std::max(1.0, nice));
}

void PlaybackController::modelChanged() {
  if (followLive_) setTime(end());
}

void PlaybackController::modelReset() {
  pause();
  time_ = start();
  exact_ = static_cast<double>(time_);
  Q_EMIT timeChanged(time_);
}

void PlaybackController::tick() {
  const double dt = static_cast<double>(clock_.restart()) * 1e6; // wall ns
  if (followLive_) {
    setTime(end());
    return;
  }
  exact_ += dt / slowdown_;
  if (exact_ >= static_cast<double>(end())) {
    // At the end of a finished run, stop; during a live run the caller keeps us
    // playing and the playhead waits at the end until more events arrive.
    exact_ = static_cast<double>(end());
    setTime(end());
    if (!live_) pause();
    return;
  }
  const auto t = static_cast<qint64>(exact_);
  if (t != time_) {
    time_ = t;
    Q_EMIT timeChanged(time_);
  }
}

} // namespace shardlab::app
