// ReviewView: the learner's mistakes, each with its question, the answer given, the
// right one and the explanation, in the current language. Built from quiz::Progress
// (answers are stored by bank choice index) and the questions the Quiz dock knows.
#pragma once

#include "quiz/progress/Progress.h"
#include "quiz/bank/Question.h"

#include <QWidget>

#include <vector>

class QTextBrowser;

class ReviewView : public QWidget {
  Q_OBJECT
public:
  explicit ReviewView(QWidget* parent = nullptr);
  // `questions`: every question that may have been answered (guide and observation).
  void setData(const shardlab::quiz::Progress& progress, const std::vector<shardlab::quiz::Question>& questions,
               const QString& lang);
  int mistakeCount() const { return mistakes_; }
  QString html() const;

private:
  QTextBrowser* text_ = nullptr;
  int mistakes_ = 0;
};
