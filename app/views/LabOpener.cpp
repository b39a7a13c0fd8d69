#include "views/LabOpener.h"

#include "models/AppSettings.h"
#include "models/LessonCatalog.h"
#include "quiz/bank/LabLoader.h"
#include "views/LabPanel.h"
#include "views/QuizPanel.h"
#include "quiz/bank/LessonLibrary.h"
#include "quiz/observations/Observation.h"
#include "quiz/bank/QuestionBank.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>

#include <set>

namespace shardlab::app {

namespace {
const QString kLastLabFolder = QStringLiteral("labs/lastFolder");
}

QString labDialogFolder() {
  const QString last = QSettings().value(kLastLabFolder).toString();
  if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
  const QString assets = LessonCatalog::assetsDirectory();
  if (!assets.isEmpty() && QFileInfo(assets + QStringLiteral("/labs")).isDir()) return QDir(assets + QStringLiteral("/labs")).absolutePath();
  return QDir::homePath();
}

LabOpenResult openLab(const QString& path) {
  LabOpenResult result;
  if (const QFileInfo file(path); file.isFile()) QSettings().setValue(kLastLabFolder, file.absolutePath());
  QString why;
  const QString assets = LessonCatalog::assetsDirectory(&why);
  if (assets.isEmpty()) {
    result.errors << why;
    return result;
  }
  namespace sq = shardlab::quiz;
  sq::Diagnostics diagnostics;
  const std::filesystem::path dir = assets.toStdString();
  const auto bank = sq::QuestionBank::load(sq::QuestionBank::jsonFilesIn(dir / "quiz"), diagnostics);
  const auto lessons = sq::LessonLibrary::load(dir / "lessons", &bank, diagnostics);
  const auto ids = sq::observationTemplateIds();
  const sq::LabLoader loader(bank, lessons, std::set<std::string>(ids.begin(), ids.end()));
  result.lab = loader.load(path.toStdString(), diagnostics);
  for (const auto& d : diagnostics.all()) result.errors << QString::fromStdString(d.toString());
  if (!result.errors.isEmpty()) result.lab.reset();
  return result;
}

void installLab(const shardlab::quiz::Lab& lab, LessonCatalog& catalog, QuizPanel& quiz, LabPanel& panel) {
  catalog.setLab(lab);
  if (!lab.steps.empty())
    if (const Lesson* first = catalog.find(QString::fromStdString(lab.steps.front().lesson)))
      quiz.controller().setPlaceholderValues(first->placeholderValues());
  quiz.setLab(lab);
  panel.setLab(lab);
}

QString labTitle(const shardlab::quiz::Lab& lab) {
  return QString::fromStdString(lab.title.get(AppSettings::effectiveLanguage().toStdString()));
}

QString labOpenedText(const shardlab::quiz::Lab& lab) {
  return QCoreApplication::translate("LabOpener",
                                     "Lab \"%1\" opened: %n step(s). Press \"Run this step\" in the Lab panel to start.",
                                     nullptr, static_cast<int>(lab.steps.size()))
      .arg(labTitle(lab));
}

void showLabErrors(QWidget* parent, const QString& path, const QStringList& errors) {
  QMessageBox box(QMessageBox::Warning, QCoreApplication::translate("LabOpener", "Open lab"),
                  QCoreApplication::translate("LabOpener", "The lab %1 is not valid.").arg(QFileInfo(path).fileName()),
                  QMessageBox::Ok, parent);
  box.setObjectName(QStringLiteral("labErrors"));
  box.setInformativeText(errors.join(QLatin1Char('\n')));
  box.setDetailedText(errors.join(QLatin1Char('\n')));
  box.exec();
}

} // namespace shardlab::app
