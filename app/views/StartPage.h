// StartPage: the lessons (list on the left, the selected lesson's guide page in the
// UI language on the right, its answer hidden until asked for) and the free experiment.
#pragma once

#include "models/LessonCatalog.h"

#include <QWidget>

class QCheckBox;
class QCommandLinkButton;
class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace shardlab::app {

class QuizController;

class StartPage : public QWidget {
  Q_OBJECT
public:
  explicit StartPage(const LessonCatalog& catalog, QWidget* parent = nullptr);

  void selectLesson(const QString& id);
  // The catalog changed: the list and the guide again: after the lessons were sized for the machine (their
  // labels name the job as it will run here) or a lab changed their jobs.
  void refresh() { retranslate(); }
  // The lessons whose questions the learner has all answered (in `quiz`): ticked in the list.
  void showCompletion(const QuizController& quiz);
  bool isCompleted(const QString& lessonId) const { return completed_.contains(lessonId); }
  QString selectedLesson() const;
  // The guide as shown (Markdown source of the visible part).
  QString guideMarkdown() const { return shownMarkdown_; }
  QTextBrowser* guideBrowser() const { return guide_; }

  // The guide without its last "## " section (the answer), and that section.
  static QPair<QString, QString> splitAnswer(const QString& markdown);

Q_SIGNALS:
  void lessonChosen(const QString& id);
  void experimentChosen();
  void openTraceChosen();

protected:
  void changeEvent(QEvent* e) override;

private:
  void retranslate();
  void showGuide();

  const LessonCatalog& catalog_;
  QLabel* intro_ = nullptr;
  QLabel* lessonsHeading_ = nullptr;
  QLabel* ownHeading_ = nullptr;
  QListWidget* list_ = nullptr;
  QTextBrowser* guide_ = nullptr;
  QPushButton* run_ = nullptr;
  QCheckBox* answer_ = nullptr;
  QCommandLinkButton* free_ = nullptr;
  QCommandLinkButton* open_ = nullptr;
  QString shownMarkdown_;
  QStringList completed_;
};

} // namespace shardlab::app
