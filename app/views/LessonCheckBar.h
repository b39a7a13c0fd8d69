// LessonCheckBar: above the views once a lesson's runs ended, what the lesson's own
// check found on this run (models/LessonVerdict.h): that its point showed, or that it
// did not, with the measured cause, and a button for the replay that shows it.
#pragma once

#include "models/LessonVerdict.h"

#include <QFrame>

class QLabel;
class QPushButton;
class QToolButton;

namespace shardlab::app {

class LessonCheckBar : public QFrame {
  Q_OBJECT
public:
  explicit LessonCheckBar(QWidget* parent = nullptr);
  // Shows `verdict` (hidden when no check was made).
  void setVerdict(const LessonVerdict& verdict);
  void clear();
  QString text() const; // the whole verdict, as the details show it
  const LessonVerdict& verdict() const { return verdict_; }

Q_SIGNALS:
  void replayRequested(shardlab::trace::ReplayMode mode);

protected:
  void changeEvent(QEvent* event) override;

private:
  void retranslate();

  LessonVerdict verdict_;
  QLabel* label_ = nullptr;
  QToolButton* details_ = nullptr; // the cause, measured: shown on demand so the bar stays one line
  QPushButton* replay_ = nullptr;
};

} // namespace shardlab::app
