#include "views/ReviewView.h"

#include "views/Palette.h"

#include <QTextBrowser>
#include <QVBoxLayout>

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

void ReviewView::setData(const shardlab::quiz::Progress& progress, const std::vector<shardlab::quiz::Question>& questions,
                         const QString& lang) {
  const std::string l = lang.toStdString();
  QString html;
  mistakes_ = 0;
  for (const auto& [id, answer] : progress.answers()) {
    if (answer.correct) continue;
    const shardlab::quiz::Question* question = nullptr;
    for (const auto& candidate : questions)
      if (candidate.id == id) question = &candidate;
    ++mistakes_;
    if (!question) {
      html += QStringLiteral("<p><b>%1</b> — %2</p>")
                  .arg(q(id), tr("asked about an earlier run; run it again to review it."));
      continue;
    }
    const QString given = answer.choice < question->choices.size() ? q(question->choices[answer.choice].text.get(l)) : QString();
    const QString right = q(question->choices[question->correctIndex()].text.get(l));
    html += QStringLiteral("<p><b>%1</b><br>%2 <span style=\"color:%7\">%3</span><br>%4 "
                           "<span style=\"color:%8\">%5</span><br><i>%6</i></p>")
                .arg(q(question->text.get(l)), tr("Your answer:"), given,
                     tr("Right answer:"), right,
                     q(question->explanation.get(l)), Palette::problem().name(), Palette::ok().name());
  }
  if (mistakes_ == 0)
    html = tr("No mistakes to review.");
  text_->setHtml(html);
}

QString ReviewView::html() const { return text_->toPlainText(); }
