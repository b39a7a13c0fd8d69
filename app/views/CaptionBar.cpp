#include "views/CaptionBar.h"

#include "models/Captions.h"

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
  const int i = Captions::eventAt(model_, t);
  const auto phase = phases_.at(model_, t);
  const QString phaseName = phase ? PhaseIndex::name(*phase) : QString();
  if (i == shown_ && i >= 0 && phaseName == phase_) return;
  shown_ = i;
  phase_ = phaseName;
  const QString sentence = i >= 0 ? Captions::describe(model_, i) : QString();
  setText(phase_.isEmpty() || sentence.isEmpty() ? phase_ + sentence : tr("%1 — %2").arg(phase_, sentence));
}
