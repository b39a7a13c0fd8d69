// SummaryView: the run summary from summarize(): the same numbers shardlab-run prints.
#pragma once

#include "models/TraceModel.h"

#include <QTextBrowser>

#include <cstdint>
#include <optional>

namespace shardlab::app {

class SummaryView : public QTextBrowser {
  Q_OBJECT
public:
  explicit SummaryView(const TraceModel& model, QWidget* parent = nullptr);
  static QString html(const TraceModel& model);
  // "1.5 MiB modelled" or "1.5 MiB modelled · 3.0 MiB measured".
  static QString wireBytes(std::int64_t ringModel, const std::optional<std::int64_t>& measured);

public Q_SLOTS:
  void rebuild();

private:
  const TraceModel& model_;
};

} // namespace shardlab::app
