// ReviewView: the answers the learner gave in the quiz on screen (this lesson and this
// run), mistakes first, each with its question, the answer given, whether the first
// try was right, the right answer and the explanation, in the current language.
// Questions never answered are not listed.
#pragma once

#include "quiz/bank/Question.h"
#include "quiz/progress/Progress.h"

#include <QWidget>

#include <vector>

class QTextBrowser;

namespace shardlab::app {

class ReviewView : public QWidget {
  Q_OBJECT
public:
  // One answered question: the question as asked (its choices in bank order) and the record.
  struct Entry {
    shardlab::quiz::Question question;
    shardlab::quiz::AnswerRecord answer;
  };

  explicit ReviewView(QWidget* parent = nullptr);
  void setData(const std::vector<Entry>& answered, const QString& lang);
  int mistakeCount() const { return mistakes_; }
  int answerCount() const { return answers_; }
  QString html() const;

private:
  QTextBrowser* text_ = nullptr;
  int mistakes_ = 0;
  int answers_ = 0;
};

} // namespace shardlab::app
