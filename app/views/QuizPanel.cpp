#include "views/QuizPanel.h"

#include "models/AppSettings.h"
#include "models/LessonCatalog.h"
#include "quiz/bank/LessonLibrary.h"
#include "models/PlaybackController.h"
#include "quiz/observations/PredictionCheck.h"
#include "views/ReviewView.h"
#include "quiz/observations/TraceHash.h"
#include "models/TraceModel.h"

#include <QButtonGroup>
#include <QDir>
#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTabWidget>
#include <QPushButton>
#include <QRadioButton>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <utility>

namespace sq = shardlab::quiz;

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// The panel's own words in the three languages of the quiz texts.
struct Words {
  const char* key;
  const char* en;
  const char* fr;
  const char* ru;
};
constexpr Words kWords[] = {
    {"check", "Check", "Vérifier", "Проверить"},
    {"showme", "Show me", "Montrez-moi", "Показать"},
    {"prev", "◀ Previous", "◀ Précédente", "◀ Назад"},
    {"next", "Next ▶", "Suivante ▶", "Далее ▶"},
    {"none", "No questions yet: run a lesson or open a trace.", "Pas encore de questions : lancez une leçon ou ouvrez une trace.",
     "Вопросов пока нет: запустите урок или откройте трассу."},
    {"guide", "Lesson question", "Question de la leçon", "Вопрос урока"},
    {"observed", "About your run", "Sur votre exécution", "О вашем запуске"},
    {"right", "Right.", "Juste.", "Верно."},
    {"wrong", "Not quite. The answer: %1", "Pas tout à fait. La réponse : %1", "Не совсем. Ответ: %1"},
    {"of", "%1 / %2", "%1 / %2", "%1 / %2"},
    {"evidence", "At t = %1 ms:", "À t = %1 ms :", "При t = %1 мс:"},
    {"predict", "Predict before you run:", "Prédisez avant de lancer :", "Предскажите до запуска:"},
    {"save", "Save", "Enregistrer", "Сохранить"},
    {"skip", "Run without predicting", "Lancer sans prédire", "Запустить без прогноза"},
    {"predictFirst", "First, predict: %1 The run starts when you save your prediction (or run without one).",
     "D'abord, prédisez : %1 L'exécution démarre quand vous enregistrez votre prédiction (ou lancez sans prédire).",
     "Сначала сделайте прогноз: %1 Запуск начнётся, когда вы сохраните прогноз (или запустите без него)."},
    {"saved", "Saved: %1. It is compared with the run's measurement when the run is there.",
     "Enregistré : %1. Elle sera comparée à la mesure de l'exécution dès que l'exécution sera là.",
     "Сохранено: %1. Прогноз сравнивается с измерением, как только есть запуск."},
    {"unreadable", "Not a value of this kind (%1).", "Pas une valeur de ce type (%1).", "Это не значение нужного вида (%1)."},
    {"questions", "Questions", "Questions", "Вопросы"},
    {"review", "Review", "Révision", "Повторение"},
    {"notshown", "This run does not show it; running the lesson %1…", "Cette exécution ne le montre pas ; lancement de la leçon %1…",
     "Этот запуск этого не показывает; запускаю урок %1…"},
    {"absent", "This run does not show this moment.", "Cette exécution ne montre pas ce moment.",
     "Этот запуск не показывает этот момент."},
};

} // namespace

QuizPanel::QuizPanel(TraceModel& model, PlaybackController& playback, QWidget* parent)
    : QWidget(parent), model_(model), playback_(playback) {
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
  predictionBox_->hide();
  outer->addWidget(predictionBox_);
  connect(predictionSave_, &QPushButton::clicked, this, [this] { savePrediction(predictionInput_->text()); });
  connect(predictionInput_, &QLineEdit::returnPressed, this, [this] { savePrediction(predictionInput_->text()); });
  connect(predictionSkip_, &QPushButton::clicked, this, [this] {
    setAwaitingPrediction(false);
    Q_EMIT predictionDone();
  });
  tabs_ = new QTabWidget(this);
  outer->addWidget(tabs_, 1);
  auto* page = new QWidget(tabs_);
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
  evidence_->setStyleSheet(QStringLiteral("QLabel#quizEvidence { border-left: 4px solid #0072B2; padding-left: 6px; }"));
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

  try {
    const auto dir = LessonCatalog::assetsDirectory();
    if (!dir.isEmpty()) bank_ = std::make_unique<sq::QuestionBank>(sq::QuestionBank::loadDirectory(dir.toStdString() + "/quiz"));
  } catch (const std::exception&) {
    bank_.reset(); // no guide questions; observation questions still work
  }
  const QString appData = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
  setProgressFile(QDir(appData).filePath(QStringLiteral("progress.json")));
  retranslate();
  rebuild();
}

QuizPanel::~QuizPanel() = default;

QString QuizPanel::lang() const {
  const QString l = AppSettings::effectiveLanguage();
  return l == QLatin1String("fr") || l == QLatin1String("ru") ? l : QStringLiteral("en");
}

QString QuizPanel::tr3(const char* key) const {
  const QString l = lang();
  for (const auto& w : kWords)
    if (qstrcmp(w.key, key) == 0)
      return QString::fromUtf8(l == QLatin1String("fr") ? w.fr : l == QLatin1String("ru") ? w.ru : w.en);
  return QString::fromLatin1(key);
}

void QuizPanel::setProgressFile(const QString& path) {
  try {
    progress_ = std::make_unique<sq::Progress>(sq::Progress::load(path.toStdString()));
  } catch (const std::exception&) {
    progress_ = std::make_unique<sq::Progress>(path.toStdString()); // unreadable: start over, keep the file until saved
  }
}

void QuizPanel::setLesson(const QString& lessonId) {
  lesson_ = lessonId;
  guide_.clear();
  prediction_.reset();
  if (bank_ && !lessonId.isEmpty()) {
    try {
      sq::Diagnostics d;
      const auto dir = LessonCatalog::assetsDirectory().toStdString() + "/lessons/" + lessonId.toStdString() + ".json";
      if (const auto lesson = sq::LessonLibrary::loadFile(dir, bank_.get(), d)) {
        std::vector<std::string> ids = lesson->questionIds;
        if (lab_)
          for (const auto& step : lab_->steps)
            if (step.lesson == lessonId.toStdString() && !step.questionIds.empty()) ids = step.questionIds;
        for (const auto& id : ids)
          if (const auto* question = bank_->find(id)) guide_.push_back(*question);
        prediction_ = lesson->prediction;
      }
    } catch (const std::exception&) {
      guide_.clear();
    }
  }
  predictionBox_->setVisible(prediction_.has_value());
  predictionResult_->clear();
  predictionInput_->clear();
  retranslate();
  rebuild();
}

void QuizPanel::setLab(const sq::Lab& lab) {
  lab_ = lab;
  if (!lab.steps.empty()) setLesson(QString::fromStdString(lab.steps.front().lesson));
}

QString QuizPanel::predictionQuestion() const {
  return prediction_ ? q(prediction_->text.get(lang().toStdString())) : QString();
}

QString QuizPanel::predictionResult() const { return predictionResult_->text(); }

bool QuizPanel::savePrediction(const QString& text) {
  if (!prediction_) return false;
  const auto value = sq::parsePredictionValue(prediction_->kind, text.toStdString());
  if (!value) {
    predictionResult_->setText(tr3("unreadable").arg(q(prediction_->kind)));
    return false;
  }
  progress_->recordPrediction({lesson_.toStdString(), prediction_->id, prediction_->kind, *value, std::nullopt});
  try {
    progress_->save();
  } catch (const std::exception&) {
  }
  predictionResult_->setText(tr3("saved").arg(text.trimmed()));
  comparePrediction(); // the run may already be there
  if (awaitingPrediction_) {
    setAwaitingPrediction(false);
    Q_EMIT predictionDone();
  }
  return true;
}

void QuizPanel::setAwaitingPrediction(bool on) {
  awaitingPrediction_ = on && prediction_.has_value();
  predictionSkip_->setVisible(awaitingPrediction_);
  if (awaitingPrediction_) predictionInput_->setFocus();
}

QString QuizPanel::awaitingMessage() const { return tr3("predictFirst").arg(predictionQuestion()); }

void QuizPanel::comparePrediction() {
  if (!prediction_ || model_.trace().events.empty()) return;
  for (const auto& p : progress_->predictions()) {
    if (p.lesson != lesson_.toStdString() || p.prediction != prediction_->id) continue;
    const auto measured = sq::measurePrediction(prediction_->id, model_.trace(), second_);
    if (!measured) return;
    auto record = p;
    record.actual = measured->actual;
    progress_->recordPrediction(record);
    try {
      progress_->save();
    } catch (const std::exception&) {
    }
    predictionResult_->setText(q(measured->compare(record.value).get(lang().toStdString())));
    predictionResult_->setStyleSheet(measured->close(record.value) ? QStringLiteral("color: #009E73;")
                                                                   : QStringLiteral("color: #D55E00;"));
    return;
  }
}

void QuizPanel::refreshReview() {
  std::vector<sq::Question> known = guide_;
  if (bank_) known.insert(known.end(), bank_->questions().begin(), bank_->questions().end());
  for (const auto& o : observed_) known.push_back(o.question);
  review_->setData(*progress_, known, lang());
}

void QuizPanel::refreshObservations(const QString& traceFile, const shardlab::trace::Trace* second) {
  second_ = second;
  std::optional<std::vector<std::string>> only;
  if (lab_)
    for (const auto& step : lab_->steps)
      if (step.lesson == lesson_.toStdString() && !step.observationIds.empty()) only = step.observationIds;
  observed_ = sq::observe(model_.trace(), second, only ? &*only : nullptr);
  traceHash_.clear();
  if (!traceFile.isEmpty()) {
    if (const auto run = sq::describeRun(traceFile.toStdString(), model_.trace())) {
      traceHash_ = q(run->hash);
      progress_->recordRun(*run);
    }
  } else if (!model_.trace().events.empty()) {
    // A live run has no file: identify it by its job record (the settings and start time).
    sq::RunRecord run{sq::formatTraceHash(sq::fnv1a64(model_.trace().job.dump())), std::string(), sq::runConfig(model_.trace())};
    traceHash_ = q(run.hash);
    progress_->recordRun(run);
  }
  rebuild();
  comparePrediction();
  refreshReview();
  if (!pendingMoment_.empty()) {
    // The lesson ran for a "Show me": go to the moment in the run that now shows it.
    const std::string moment = std::exchange(pendingMoment_, std::string());
    if (const auto found = sq::findMoment(model_.trace(), model_.summary(), moment)) {
      playback_.pause();
      playback_.setFollowLive(false);
      playback_.setTime(found->time);
      evidence_->setText(QStringLiteral("<b>%1</b> %2").arg(tr3("evidence").arg(QString::number(static_cast<double>(found->sinceStart) / 1e6, 'f', 2)),
                                                            q(found->sentence.get(lang().toStdString())).toHtmlEscaped()));
    }
  }
}

void QuizPanel::rebuild() {
  std::vector<sq::Question> questions = guide_;
  for (const auto& o : observed_) questions.push_back(o.question);
  const auto attempt = sq::Attempt::create(questions, seed_);
  const int keep = current_;
  items_.clear();
  for (std::size_t i = 0; i < attempt.items().size(); ++i) {
    Item it{attempt.items()[i], std::nullopt};
    if (i >= guide_.size()) it.observed = observed_[i - guide_.size()];
    items_.push_back(std::move(it));
  }
  showQuestion(items_.empty() ? -1 : std::clamp(keep, 0, static_cast<int>(items_.size()) - 1));
}

int QuizPanel::firstObservation() const {
  for (std::size_t i = 0; i < items_.size(); ++i)
    if (items_[i].observed) return static_cast<int>(i);
  return -1;
}

void QuizPanel::showQuestion(int index) {
  if (items_.empty() || index < 0) {
    current_ = -1;
    header_->clear();
    question_->setText(tr3("none"));
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
  current_ = std::clamp(index, 0, static_cast<int>(items_.size()) - 1);
  const auto& it = items_[static_cast<std::size_t>(current_)];
  const std::string l = lang().toStdString();
  header_->setText(QStringLiteral("%1 · %2")
                       .arg(tr3(it.observed ? "observed" : "guide"),
                            tr3("of").arg(current_ + 1).arg(items_.size())));
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
  next_->setEnabled(current_ + 1 < static_cast<int>(items_.size()));
  explanation_->clear();
  evidence_->clear();
}

QStringList QuizPanel::shownChoices() const {
  QStringList out;
  if (current_ < 0) return out;
  const auto& it = items_[static_cast<std::size_t>(current_)];
  for (std::size_t i = 0; i < it.item.order.size(); ++i) out << q(it.item.shownChoice(i).get(lang().toStdString()));
  return out;
}

QString QuizPanel::questionText() const { return question_->text(); }
QString QuizPanel::explanationText() const { return explanation_->text(); }
QString QuizPanel::evidenceText() const { return evidence_->text(); }

int QuizPanel::correctShown() const {
  return current_ < 0 ? -1 : static_cast<int>(items_[static_cast<std::size_t>(current_)].item.correctShown);
}

bool QuizPanel::answer(int shown) {
  if (current_ < 0 || shown < 0) return false;
  const auto& it = items_[static_cast<std::size_t>(current_)];
  if (static_cast<std::size_t>(shown) >= it.item.order.size()) return false;
  if (auto* b = choices_[static_cast<std::size_t>(shown)]; !b->isChecked()) b->setChecked(true);
  const bool right = static_cast<std::size_t>(shown) == it.item.correctShown;
  const std::string l = lang().toStdString();
  progress_->recordAnswer(it.item.question.id, it.item.order[static_cast<std::size_t>(shown)], right,
                          it.observed ? traceHash_.toStdString() : std::string());
  try {
    progress_->save();
  } catch (const std::exception&) {
    // A read-only data folder must not stop the quiz; the answer stays in memory.
  }
  refreshReview();
  const QString verdict = right ? tr3("right") : tr3("wrong").arg(q(it.item.shownChoice(it.item.correctShown).get(l)));
  explanation_->setText(QStringLiteral("<b>%1</b> %2").arg(verdict.toHtmlEscaped(), q(it.item.question.explanation.get(l)).toHtmlEscaped()));
  explanation_->setStyleSheet(right ? QStringLiteral("QLabel { border-left: 4px solid #009E73; padding-left: 6px; }")
                                    : QStringLiteral("QLabel { border-left: 4px solid #D55E00; padding-left: 6px; }"));
  return right;
}

bool QuizPanel::showMe() {
  if (current_ < 0) return false;
  const auto& it = items_[static_cast<std::size_t>(current_)];
  if (!it.item.question.evidence) return false;
  const auto& ev = *it.item.question.evidence;
  const auto moment = sq::findMoment(model_.trace(), model_.summary(), ev.moment);
  if (moment) {
    playback_.pause();
    playback_.setFollowLive(false);
    playback_.setTime(moment->time);
    evidence_->setText(QStringLiteral("<b>%1</b> %2").arg(tr3("evidence").arg(QString::number(static_cast<double>(moment->sinceStart) / 1e6, 'f', 2)),
                                                           q(moment->sentence.get(lang().toStdString())).toHtmlEscaped()));
    return true;
  }
  if (!ev.lesson.empty() && !model_.isEmpty() && !it.observed && q(ev.lesson) == lesson_) {
    evidence_->setText(tr3("absent"));
    return false;
  }
  if (!ev.lesson.empty() && !it.observed) {
    evidence_->setText(tr3("notshown").arg(q(ev.lesson)));
    pendingMoment_ = ev.moment;
    Q_EMIT lessonRunRequested(q(ev.lesson));
    return false;
  }
  evidence_->setText(tr3("absent"));
  return false;
}

void QuizPanel::retranslate() {
  tabs_->setTabText(0, tr3("questions"));
  tabs_->setTabText(1, tr3("review"));
  predictionSave_->setText(tr3("save"));
  predictionSkip_->setText(tr3("skip"));
  predictionText_->setText(prediction_ ? QStringLiteral("<b>%1</b> %2").arg(tr3("predict"), predictionQuestion().toHtmlEscaped())
                                       : QString());
  check_->setText(tr3("check"));
  showMe_->setText(tr3("showme"));
  prev_->setText(tr3("prev"));
  next_->setText(tr3("next"));
}

void QuizPanel::changeEvent(QEvent* e) {
  if (e->type() == QEvent::LanguageChange) {
    retranslate();
    showQuestion(current_); // the questions' own texts switch language too
    comparePrediction();
    refreshReview();
  }
  QWidget::changeEvent(e);
}
