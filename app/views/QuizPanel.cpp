#include "views/QuizPanel.h"

#include "models/AppSettings.h"
#include "views/Palette.h"
#include "views/ReviewView.h"

#include <QLocale>
#include <QButtonGroup>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

#include <algorithm>

namespace shardlab::app {

namespace sq = shardlab::quiz;

namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
} // namespace

QuizPanel::QuizPanel(TraceModel& model, PlaybackController& playback, QWidget* parent)
    : QWidget(parent), controller_(model, playback) {
  setObjectName(QStringLiteral("quizPanel"));
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(2, 2, 2, 2);
  // The lesson's prediction, asked before its run and compared with the run after it.
  predictionBox_ = new QFrame(this);
  predictionBox_->setObjectName(QStringLiteral("predictionBox"));
  predictionBox_->setFrameShape(QFrame::StyledPanel);
  auto* pl = new QVBoxLayout(predictionBox_);
  predictionText_ = new QLabel(predictionBox_);
  predictionText_->setWordWrap(true);
  auto* prow = new QHBoxLayout;
  predictionInput_ = new QLineEdit(predictionBox_);
  predictionInput_->setObjectName(QStringLiteral("predictionInput"));
  // Room for "560 KiB" or "1,5 МиБ" at any text size (the walk found it 40 px wide).
  predictionInput_->setMinimumWidth(predictionInput_->fontMetrics().horizontalAdvance(QStringLiteral("0000000000")));
  predictionSave_ = new QPushButton(predictionBox_);
  prow->addWidget(predictionInput_, 1);
  prow->addWidget(predictionSave_);
  predictionSkip_ = new QPushButton(predictionBox_);
  predictionSkip_->setObjectName(QStringLiteral("predictionSkip"));
  predictionSkip_->hide();
  prow->addWidget(predictionSkip_);
  predictionResult_ = new QLabel(predictionBox_);
  predictionResult_->setObjectName(QStringLiteral("predictionResult"));
  predictionResult_->setWordWrap(true);
  pl->addWidget(predictionText_);
  pl->addLayout(prow);
  pl->addWidget(predictionResult_);
  predictionShowMe_ = new QPushButton(predictionBox_);
  predictionShowMe_->setObjectName(QStringLiteral("predictionShowMe"));
  predictionShowMe_->hide();
  predictionMoment_ = new QLabel(predictionBox_);
  predictionMoment_->setObjectName(QStringLiteral("predictionMoment"));
  predictionMoment_->setWordWrap(true);
  auto* mrow = new QHBoxLayout;
  mrow->addWidget(predictionShowMe_);
  mrow->addStretch(1);
  pl->addLayout(mrow);
  pl->addWidget(predictionMoment_);
  predictionBox_->hide();
  outer->addWidget(predictionBox_);
  connect(predictionSave_, &QPushButton::clicked, this, [this] { savePrediction(predictionInput_->text()); });
  connect(predictionShowMe_, &QPushButton::clicked, this, [this] {
    const auto evidence = controller_.showPredictionMoment();
    if (evidence.moment)
      predictionMoment_->setText(QStringLiteral("<b>%1</b> %2")
                                     .arg(tr("At t = %1 ms:").arg(QLocale().toString(static_cast<double>(evidence.moment->sinceStart) / 1e6, 'f', 2)),
                                          q(evidence.moment->sentence.get(lang())).toHtmlEscaped()));
    else
      predictionMoment_->setText(tr("This run does not show this moment."));
  });
  connect(predictionInput_, &QLineEdit::returnPressed, this, [this] { savePrediction(predictionInput_->text()); });
  connect(predictionSkip_, &QPushButton::clicked, this, [this] {
    setAwaitingPrediction(false);
    Q_EMIT predictionDone();
  });
  tabs_ = new QTabWidget(this);
  outer->addWidget(tabs_, 1);
  auto* page = questionsPage_ = new QWidget(tabs_);
  review_ = new ReviewView(tabs_);
  tabs_->addTab(page, QString());
  tabs_->addTab(review_, QString());
  connect(tabs_, &QTabWidget::currentChanged, this, [this] { refreshReview(); });
  auto* l = new QVBoxLayout(page);
  header_ = new QLabel(this);
  header_->setObjectName(QStringLiteral("quizHeader"));
  QFont small = header_->font();
  small.setBold(true);
  header_->setFont(small);
  question_ = new QLabel(this);
  question_->setObjectName(QStringLiteral("quizQuestion"));
  question_->setWordWrap(true);
  QFont big = question_->font();
  big.setPointSizeF(big.pointSizeF() * 1.1);
  question_->setFont(big);
  l->addWidget(header_);
  l->addWidget(question_);
  group_ = new QButtonGroup(this);
  for (int i = 0; i < 4; ++i) {
    // A radio button with its letter and a word-wrapped label beside it (long choices wrap).
    auto* row = new QHBoxLayout;
    auto* b = new QRadioButton(QStringLiteral("%1)").arg(QChar(u'a' + i)), this);
    b->setObjectName(QStringLiteral("choice%1").arg(i));
    auto* text = new QLabel(this);
    text->setObjectName(QStringLiteral("choiceText%1").arg(i));
    text->setWordWrap(true);
    text->setBuddy(b);
    group_->addButton(b, i);
    choices_.push_back(b);
    choiceLabels_.push_back(text);
    row->addWidget(b, 0, Qt::AlignTop);
    row->addWidget(text, 1);
    l->addLayout(row);
  }
  auto* buttons = new QHBoxLayout;
  check_ = new QPushButton(this);
  check_->setObjectName(QStringLiteral("check"));
  showMe_ = new QPushButton(this);
  showMe_->setObjectName(QStringLiteral("showMe"));
  buttons->addWidget(check_);
  buttons->addWidget(showMe_);
  buttons->addStretch(1);
  l->addLayout(buttons);
  explanation_ = new QLabel(this);
  explanation_->setObjectName(QStringLiteral("quizExplanation"));
  explanation_->setWordWrap(true);
  explanation_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  l->addWidget(explanation_);
  evidence_ = new QLabel(this);
  evidence_->setObjectName(QStringLiteral("quizEvidence"));
  evidence_->setWordWrap(true);
  evidence_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  evidence_->setStyleSheet(QStringLiteral("QLabel#quizEvidence { border-left: 4px solid %1; padding-left: 6px; }").arg(Palette::accent().name()));
  l->addWidget(evidence_);
  l->addStretch(1);
  auto* nav = new QHBoxLayout;
  prev_ = new QPushButton(this);
  next_ = new QPushButton(this);
  nav->addWidget(prev_);
  nav->addStretch(1);
  nav->addWidget(next_);
  l->addLayout(nav);
  connect(check_, &QPushButton::clicked, this, [this] {
    if (group_->checkedId() >= 0) answer(group_->checkedId());
  });
  connect(showMe_, &QPushButton::clicked, this, [this] { showMe(); });
  connect(prev_, &QPushButton::clicked, this, [this] { showQuestion(current_ - 1); });
  connect(next_, &QPushButton::clicked, this, [this] { showQuestion(current_ + 1); });

  connect(&controller_, &QuizController::itemsChanged, this, [this] {
    const int count = questionCount();
    showQuestion(count == 0 ? -1 : std::clamp(current_, 0, count - 1));
    refreshReview();
  });
  // The dock keeps its width from question to question: a wrapped text (a long word in an
  // explanation, a choice) takes the width it is given and never widens the panel.
  for (auto* label : findChildren<QLabel*>())
    if (label->wordWrap()) {
      QSizePolicy policy = label->sizePolicy();
      policy.setHorizontalPolicy(QSizePolicy::Ignored);
      label->setSizePolicy(policy);
    }
  retranslate();
  showQuestion(questionCount() == 0 ? -1 : 0);
}

std::string QuizPanel::lang() {
  const QString l = AppSettings::effectiveLanguage();
  return l == QLatin1String("fr") || l == QLatin1String("ru") ? l.toStdString() : std::string("en");
}

void QuizPanel::clearPredictionShown() {
  predictionResult_->clear();
  predictionResult_->setStyleSheet(QString());
  predictionShowMe_->hide();
  predictionMoment_->clear();
  predictionInput_->clear();
}

void QuizPanel::setLearner(const QString& name) {
  controller_.setLearner(name);
  clearPredictionShown();
  showQuestion(questionCount() == 0 ? -1 : 0);
  refreshReview();
}

void QuizPanel::resetProgress() {
  controller_.resetProgress();
  clearPredictionShown();
  showQuestion(questionCount() == 0 ? -1 : 0);
  refreshReview();
}

void QuizPanel::setLesson(const QString& lessonId) {
  controller_.setLesson(lessonId);
  predictionBox_->setVisible(hasPrediction());
  clearPredictionShown();
  setAwaitingPrediction(false);
  retranslate();
  // Another lesson (or none): its quiz starts at its first question, on the Questions
  // tab (the Review of a lesson nobody answered yet says nothing), its review is its own.
  tabs_->setCurrentWidget(questionsPage_);
  showQuestion(questionCount() == 0 ? -1 : 0);
  refreshReview();
}

void QuizPanel::setLab(const sq::Lab& lab) {
  controller_.setLab(lab);
  predictionBox_->setVisible(hasPrediction());
  tabs_->setCurrentWidget(questionsPage_);
  retranslate();
}

QString QuizPanel::predictionQuestion() const {
  return controller_.predictionText(QString::fromStdString(lang()));
}

QString QuizPanel::predictionResult() const { return predictionResult_->text(); }

bool QuizPanel::savePrediction(const QString& text) {
  if (!hasPrediction()) return false;
  if (!controller_.savePrediction(text)) {
    predictionResult_->setText(tr("Not a value of this kind (%1).").arg(q(controller_.prediction()->kind)));
    return false;
  }
  predictionResult_->setText(tr("Saved: %1. It is compared with the run's measurement when the run is there.").arg(text.trimmed()));
  showPredictionCheck(); // the run may already be there
  if (awaitingPrediction_) {
    setAwaitingPrediction(false);
    Q_EMIT predictionDone();
  }
  return true;
}

void QuizPanel::setAwaitingPrediction(bool on) {
  awaitingPrediction_ = on && hasPrediction();
  predictionSkip_->setVisible(awaitingPrediction_);
  if (awaitingPrediction_) predictionInput_->setFocus();
}

QString QuizPanel::awaitingMessage() const {
  return tr("First, predict: %1 The run starts when you save your prediction (or run without one).").arg(predictionQuestion());
}

void QuizPanel::showPredictionCheck() {
  const auto check = controller_.checkPrediction();
  if (!check) return;
  predictionResult_->setText(q(check->text.get(lang())));
  // "Look at the moment that shows why": the button that goes there.
  predictionShowMe_->setVisible(controller_.prediction() && controller_.prediction()->moment.has_value());
  predictionResult_->setStyleSheet(QStringLiteral("color: %1;").arg((check->close ? Palette::ok() : Palette::problem()).name()));
}

void QuizPanel::refreshReview() {
  // Only the answers given to the questions on screen: this lesson's, about this run.
  std::vector<ReviewView::Entry> answered;
  for (int i = 0; i < questionCount(); ++i)
    if (const auto* a = controller_.answerOf(i)) answered.push_back({controller_.items()[static_cast<std::size_t>(i)].item.question, *a});
  review_->setData(answered, q(lang()));
}

void QuizPanel::showEvidence(const sq::MomentLocation& moment) {
  evidence_->setText(QStringLiteral("<b>%1</b> %2")
                         .arg(tr("At t = %1 ms:").arg(QLocale().toString(static_cast<double>(moment.sinceStart) / 1e6, 'f', 2)),
                              q(moment.sentence.get(lang())).toHtmlEscaped()));
}

void QuizPanel::refreshObservations(const QString& traceFile, const shardlab::trace::Trace* second) {
  const auto pending = controller_.refreshObservations(traceFile, second);
  showPredictionCheck();
  refreshReview();
  if (pending) showEvidence(*pending);
}

void QuizPanel::showQuestion(int index) {
  const auto& items = controller_.items();
  if (items.empty() || index < 0) {
    current_ = -1;
    header_->clear();
    question_->setText(tr("No questions yet: run a lesson or open a trace."));
    for (auto* b : choices_) b->hide();
    for (auto* t : choiceLabels_) t->hide();
    check_->setEnabled(false);
    showMe_->setEnabled(false);
    prev_->setEnabled(false);
    next_->setEnabled(false);
    explanation_->clear();
    evidence_->clear();
    return;
  }
  current_ = std::clamp(index, 0, static_cast<int>(items.size()) - 1);
  const auto& it = items[static_cast<std::size_t>(current_)];
  const std::string l = lang();
  header_->setText(QStringLiteral("%1 · %2 / %3")
                       .arg(it.observed ? tr("About your run") : tr("Lesson question"))
                       .arg(current_ + 1)
                       .arg(items.size()));
  question_->setText(q(it.item.question.text.get(l)));
  group_->setExclusive(false);
  for (std::size_t i = 0; i < choices_.size(); ++i) {
    auto* b = choices_[i];
    const bool has = i < it.item.order.size();
    b->setVisible(has);
    b->setChecked(false);
    choiceLabels_[i]->setVisible(has);
    choiceLabels_[i]->setText(has ? q(it.item.shownChoice(i).get(l)) : QString());
  }
  group_->setExclusive(true);
  check_->setEnabled(true);
  showMe_->setEnabled(it.item.question.evidence.has_value());
  prev_->setEnabled(current_ > 0);
  next_->setEnabled(current_ + 1 < static_cast<int>(items.size()));
  explanation_->clear();
  evidence_->clear();
}

QStringList QuizPanel::shownChoices() const {
  QStringList out;
  if (current_ < 0) return out;
  const auto& it = controller_.items()[static_cast<std::size_t>(current_)];
  for (std::size_t i = 0; i < it.item.order.size(); ++i) out << q(it.item.shownChoice(i).get(lang()));
  return out;
}

QString QuizPanel::questionText() const { return question_->text(); }
QString QuizPanel::explanationText() const { return explanation_->text(); }
QString QuizPanel::evidenceText() const { return evidence_->text(); }

int QuizPanel::correctShown() const {
  return current_ < 0 ? -1 : static_cast<int>(controller_.items()[static_cast<std::size_t>(current_)].item.correctShown);
}

bool QuizPanel::answer(int shown) {
  if (current_ < 0 || shown < 0) return false;
  const auto& it = controller_.items()[static_cast<std::size_t>(current_)];
  if (static_cast<std::size_t>(shown) >= it.item.order.size()) return false;
  if (auto* b = choices_[static_cast<std::size_t>(shown)]; !b->isChecked()) b->setChecked(true);
  const bool right = controller_.answer(current_, shown);
  refreshReview();
  const std::string l = lang();
  const QString verdict = right ? tr("Right.") : tr("Not quite. The answer: %1").arg(q(it.item.shownChoice(it.item.correctShown).get(l)));
  explanation_->setText(QStringLiteral("<b>%1</b> %2").arg(verdict.toHtmlEscaped(), q(it.item.question.explanation.get(l)).toHtmlEscaped()));
  explanation_->setStyleSheet(QStringLiteral("QLabel { border-left: 4px solid %1; padding-left: 6px; }")
                                  .arg((right ? Palette::ok() : Palette::problem()).name()));
  return right;
}

bool QuizPanel::showMe() {
  if (current_ < 0) return false;
  const auto evidence = controller_.showMe(current_);
  using Kind = QuizController::Evidence::Kind;
  switch (evidence.kind) {
  case Kind::None: return false;
  case Kind::Shown: showEvidence(*evidence.moment); return true;
  case Kind::Absent: evidence_->setText(tr("This run does not show this moment.")); return false;
  case Kind::LessonRequested:
    evidence_->setText(tr("This run does not show it; running the lesson %1…").arg(evidence.lesson));
    Q_EMIT lessonRunRequested(evidence.lesson);
    return false;
  }
  return false;
}

void QuizPanel::retranslate() {
  tabs_->setTabText(tabs_->indexOf(questionsPage_), tr("Questions"));
  tabs_->setTabText(tabs_->indexOf(review_), tr("Review"));
  predictionSave_->setText(tr("Save"));
  predictionSkip_->setText(tr("Run without predicting"));
  predictionText_->setText(hasPrediction()
                               ? QStringLiteral("<b>%1</b> %2").arg(tr("Predict before you run:"), predictionQuestion().toHtmlEscaped())
                               : QString());
  check_->setText(tr("Check"));
  predictionShowMe_->setText(tr("Show me the moment"));
  showMe_->setText(tr("Show me"));
  prev_->setText(tr("◀ Previous"));
  next_->setText(tr("Next ▶"));
}

void QuizPanel::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) {
    retranslate();
    showQuestion(current_); // the questions' own texts switch language too
    showPredictionCheck();
    refreshReview();
  }
  QWidget::changeEvent(e);
}

} // namespace shardlab::app
