// QuizOverlay: presentation mode's quiz, over the right part of the workspace's views.
// The instructor shows or hides it (View → Quiz overlay, F9, its Hide button), so the
// room sees the run at full width the rest of the time. It holds the Quiz dock's panel
// while the window presents (setQuiz / takeQuiz); the questions scroll inside it.
#pragma once

#include <QFrame>

class QLabel;
class QScrollArea;
class QToolButton;

namespace shardlab::app {

class QuizOverlay : public QFrame {
  Q_OBJECT
public:
  explicit QuizOverlay(QWidget* parent = nullptr);

  void setQuiz(QWidget* quiz);
  // Gives the quiz back (to its dock); nullptr when it holds none.
  QWidget* takeQuiz();
  // Its place in `area` (the views, from the tabs down to the caption, in the parent's
  // coordinates): the right two fifths, never narrower than 40 characters.
  void placeIn(const QRect& area);

Q_SIGNALS:
  void hideRequested();

protected:
  void changeEvent(QEvent* e) override;

private:
  void retranslate();

  QLabel* title_;
  QToolButton* hide_;
  QScrollArea* scroll_;
};

} // namespace shardlab::app
