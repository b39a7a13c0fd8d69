// RankView: one card per rank at the playhead. Each card shows the rank's device
// label, its memory bar stacked by category to scale (recorded bytes), and every
// unit's parameters as N slots (one per owner rank) in the unit's colour. During an
// all-gather the other ranks' shards fly in and the full copy assembles; after
// compute the copy disappears when the trace frees it; during reduce-scatter the
// gradient slices fly to their owners; an all-reduce sums the buffer everywhere.
#pragma once

#include "models/MemoryStateModel.h"

#include <QPixmap>
#include <QWidget>

namespace shardlab::app {

class RankView : public QWidget {
  Q_OBJECT
public:
  explicit RankView(const TraceModel& model, QWidget* parent = nullptr);

  qint64 time() const { return time_; }
  // The categories' legend under the cards (CategoryLegend); off where one legend serves
  // several rank views (the Both runs tab), which gives the cards its height.
  void setLegendShown(bool shown);
  // A lesson waits for the learner's prediction before its run: without a run the view says
  // there is none yet for this lesson (rather than "pick a lesson").
  void setAwaitingRun(bool awaiting);
  // What the view says without a run.
  QString emptyText() const;
  bool legendShown() const { return legendShown_; }
  // Geometry of the last paint (for tests and hit-testing).
  QRectF cardRect(int rank) const;
  QRectF slotRect(int rank, int unit, int slot) const;
  QRectF memoryBarRect(int rank) const;
  // Whether the card has room for the unit's cells (a short card shows the first rows only).
  bool unitShown(int rank, int unit) const;
  // The unit's name as the last paint wrote it (elided when its cell was too narrow).
  QString shownUnitLabel(int unit) const {
    return unit >= 0 && static_cast<std::size_t>(unit) < labels_.size() ? labels_[static_cast<std::size_t>(unit)] : QString();
  }
  // The out-of-memory box of a rank that ran out of memory (empty otherwise): its sentence,
  // where it is drawn, and whether the whole sentence fits in it (tests).
  QString outOfMemoryText(int rank) const;
  QRectF outOfMemoryBoxRect(int rank) const;
  bool outOfMemoryTextFits(int rank) const;
  QSize sizeHint() const override { return {900, 600}; }
  // Where the usual grid of cards cannot give every unit a legible cell with its name in
  // full (four ranks in half of 1280 px, presenting), the cards stand in one row as
  // columns and every unit is a row across them, named once at the left.
  bool unitRows() const { return unitRows_; }
  // The texts the last paint wrote on a card, each with what it stands for: equal, or
  // shortened where the card is narrow, the whole text then in the card's tooltip (tests).
  struct ShownText {
    QString full, shown;
  };
  std::vector<ShownText> shownTexts(int rank) const;
  // The tooltip of the card under `pos`: its title, activity and memory in full, and the
  // out-of-memory sentence.
  QString toolTipAt(const QPointF& pos) const;
  // What the card says the rank does at the playhead: the ops running, idle, or at the
  // newest recorded instant (a live job's edge) what it did last.
  QString activityText(int rank) const;

public Q_SLOTS:
  void setTime(qint64 t);
  void modelReset();

protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  bool event(QEvent*) override;

private:
  void layoutCards();
  // Whether cards of this size give every unit a cell of 16 px with its whole name.
  bool gridLegible(const QRectF& card) const;
  double longestUnitName() const;
  void noteShown(int rank, const QString& full, const QString& shown) const;
  QString hybridHeaderText() const;
  void paintCard(QPainter& p, int rank);
  // The sentence under the card's title and whether the rank is idle.
  std::pair<QString, bool> activity(int rank, const RankState& state) const;
  void paintCardUnder(QPainter& p, int rank);
  void paintCardOver(QPainter& p, int rank);
  void paintFailureBox(QPainter& p, int rank);
  int failureAt(int rank) const;
  // The box a failure's sentence is drawn in at the bottom of the card: as tall as its words
  // need, up to half the card, in `fitted` (the font, smaller where half the card is short).
  QRectF failureBoxRect(int rank, const QString& text, QFont* fitted) const;
  void paintTransfers(QPainter& p);
  int unitColumns() const;
  int bestUnitColumns(const QRectF& card, double lh, int units) const;
  QString unitLabel(int unit, const QFont& font, double width) const;
  double cellHeight(int rank) const;
  double labelHeight(double cellH) const;
  QFont smallFont() const;
  const TraceModel& model_;
  MemoryStateModel state_;
  qint64 time_ = 0;
  std::vector<QRectF> cards_;
  QRectF legend_;
  QRectF header_; // hybrid sharding: how to read the grid
  int laidOutSlots_ = 0;
  std::vector<QRectF> groupLabels_; // hybrid sharding, cards in one row: above each shard group
  bool legendShown_ = true;
  bool unitRows_ = false;
  int activityLines_ = 2;   // unit rows: lines of what the rank does under its title
  bool memoryLine_ = true;  // unit rows: the memory line under the bar
  QRectF names_; // unit rows: the column of unit names at the left
  mutable std::vector<std::vector<ShownText>> shown_; // this frame's texts, per card
  std::vector<ShownText> titles_;                     // unit rows: the titles, drawn with the layers
  bool awaitingRun_ = false;
  qint64 budget_ = 0;
  struct ColumnsKey {
    int units = -1, ranks = -1;
    QSizeF card;
    double lineHeight = 0;
    int charWidth = 0;
    bool operator==(const ColumnsKey&) const = default;
  };
  mutable ColumnsKey columnsKey_;
  mutable int columns_ = 1;
  // Layers drawn once per (run, size, look): under and over the state at t.
  QPixmap under_, over_;
  quint64 layerEpoch_ = 0; // bumped by modelReset()
  struct LayerKey {
    quint64 epoch = ~0ull;
    QSize size;
    qint64 paletteKey = 0;
    QString font;
    double dpr = 0;
    bool operator==(const LayerKey&) const = default;
  } layerKey_;
  mutable QString labelsKey_;
  mutable std::vector<QString> labels_;
};

} // namespace shardlab::app
