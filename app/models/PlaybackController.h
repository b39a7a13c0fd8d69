// PlaybackController: the playhead over recorded time. Plays the run slowed down
// (a run of 30 ms becomes seconds on screen), pauses, steps to the next event,
// collective or phase (forward, backward, optimizer: Phases), scrubs, and during a live job either follows the newest
// event or waits at the end for more.
#pragma once

#include "models/Phases.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace shardlab::app {

class RunFollower;
class TraceModel;

class PlaybackController : public QObject {
  Q_OBJECT
public:
  explicit PlaybackController(const TraceModel& model, QObject* parent = nullptr);

  qint64 time() const { return time_; }
  qint64 start() const;
  qint64 end() const;
  double fraction() const; // 0..1 over [start, end]
  bool isPlaying() const { return playing_; }
  bool followsLive() const { return followLive_; }
  // Screen seconds per recorded second (1000: 1 ms of the run plays in 1 s).
  double slowdown() const { return slowdown_; }

public Q_SLOTS:
  void setTime(qint64 t);
  void setFraction(double f);
  void play();
  void pause();
  void togglePlay();
  void setSlowdown(double factor);
  void faster();  // halves the slow-down
  void slower();  // doubles it
  void setFollowLive(bool on);
  // While a job runs the playhead waits at the end for more events instead of stopping.
  void setLive(bool live) { live_ = live; }
  void home();
  void toEnd();
  void nextEvent();
  void previousEvent();
  void nextCollective();
  void previousCollective();
  // To the start of the next (previous) forward, backward or optimizer phase.
  void nextPhase();
  void previousPhase();
  // A comparison's second run, followed through `follower` (none: null): the playhead goes
  // on past this run's end until the second run has played to its own end (RunFollower::end()).
  void setFollower(const RunFollower* follower) { follower_ = follower; }
  // Picks a slow-down that plays the whole run in about `seconds`.
  void fitDuration(double seconds = 20.0);
  // Called when the model changed (new events or a new run).
  void modelChanged();
  void modelReset();

Q_SIGNALS:
  void timeChanged(qint64 t);
  void playingChanged(bool playing);
  void slowdownChanged(double factor);
  void followLiveChanged(bool on);

private:
  void tick();
  void stepTo(const std::vector<qint64>& starts, bool forward);
  std::vector<qint64> phaseStarts();
  const TraceModel& model_;
  const RunFollower* follower_ = nullptr;
  PhaseIndex phases_;
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 time_ = 0;
  double exact_ = 0.0;
  bool playing_ = false;
  bool followLive_ = false;
  bool live_ = false;
  double slowdown_ = 1000.0;
};

} // namespace shardlab::app
