// LessonCatalog: the lessons on the start page, read from assets/lessons/*.json by
// the quiz library's LessonLibrary (the loader and validator the CLI uses too), in
// the assets folder found by quiz/AssetLocator.h. There is no built-in copy: the
// assets are always found in a build tree (the source tree's assets/) and in an
// install (share/shardlab/assets); when they are not, warnings() says what was tried.
#pragma once

#include "job/JobConfig.h"

#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

struct Lesson {
  QString id;
  QMap<QString, QString> titles;   // language -> title
  QList<shardlab::JobConfig> specs; // one job, or two for a comparison
  QList<QMap<QString, QString>> specLabelTexts; // per run: language -> label
  QMap<QString, QString> guides;   // language -> absolute path of the Markdown guide page

  // In `lang` ("en", "fr", "ru"), else English.
  QString title(const QString& lang = currentLanguage()) const;
  QStringList specLabels(const QString& lang = currentLanguage()) const;
  QString guidePath(const QString& lang = currentLanguage()) const;
  QString guideMarkdown(const QString& lang = currentLanguage()) const;
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

  const QList<Lesson>& lessons() const { return lessons_; }
  const Lesson* find(const QString& id) const;
  QStringList warnings() const { return warnings_; }

private:
  QList<Lesson> lessons_;
  QStringList warnings_;
};
