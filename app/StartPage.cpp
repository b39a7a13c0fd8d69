#include "StartPage.h"

#include <QCommandLinkButton>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

StartPage::StartPage(const LessonCatalog& catalog, QWidget* parent) : QWidget(parent) {
  auto* outer = new QVBoxLayout(this);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  outer->addWidget(scroll);
  auto* inner = new QWidget(scroll);
  scroll->setWidget(inner);
  auto* l = new QVBoxLayout(inner);
  auto* title = new QLabel(tr("<h1>ShardLab</h1><p>Run a small real training job on several ranks and watch what "
                              "actually happened: every block, shard and number on screen comes from the recorded trace.</p>"),
                           inner);
  title->setWordWrap(true);
  l->addWidget(title);
  l->addWidget(new QLabel(tr("<h3>Lessons</h3>"), inner));
  auto* grid = new QGridLayout;
  int i = 0;
  for (const auto& lesson : catalog.lessons()) {
    auto* b = new QCommandLinkButton(lesson.title, lesson.summary, inner);
    b->setObjectName(QStringLiteral("lesson-") + lesson.id);
    b->setMinimumHeight(70);
    connect(b, &QCommandLinkButton::clicked, this, [this, id = lesson.id] { Q_EMIT lessonChosen(id); });
    grid->addWidget(b, i / 2, i % 2);
    ++i;
  }
  l->addLayout(grid);
  l->addWidget(new QLabel(tr("<h3>On your own</h3>"), inner));
  auto* free = new QCommandLinkButton(tr("Free experiment"), tr("Choose the strategy, ranks, model size and schedule yourself."), inner);
  connect(free, &QCommandLinkButton::clicked, this, &StartPage::experimentChosen);
  auto* open = new QCommandLinkButton(tr("Open a trace"), tr("Replay a trace recorded earlier by shardlab-run --trace."), inner);
  connect(open, &QCommandLinkButton::clicked, this, &StartPage::openTraceChosen);
  auto* row = new QGridLayout;
  row->addWidget(free, 0, 0);
  row->addWidget(open, 0, 1);
  l->addLayout(row);
  l->addStretch();
}
