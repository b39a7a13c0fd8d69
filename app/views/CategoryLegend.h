// The memory categories' legend: a swatch and a name per category, wrapping onto as many
// rows as the width needs so every category stays named. The rank view paints it under
// its cards; the Both runs tab shows it once under both runs' cards.
#pragma once

#include <QWidget>

class QPainter;

namespace shardlab::app {

class CategoryLegend : public QWidget {
  Q_OBJECT
public:
  explicit CategoryLegend(QWidget* parent = nullptr);
  // Height of the legend drawn in `font` within `width`. `imported`: the run was
  // imported from a PyTorch trace, whose memory has one category only (unknown); a
  // ShardLab run's legend has ShardLab's categories.
  static double heightFor(const QFont& font, double width, bool imported = false);
  static void paint(QPainter& p, const QRectF& r, const QFont& font, const QColor& text, bool imported = false);

  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;

protected:
  void paintEvent(QPaintEvent*) override;
};

} // namespace shardlab::app
