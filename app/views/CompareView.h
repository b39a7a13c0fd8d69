// CompareView: the two runs of a comparison side by side, each with the existing views
// over its own model — rank cards or the pipeline diagram above, the timeline below.
// One playhead (the first run's) moves both: the second run shows the same step at the
// same time into it (RunFollower), and both runs draw that step at the same seconds
// per pixel, so lengths compare. The main window's "Both runs" tab and the standalone
// CompareWindow (File → Compare with trace) are this widget.
#pragma once

#include "models/RunFollower.h"
#include "models/TraceModel.h"

#include <QWidget>

class QButtonGroup;
class QLabel;
class QStackedWidget;
class QToolButton;

namespace shardlab::app {

class CategoryLegend;
class PipelineView;
class RankView;
class TimelineView;

class CompareView : public QWidget {
  Q_OBJECT
public:
  CompareView(const TraceModel& a, const TraceModel& b, QWidget* parent = nullptr);

  // The lesson's names of the runs ("GPipe", "1F1B"), shown above each column.
  void setRunNames(const QString& a, const QString& b);
  // Above the timelines: the rank cards (false) or the pipeline diagram (true).
  void showPipeline(bool on);
  bool showsPipeline() const;
  // The two timelines under the cards or diagram (on by default; off gives the cards their height).
  void setTimelinesShown(bool on);
  bool timelinesShown() const;
  const RunFollower& follower() const { return follower_; }
  RunFollower::Window window() const { return window_; }
  // Views of run 0 (the first) and run 1 (the second).
  RankView* rankView(int run) const { return rank_[run]; }
  PipelineView* pipelineView(int run) const { return pipeline_[run]; }
  TimelineView* timelineView(int run) const { return timeline_[run]; }
  QString runTitle(int run) const;

public Q_SLOTS:
  // The first run's playhead; the second run follows it.
  void setTime(qint64 leadTime);
  void modelReset();
  void modelChanged(); // events arrived in either run

Q_SIGNALS:
  // A click on either timeline: where the first run's playhead goes.
  void timeRequested(qint64 leadTime);

protected:
  void changeEvent(QEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void showEvent(QShowEvent*) override;

private:
  void retitle();
  const TraceModel* model_[2];
  RunFollower follower_;
  RunFollower::Window window_;
  qint64 time_ = 0;
  QString names_[2];
  QLabel* title_[2];
  QStackedWidget* upper_[2];
  CategoryLegend* legend_ = nullptr; // one for both runs' cards
  RankView* rank_[2];
  PipelineView* pipeline_[2];
  TimelineView* timeline_[2];
  QButtonGroup* upperChoice_;
  QToolButton* timelinesButton_ = nullptr;
};

} // namespace shardlab::app
