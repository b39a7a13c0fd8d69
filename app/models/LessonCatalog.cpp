#include "models/LessonCatalog.h"

#include "models/AppSettings.h"
#include "models/JobText.h"
#include "models/SizingText.h"

#include "job/BoundedFile.h"
#include "quiz/bank/AssetLocator.h"
#include "quiz/bank/Diagnostics.h"
#include "quiz/bank/KnownIds.h"
#include "quiz/bank/LessonLibrary.h"
#include "quiz/bank/Placeholders.h"

#include <QCoreApplication>
#include <QDir>
#include <QLocale>
#include <QThread>

#include <algorithm>
#include <optional>

namespace shardlab::app {

namespace {

QMap<QString, QString> toMap(const shardlab::quiz::LocalizedText& t) {
  QMap<QString, QString> m;
  for (const auto& [lang, text] : t.all()) m.insert(QString::fromStdString(lang), QString::fromStdString(text));
  return m;
}

QString pick(const QMap<QString, QString>& m, const QString& lang) {
  const QString v = m.value(lang);
  return v.isEmpty() ? m.value(QStringLiteral("en")) : v;
}

} // namespace

QString Lesson::currentLanguage() { return AppSettings::effectiveLanguage(); }

QString Lesson::title(const QString& lang) const { return pick(titles, lang); }

QStringList Lesson::specLabels(const QString& lang) const {
  QStringList out;
  for (int i = 0; i < specLabelTexts.size(); ++i) {
    const QString l = pick(specLabelTexts.at(i), lang);
    out << (l.isEmpty() ? strategyLabel(specs.value(i).strategy) : l);
  }
  return out;
}

QString Lesson::guidePath(const QString& lang) const { return pick(guides, lang); }

shardlab::quiz::PlaceholderValues Lesson::placeholderValues() const {
  // A comparison's placeholders name the run with the most micro-batches (GPipe's 8, not
  // the naive run's 1); the runs share ranks, hidden size and batch.
  shardlab::quiz::PlaceholderValues values;
  if (!specs.isEmpty())
    values.job = *std::max_element(specs.begin(), specs.end(), [](const auto& a, const auto& b) {
      return a.microbatches < b.microbatches;
    });
  values.cores = cores > 0 ? cores : QThread::idealThreadCount();
  values.gpus = gpus;
  return values;
}

// A guide or a lab's notes, as the loaders checked them: a regular file within its cap
// (job/BoundedFile.h), so that a file swapped since (a device, 300 MB) is never read whole.
static std::optional<QString> markdownFile(const std::string& path) {
  shardlab::FileProblem problem;
  const auto text = shardlab::readBoundedFile(path, shardlab::kNotesFileCap, problem);
  if (!text) return std::nullopt;
  return QString::fromUtf8(text->data(), static_cast<qsizetype>(text->size()));
}

QString Lesson::fill(const QString& text, const QString& lang) const {
  return QString::fromStdString(
      shardlab::quiz::fillPlaceholders(text.toStdString(), lang.toStdString(), placeholderValues()));
}

QString Lesson::guideMarkdown(const QString& lang) const {
  const auto text = markdownFile(guidePath(lang).toStdString());
  return text ? fill(*text, lang) : QString();
}

QString Lesson::labNotesMarkdown(const QString& lang) const {
  if (!labStep) return {};
  auto path = labStep->notes.find(lang.toStdString());
  if (path == labStep->notes.end()) path = labStep->notes.find("en");
  if (path == labStep->notes.end()) return {};
  const auto text = markdownFile(path->second.string());
  return text ? fill(*text, lang) : QString();
}

QString Lesson::sizingMarkdown() const {
  if (!size || specs.isEmpty()) return {};
  return sizingStatement(*size, specs.first().strategy, cores > 0 ? cores : QThread::idealThreadCount());
}

void LessonCatalog::updateJobs(Lesson& l) {
  const auto& runs = l.size ? l.size->runs : l.writtenRuns;
  l.specs.clear();
  for (const auto& run : runs) l.specs << (l.labStep ? run.mergedWith(l.labStep->overrides) : run).config();
}

void LessonCatalog::sizeFor(const shardlab::Calibration& machine) {
  for (auto& l : lessons_) {
    l.cores = machine.cores;
    l.gpus = machine.gpus;
    if (l.sizing) l.size = shardlab::quiz::sizeLesson(l.writtenRuns, *l.sizing, machine);
    updateJobs(l);
  }
}

void LessonCatalog::setLab(const shardlab::quiz::Lab& lab) {
  for (auto& l : lessons_) {
    l.labStep.reset();
    for (const auto& step : lab.steps)
      if (step.lesson == l.id.toStdString()) l.labStep = step;
    updateJobs(l);
  }
}

QString Lesson::summary(const QString& lang) const {
  if (specs.size() == 1) return describeJob(specs.first());
  return specLabels(lang).join(QCoreApplication::translate("LessonCatalog", " vs "));
}

QString LessonCatalog::assetsDirectory(QString* why) {
  try {
    const auto dir = shardlab::quiz::findAssetsDir(std::nullopt, QCoreApplication::applicationDirPath().toStdString());
    return QString::fromStdString(dir.string());
  } catch (const std::exception& e) {
    if (why) *why = QString::fromStdString(e.what());
    return {};
  }
}

const Lesson* LessonCatalog::find(const QString& id) const {
  for (const auto& l : lessons_)
    if (l.id == id) return &l;
  return nullptr;
}

QStringList Lesson::questionIds() const {
  if (labStep && !labStep->questionIds.empty()) {
    QStringList ids;
    for (const auto& question : labStep->questionIds) ids << QString::fromStdString(question);
    return ids;
  }
  return writtenQuestionIds;
}

LessonCatalog LessonCatalog::load(const QString& assetsDir) {
  LessonCatalog c;
  if (assetsDir.isEmpty()) {
    QString why;
    if (assetsDirectory(&why).isEmpty() && !why.isEmpty()) c.warnings_ << why;
    return c;
  }
  const std::filesystem::path dir = std::filesystem::path(assetsDir.toStdString()) / "lessons";
  shardlab::quiz::Diagnostics diagnostics;
  const auto library = shardlab::quiz::LessonLibrary::load(dir, nullptr, diagnostics);
  if (!diagnostics.empty())
    for (const auto& line : QString::fromStdString(diagnostics.toString()).split(QLatin1Char('\n'), Qt::SkipEmptyParts))
      c.warnings_ << line;
  for (const auto& ql : library.lessons()) {
    Lesson l;
    l.id = QString::fromStdString(ql.id);
    l.titles = toMap(ql.title);
    for (const auto& run : ql.runs) {
      l.writtenRuns.push_back(run.spec);
      l.specLabelTexts << toMap(run.label);
    }
    l.sizing = ql.sizing;
    for (const auto& id : ql.questionIds) l.writtenQuestionIds << QString::fromStdString(id);
    updateJobs(l);
    for (const auto& [lang, path] : ql.guides) {
      const std::filesystem::path p = path.is_absolute() ? path : dir / path;
      l.guides.insert(QString::fromStdString(lang), QDir::cleanPath(QString::fromStdString(p.string())));
    }
    if (l.specs.isEmpty()) continue;
    c.lessons_ << l;
  }
  // In teaching order: the order of the quiz's known lesson ids, unknown ones last.
  const auto& order = shardlab::quiz::knownLessonIds();
  std::stable_sort(c.lessons_.begin(), c.lessons_.end(), [&](const Lesson& a, const Lesson& b) {
    auto rank = [&](const Lesson& x) { return std::find(order.begin(), order.end(), x.id.toStdString()) - order.begin(); };
    return rank(a) < rank(b);
  });
  return c;
}

} // namespace shardlab::app
