#include "views/ReviewView.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace {

QString q(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString word(const QString& lang, const char* en, const char* fr, const char* ru) {
  return QString::fromUtf8(lang == QLatin1String("fr") ? fr : lang == QLatin1String("ru") ? ru : en);
}

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
                  .arg(q(id), word(lang, "asked about an earlier run; run it again to review it.",
                                   "posée sur une exécution précédente ; relancez-la pour la revoir.",
                                   "вопрос о прежнем запуске; запустите его снова, чтобы повторить."));
      continue;
    }
    const QString given = answer.choice < question->choices.size() ? q(question->choices[answer.choice].text.get(l)) : QString();
    const QString right = q(question->choices[question->correctIndex()].text.get(l));
    html += QStringLiteral("<p><b>%1</b><br>%2 <span style=\"color:#D55E00\">%3</span><br>%4 "
                           "<span style=\"color:#009E73\">%5</span><br><i>%6</i></p>")
                .arg(q(question->text.get(l)), word(lang, "Your answer:", "Votre réponse :", "Ваш ответ:"), given,
                     word(lang, "Right answer:", "Bonne réponse :", "Правильный ответ:"), right,
                     q(question->explanation.get(l)));
  }
  if (mistakes_ == 0)
    html = word(lang, "No mistakes to review.", "Aucune erreur à revoir.", "Ошибок для повторения нет.");
  text_->setHtml(html);
}

QString ReviewView::html() const { return text_->toPlainText(); }
