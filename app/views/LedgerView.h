// LedgerView: the memory ledger of one rank (models/MemoryLedger): measured parameters,
// gradients, optimizer state and the transient parts as bars to one scale, beside the
// textbook's Ψ arithmetic for the run's ZeRO stage, each difference explained. With a
// comparison run (a lesson's run B, or File → Compare with trace) a selector chooses which
// run's ledger is shown, named by the lesson's run labels.
#pragma once

#include "models/TraceModel.h"

#include <QWidget>

class QComboBox;
class QTextBrowser;

namespace shardlab::app {

class LedgerView : public QWidget {
  Q_OBJECT
public:
  explicit LedgerView(const TraceModel& model, QWidget* parent = nullptr);
  static QString html(const TraceModel& model, int rank);
  int rank() const;
  // The second run, named as the lesson names its runs: the ledger offers run A or run B
  // while `other` holds a run (nullptr: run A only). Forgotten when `other` is cleared.
  void setComparison(const TraceModel* other, const QString& labelA, const QString& labelB);
  bool showsComparisonRun() const; // run B is shown
  void showComparisonRun(bool runB);
  const TraceModel& shownModel() const;
  // A lesson waits for the learner's prediction before its run: the tab says there is no run
  // yet for it.
  void setAwaitingRun(bool awaiting);
  QString shownHtml() const; // what the tab shows (tests)

public Q_SLOTS:
  void rebuild();

private:
  bool offersComparison() const;
  const TraceModel& model_;
  const TraceModel* other_ = nullptr;
  QString labelA_, labelB_;
  QWidget* runRow_;
  QComboBox* run_;
  QComboBox* rank_;
  QTextBrowser* text_;
  bool awaitingRun_ = false;
};

} // namespace shardlab::app
