#include "views/ReviewView.h"

#include "views/Palette.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace shardlab::app {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

} // namespace

ReviewView::ReviewView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("reviewView"));
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(0, 0, 0, 0);
  text_ = new QTextBrowser(this);
  text_->setOpenLinks(false);
  l->addWidget(text_);
}

void ReviewView::setData(const std::vector<Entry>& answered, const QString& lang) {
  const std::string l = lang.toStdString();
  QString mistakes, right;
  mistakes_ = 0;
  answers_ = static_cast<int>(answered.size());
  for (const auto& [question, answer] : answered) {
    const QString given = answer.choice < question.choices.size() ? q(question.choices[answer.choice].text.get(l)) : QString();
    QString firstTry;
    if (answer.firstAttemptCorrect && answer.attempts > 1)
      firstTry = *answer.firstAttemptCorrect ? tr("Right at the first try.") : tr("Wrong at the first try.");
    if (answer.correct) {
      right += QStringLiteral("<p><b>%1</b><br>%2 <span style=\"color:%4\">%3</span> %5</p>")
                   .arg(q(question.text.get(l)), tr("Your answer:"), given, Palette::ok().name(), firstTry.toHtmlEscaped());
      continue;
    }
    ++mistakes_;
    const QString rightAnswer = q(question.choices[question.correctIndex()].text.get(l));
    mistakes += QStringLiteral("<p><b>%1</b><br>%2 <span style=\"color:%7\">%3</span><br>%4 "
                               "<span style=\"color:%8\">%5</span><br><i>%6</i></p>")
                    .arg(q(question.text.get(l)), tr("Your answer:"), given, tr("Right answer:"), rightAnswer,
                         q(question.explanation.get(l)), Palette::problem().name(), Palette::ok().name());
  }
  QString html;
  if (answered.empty()) html = tr("No answers yet in this quiz.");
  else if (mistakes_ == 0) html = tr("No mistakes to review.") + right;
  else html = mistakes + QStringLiteral("<hr>") + right;
  text_->setHtml(html);
}

QString ReviewView::html() const { return text_->toPlainText(); }

} // namespace shardlab::app
