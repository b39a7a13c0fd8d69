// SummaryView: the run summary from summarize(): the same numbers shardlab-run prints.
#pragma once

#include "models/TraceModel.h"

#include <QTextBrowser>

class SummaryView : public QTextBrowser {
  Q_OBJECT
public:
  explicit SummaryView(const TraceModel& model, QWidget* parent = nullptr);
  static QString html(const TraceModel& model);

public Q_SLOTS:
  void rebuild();

private:
  const TraceModel& model_;
};
