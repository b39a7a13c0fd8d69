// GuidePanel: the running lesson's guide page beside the run (the Guide dock), so the
// learner keeps reading what to look at while the views replay it. Its answer section
// stays hidden until asked for, as on the start page. Once the lesson's run is over,
// "Next lesson" offers the following lesson of the catalog.
#pragma once

#include <QString>
#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace shardlab::app {

class LessonCatalog;

class GuidePanel : public QWidget {
  Q_OBJECT
public:
  GuidePanel(const LessonCatalog& catalog, QWidget* parent = nullptr);

  // The lesson whose guide to show ("" for none); "Next lesson" waits for setRunDone().
  void setLesson(const QString& lessonId);
  QString lesson() const { return lesson_; }
  // The lesson's run ended: "Next lesson" becomes available (when there is one).
  void setRunDone(bool done);
  // The lesson after this one in the catalog ("" for the last one).
  QString nextLesson() const;
  QString guideMarkdown() const { return shown_; }
  bool nextEnabled() const;

Q_SIGNALS:
  void nextLessonRequested(const QString& lessonId);

protected:
  void changeEvent(QEvent* e) override;

private:
  void show_();
  void retranslate();

  const LessonCatalog& catalog_;
  QString lesson_, shown_;
  bool runDone_ = false;
  QTextBrowser* text_ = nullptr;
  QCheckBox* answer_ = nullptr;
  QPushButton* next_ = nullptr;
};

} // namespace shardlab::app
