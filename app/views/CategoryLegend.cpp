#include "views/CategoryLegend.h"

#include "views/Palette.h"

#include <QFontMetricsF>
#include <QPainter>

#include <cmath>

namespace st = shardlab::trace;

namespace {

double rowHeight(const QFont& font) { return QFontMetricsF(font).height() * 1.4; }

double entryWidth(const QFont& font, int category) {
  const QFontMetricsF fm(font);
  return fm.height() * 0.8 + 4 + fm.horizontalAdvance(Palette::categoryName(static_cast<st::Category>(category))) + 12;
}

} // namespace

CategoryLegend::CategoryLegend(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

double CategoryLegend::heightFor(const QFont& font, double width) {
  int rows = 1;
  double x = 0;
  for (int c = 0; c < st::kCategoryCount; ++c) {
    const double w = entryWidth(font, c);
    if (x > 0 && x + w > width) ++rows, x = 0;
    x += w;
  }
  return rows * rowHeight(font);
}

void CategoryLegend::paint(QPainter& p, const QRectF& r, const QFont& font, const QColor& text) {
  const double sw = QFontMetricsF(font).height() * 0.8, rowH = rowHeight(font);
  p.setFont(font);
  double x = r.left(), y = r.top();
  for (int c = 0; c < st::kCategoryCount; ++c) {
    const double w = entryWidth(font, c);
    if (x > r.left() && x + w > r.right()) x = r.left(), y += rowH;
    p.setPen(Qt::NoPen);
    p.setBrush(Palette::category(static_cast<st::Category>(c)));
    p.drawRect(QRectF(x, y + (rowH - sw) / 2, sw, sw));
    p.setPen(text);
    p.drawText(QRectF(x + sw + 4, y, w, rowH), Qt::AlignLeft | Qt::AlignVCenter,
               Palette::categoryName(static_cast<st::Category>(c)));
    x += w;
  }
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
