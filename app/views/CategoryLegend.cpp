#include "views/CategoryLegend.h"

#include "models/Format.h"
#include "views/Palette.h"

#include <QFontMetricsF>
#include <QPainter>

#include <cmath>

namespace shardlab::app {

namespace st = shardlab::trace;

namespace {

double rowHeight(const QFont& font) { return QFontMetricsF(font).height() * 1.4; }

double entryWidth(const QFont& font, int category) {
  const QFontMetricsF fm(font);
  return fm.height() * 0.8 + 4 + fm.horizontalAdvance(Format::categoryName(static_cast<st::Category>(category))) + 12;
}

} // namespace

CategoryLegend::CategoryLegend(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

// Where each category's entry goes within `width`, wrapping; returns the rows used.
template <typename Place> int layOut(const QFont& font, double width, bool imported, Place place) {
  const double rowH = rowHeight(font);
  int rows = 1;
  double x = 0;
  for (int c = 0; c < st::kCategoryCount; ++c) {
    if ((static_cast<st::Category>(c) == st::Category::Unknown) != imported) continue;
    const double w = entryWidth(font, c);
    if (x > 0 && x + w > width) ++rows, x = 0;
    place(c, QRectF(x, (rows - 1) * rowH, w, rowH));
    x += w;
  }
  return rows;
}

double CategoryLegend::heightFor(const QFont& font, double width, bool imported) {
  return layOut(font, width, imported, [](int, const QRectF&) {}) * rowHeight(font);
}

void CategoryLegend::paint(QPainter& p, const QRectF& r, const QFont& font, const QColor& text, bool imported) {
  const double sw = QFontMetricsF(font).height() * 0.8;
  p.setFont(font);
  layOut(font, r.width(), imported, [&](int c, const QRectF& entry) {
    const QRectF at = entry.translated(r.topLeft());
    const auto category = static_cast<st::Category>(c);
    p.setPen(Qt::NoPen);
    p.setBrush(Palette::category(category));
    p.drawRect(QRectF(at.left(), at.top() + (at.height() - sw) / 2, sw, sw));
    p.setPen(text);
    p.drawText(at.adjusted(sw + 4, 0, sw + 4, 0), Qt::AlignLeft | Qt::AlignVCenter, Format::categoryName(category));
  });
}

int CategoryLegend::heightForWidth(int width) const {
  return static_cast<int>(std::ceil(heightFor(font(), width - 16))) + 4;
}

QSize CategoryLegend::sizeHint() const { return {400, heightForWidth(width() > 0 ? width() : 400)}; }

void CategoryLegend::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  paint(p, QRectF(8, 2, width() - 16, height() - 4), font(), palette().color(QPalette::Text));
}

} // namespace shardlab::app
