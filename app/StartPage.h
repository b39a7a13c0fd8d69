// StartPage: the lessons and the free experiment.
#pragma once

#include "LessonCatalog.h"

#include <QWidget>

class StartPage : public QWidget {
  Q_OBJECT
public:
  explicit StartPage(const LessonCatalog& catalog, QWidget* parent = nullptr);

Q_SIGNALS:
  void lessonChosen(const QString& id);
  void experimentChosen();
  void openTraceChosen();
};
