// LessonCatalog: the lessons on the start page, read from assets/lessons/*.json by
// the quiz library's LessonLibrary (the loader and validator the CLI uses too), in
// the assets folder found by quiz/AssetLocator.h. There is no built-in copy: the
// assets are always found in a build tree (the source tree's assets/) and in an
// install (share/shardlab/assets); when they are not, warnings() says what was tried.
#pragma once

#include "quiz/bank/Lab.h"
#include "quiz/bank/LessonSizing.h"
#include "quiz/bank/Placeholders.h"

#include "job/Calibration.h"
#include "job/JobConfig.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace shardlab::app {

struct Lesson {
  QString id;
  QMap<QString, QString> titles;   // language -> title
  // The jobs to run, one or two for a comparison: the lesson's runs, sized for this
  // machine when the lesson declares sizing and the machine is known, with an open
  // lab's settings for this lesson on top.
  QList<shardlab::JobConfig> specs;
  QList<QMap<QString, QString>> specLabelTexts; // per run: language -> label
  QMap<QString, QString> guides;   // language -> absolute path of the Markdown guide page
  std::vector<shardlab::quiz::JobSpec> writtenRuns;        // as the lesson's file writes them
  std::optional<shardlab::quiz::LessonSizingRule> sizing;  // what it must make visible, its budget
  std::optional<shardlab::quiz::LessonSize> size;          // the size chosen for this machine
  std::optional<shardlab::quiz::LabStep> labStep;          // the open lab's step for this lesson
  QStringList writtenQuestionIds;                          // the guide questions the lesson's file names
  int cores = 0, gpus = 0;                                 // the machine, for the guide's placeholders

  // The guide questions the quiz asks: the open lab's step's, else the lesson's.
  QStringList questionIds() const;
  // In `lang` ("en", "fr", "ru"), else English.
  QString title(const QString& lang = currentLanguage()) const;
  QStringList specLabels(const QString& lang = currentLanguage()) const;
  QString guidePath(const QString& lang = currentLanguage()) const;
  // The guide page with its placeholders filled from specs and the machine.
  QString guideMarkdown(const QString& lang = currentLanguage()) const;
  // The open lab's notes for this lesson, filled the same way ("" without a lab).
  QString labNotesMarkdown(const QString& lang = currentLanguage()) const;
  // What the app says about the size it chose ("" when the lesson runs as written).
  QString sizingMarkdown() const;
  // The job the guide names (the run with the most micro-batches) and the machine.
  shardlab::quiz::PlaceholderValues placeholderValues() const;
  // A text with placeholders ({ranks}, {ranks|rank|ranks}, ...) filled from specs and the machine.
  QString fill(const QString& text, const QString& lang = currentLanguage()) const;
  // One line about the run(s): "DDP · 4 ranks · …" or "DDP vs FSDP".
  QString summary(const QString& lang = currentLanguage()) const;

  // The UI language (AppSettings, else the system locale), two letters.
  static QString currentLanguage();
};

class LessonCatalog {
public:
  // The lessons of `assetsDir`/lessons; an empty `assetsDir` loads nothing.
  static LessonCatalog load(const QString& assetsDir);
  static LessonCatalog load() { return load(assetsDirectory()); }
  // quiz::findAssetsDir(): $SHARDLAB_ASSETS, <app>/../share/shardlab/assets, the source tree's assets/.
  // Empty (with the reason in `why`) when none is found.
  static QString assetsDirectory(QString* why = nullptr);

  // Sizes every lesson that declares sizing for `machine`, and tells every guide its cores.
  void sizeFor(const shardlab::Calibration& machine);
  // An instructor's lab: each step's settings apply to its lesson's jobs, its notes are shown.
  void setLab(const shardlab::quiz::Lab& lab);

  const QList<Lesson>& lessons() const { return lessons_; }
  const Lesson* find(const QString& id) const;
  QStringList warnings() const { return warnings_; }

private:
  // specs from writtenRuns, size and labStep.
  static void updateJobs(Lesson& lesson);
  QList<Lesson> lessons_;
  QStringList warnings_;
};

} // namespace shardlab::app
