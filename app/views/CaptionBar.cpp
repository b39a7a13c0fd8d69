#include "views/CaptionBar.h"

#include "models/Captions.h"

CaptionBar::CaptionBar(const TraceModel& model, QWidget* parent) : QLabel(parent), model_(model) {
  setWordWrap(true);
  setTextInteractionFlags(Qt::TextSelectableByMouse);
  setMinimumHeight(fontMetrics().height() * 2 + 8);
  setMargin(4);
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 1.15);
  setFont(f);
}

void CaptionBar::setTime(qint64 t) {
  const int i = Captions::eventAt(model_, t);
  if (i == shown_ && i >= 0) return;
  shown_ = i;
  setText(i >= 0 ? Captions::describe(model_, i) : QString());
}
