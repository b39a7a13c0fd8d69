// Palette: the app's colours. Categories and kinds use the Okabe–Ito palette, which
// stays distinguishable under the common colour-vision deficiencies; units cycle
// through it with lightness steps. Light and dark themes swap the neutrals.
#pragma once

#include "trace/Event.h"

#include <QColor>
#include <QPalette>

namespace Palette {
QColor category(shardlab::trace::Category c);
QColor kind(shardlab::trace::Kind k);
QColor unit(int unit);
QColor rankShade(QColor base, int rank, int ranks); // one shard of a unit, per owner rank
QColor idle(bool dark);
// Roles of the widgets' style sheets: what went right (a right answer, a finished run),
// what went wrong (a broken rule, a wrong answer, a failed run), and a highlight (evidence).
QColor ok();
QColor problem();
QColor accent();
QString categoryName(shardlab::trace::Category c); // translated, readable
QString kindName(shardlab::trace::Kind k);         // translated, readable
// Fusion palettes for the themes.
QPalette light();
QPalette dark();
bool isDark(const QPalette& p);
} // namespace Palette
