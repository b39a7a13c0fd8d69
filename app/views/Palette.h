// Palette: the app's colours. Categories and kinds use the Okabe–Ito palette, which
// stays distinguishable under the common colour-vision deficiencies; units cycle
// through it with lightness steps. Light and dark themes swap the neutrals.
#pragma once

#include "trace/Event.h"

#include <QBrush>
#include <QColor>
#include <QRectF>
#include <QPalette>

namespace shardlab::app {

namespace Palette {
QColor category(shardlab::trace::Category c);
QColor kind(shardlab::trace::Kind k);
QColor idle(bool dark);
// The share of an op's wall time its rank spent waiting for a CPU core (drawn over the op).
QBrush coreWait(bool dark);
// The part of an op's block drawn with coreWait(): a share of its width equal to the
// share of its wall time not spent on its CPU (the trace records how long the rank
// waited for a core, not when, so the part sits at the block's end). Empty without CPU time.
QRectF coreWaitPart(const shardlab::trace::Event& op, const QRectF& block);
// Roles of the widgets' style sheets: what went right (a right answer, a finished run),
// what went wrong (a broken rule, a wrong answer, a failed run), and a highlight (evidence).
QColor ok();
QColor problem();
QColor accent();
// Fusion palettes for the themes.
QPalette light();
QPalette dark();
bool isDark(const QPalette& p);
// The palette check boxes, radio buttons and sliders are drawn with in the dark theme:
// Fusion draws their outlines and the slider's groove from the window and button colours,
// which are nearly the window's own there; these lighter ones make the box, the circle and
// the groove stand out (the fill and the text keep the theme's colours).
QPalette controls(const QPalette& p);
} // namespace Palette

} // namespace shardlab::app
