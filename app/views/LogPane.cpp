#include "views/LogPane.h"

#include "models/JobRunner.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace shardlab::app {

LogPane::LogPane(QWidget* parent) : QWidget(parent) {
  auto* l = new QVBoxLayout(this);
  l->setContentsMargins(2, 2, 2, 2);
  auto* row = new QHBoxLayout;
  command_ = new QLineEdit(this);
  command_->setReadOnly(true);
  command_->setPlaceholderText(tr("The command line of the job appears here"));
  command_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  auto* copy = new QPushButton(tr("Copy"), this);
  copy->setToolTip(tr("Copy the command line to run the same job in a terminal"));
  connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(command_->text()); });
  row->addWidget(command_, 1);
  row->addWidget(copy);
  l->addLayout(row);
  log_ = new QPlainTextEdit(this);
  log_->setReadOnly(true);
  log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  log_->setMaximumBlockCount(5000);
  l->addWidget(log_, 1);
}

void LogPane::follow(const JobRunner& runner) {
  connect(&runner, &JobRunner::logText, this, &LogPane::append);
  connect(&runner, &JobRunner::started, this, [this](const QString& command) {
    setCommandLine(command);
    append(QStringLiteral("$ %1\n").arg(command));
  });
}

void LogPane::setCommandLine(const QString& line) { command_->setText(line); }
QString LogPane::commandLine() const { return command_->text(); }
QString LogPane::text() const { return log_->toPlainText(); }
void LogPane::append(const QString& text) {
  log_->moveCursor(QTextCursor::End);
  log_->insertPlainText(text);
  log_->moveCursor(QTextCursor::End);
}
void LogPane::clear() { log_->clear(); }

} // namespace shardlab::app
