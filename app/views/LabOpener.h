// File → Open lab: loads an instructor's lab with quiz::LabLoader, checked against
// the question bank, the lessons and the observation template ids. Every error is
// kept with its file and JSON pointer ("lab.json:/steps/0/lesson: unknown-lesson: ...").
#pragma once

#include "quiz/bank/Lab.h"

#include <QString>
#include <QStringList>

#include <optional>

class QWidget;

namespace shardlab::app {

struct LabOpenResult {
  std::optional<shardlab::quiz::Lab> lab; // set when valid
  QStringList errors;                     // one line per problem
};

class LabPanel;
class LessonCatalog;
class QuizPanel;

// Loads the lab; the folder of a file that exists is remembered for the next dialog.
LabOpenResult openLab(const QString& path);

// Where File → Open lab's dialog starts: the folder of the last lab opened, else the
// installed labs (assets/labs), else the user's home folder — never the working directory.
QString labDialogFolder();

// A valid lab, everywhere it is used: its lessons in the catalog (the start page lists
// them), its questions in the quiz (the first step's asked with its job: its spec over
// the lesson) and its steps in the Lab panel.
void installLab(const shardlab::quiz::Lab& lab, LessonCatalog& catalog, QuizPanel& quiz, LabPanel& panel);

// The lab's title in the learner's language, and what is said when it opened.
QString labTitle(const shardlab::quiz::Lab& lab);
QString labOpenedText(const shardlab::quiz::Lab& lab);

// The dialog that says a lab is not valid, with every error.
void showLabErrors(QWidget* parent, const QString& path, const QStringList& errors);

} // namespace shardlab::app
