// LogPane: the exact command line of the job (copyable) and the launcher's stderr.
#pragma once

#include <QWidget>

class QLineEdit;
class QPlainTextEdit;

namespace shardlab::app {

class JobRunner;

class LogPane : public QWidget {
  Q_OBJECT
public:
  explicit LogPane(QWidget* parent = nullptr);
  void setCommandLine(const QString& line);
  QString commandLine() const;
  QString text() const;
  // Shows what `runner` prints and, when it starts, its command line ("$ mpirun ...").
  void follow(const JobRunner& runner);

public Q_SLOTS:
  void append(const QString& text);
  void clear();

private:
  QLineEdit* command_;
  QPlainTextEdit* log_;
};

} // namespace shardlab::app
