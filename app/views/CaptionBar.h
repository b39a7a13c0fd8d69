// CaptionBar: one sentence narrating the event at the playhead, from the trace.
#pragma once

#include "models/TraceModel.h"

#include <QLabel>

class CaptionBar : public QLabel {
  Q_OBJECT
public:
  explicit CaptionBar(const TraceModel& model, QWidget* parent = nullptr);
  int shownEvent() const { return shown_; }

public Q_SLOTS:
  void setTime(qint64 t);

private:
  const TraceModel& model_;
  int shown_ = -2;
};
