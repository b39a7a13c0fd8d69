// LedgerView: the memory ledger of one rank (models/MemoryLedger): measured parameters,
// gradients, optimizer state and the transient parts as bars to one scale, beside the
// textbook's Ψ arithmetic for the run's ZeRO stage, each difference explained.
#pragma once

#include "models/TraceModel.h"

#include <QWidget>

class QComboBox;
class QTextBrowser;

class LedgerView : public QWidget {
  Q_OBJECT
public:
  explicit LedgerView(const TraceModel& model, QWidget* parent = nullptr);
  static QString html(const TraceModel& model, int rank);
  int rank() const;
  // A lesson waits for the learner's prediction before its run: the tab says there is no run
  // yet for it.
  void setAwaitingRun(bool awaiting);
  QString shownHtml() const; // what the tab shows (tests)

public Q_SLOTS:
  void rebuild();

private:
  const TraceModel& model_;
  QComboBox* rank_;
  QTextBrowser* text_;
  bool awaitingRun_ = false;
};
