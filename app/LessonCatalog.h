// LessonCatalog: the lessons on the start page. Reads assets/lessons/*.json when
// they exist; otherwise (or for a lesson missing there) uses the small built-in
// table below, so the app works either way.
#pragma once

#include "JobSpec.h"

#include <QList>
#include <QString>

struct Lesson {
  QString id;
  QString title;
  QString summary;
  QList<JobSpec> specs;   // one spec, or two for a comparison
  QStringList specLabels; // "DDP", "FSDP" for comparisons
  QString guide;          // path of the Markdown guide page, when the assets have one
  bool fromAssets = false;
};

class LessonCatalog {
public:
  // Built-in lessons, then those read from `assetsDir`/lessons replacing them by id.
  static LessonCatalog load(const QString& assetsDir = assetsDirectory());
  static QList<Lesson> builtin();
  // SHARDLAB_ASSETS, else the source tree's assets/, else <app>/../share/shardlab/assets.
  static QString assetsDirectory();

  const QList<Lesson>& lessons() const { return lessons_; }
  const Lesson* find(const QString& id) const;
  QStringList warnings() const { return warnings_; }

private:
  QList<Lesson> lessons_;
  QStringList warnings_;
};
