// Where the quiz is shown: its dock beside the run, or in presentation mode the overlay
// over the views, which the instructor shows or hides (View → Quiz overlay, F9). The quiz
// panel moves between the two; each keeps the other's shown state when it takes over.
#pragma once

#include <QObject>
#include <QPointer>

class QAction;
class QDockWidget;
class QMenu;

namespace shardlab::app {

class QuizPanel;
class WorkspacePage;

class QuizPlace : public QObject {
  Q_OBJECT
public:
  QuizPlace(QuizPanel& quiz, QDockWidget& dock, WorkspacePage& workspace, QObject* parent);

  void setPresenting(bool on);
  bool presenting() const { return presenting_; }
  // The overlay (only while presenting).
  void setOverlayShown(bool shown);
  // The quiz in front: the dock, or while presenting the overlay.
  void show();
  // A run's questions are asked where they can be seen; on a projector the instructor
  // shows the overlay (F9) when the room is to see them.
  void offerQuestions();
  // View → Quiz overlay (presentation), F9 (again after a language change: the menus are rebuilt).
  void addOverlayAction(QMenu& menu);

private:
  QuizPanel& quiz_;
  QDockWidget& dock_;
  WorkspacePage& workspace_;
  QPointer<QAction> overlayAction_;
  bool presenting_ = false;
};

} // namespace shardlab::app
