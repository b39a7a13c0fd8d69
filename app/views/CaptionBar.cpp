#include "views/CaptionBar.h"

#include "models/Captions.h"

namespace shardlab::app {

CaptionBar::CaptionBar(const TraceModel& model, QWidget* parent) : QLabel(parent), model_(model) {
  setWordWrap(true);
  setTextFormat(Qt::PlainText);
  setTextInteractionFlags(Qt::TextSelectableByMouse);
  setMinimumHeight(fontMetrics().height() * 2 + 8);
  setMargin(4);
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 1.15);
  setFont(f);
}

void CaptionBar::setTime(qint64 t) {
  // A hung or failed run, once the playhead is in its end: what happened, in the
  // launcher's terms (RunEnding), rather than one of the events around it.
  if (const RunEnding& ending = model_.ending(); ending.reached(t)) {
    shown_ = kEndingShown;
    phase_.clear();
    setText(ending.text());
    return;
  }
  // At the start of a phase (where "Next phase" puts the playhead), the op that begins
  // it; elsewhere the event the playhead is in, under its own rank's phase.
  auto phase = phases_.at(model_, t);
  int i = phase && phase->start == t ? phases_.opStarting(model_, *phase) : -1;
  if (i < 0) {
    i = Captions::eventAt(model_, t);
    if (i >= 0)
      if (auto own = phases_.at(model_, t, model_.event(i).rank)) phase = own; // before its first op: the run's
  }
  const QString phaseName = phase ? PhaseIndex::name(*phase) : QString();
  if (i == shown_ && i >= 0 && phaseName == phase_) return;
  shown_ = i;
  phase_ = phaseName;
  const QString sentence = i >= 0 ? Captions::describe(model_, i) : QString();
  setText(phase_.isEmpty() || sentence.isEmpty() ? phase_ + sentence : tr("%1 — %2").arg(phase_, sentence));
}

} // namespace shardlab::app
