// JobSpec: the options of one shardlab-run job, as the experiment panel edits them
// and lessons describe them. validate() names the broken rule before anything runs;
// arguments() is the exact command line handed to the launcher.
#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QString>
#include <QStringList>

struct JobSpecIssue {
  QString field; // option name as on the command line: "ranks", "batch", ...
  QString rule;  // the rule, readable: "must be divisible by ranks (4)"
  QString text() const { return field + QLatin1String(": ") + rule; }
};

struct JobSpec {
  Q_DECLARE_TR_FUNCTIONS(JobSpec)

public:
  QString strategy = QStringLiteral("fsdp"); // ddp | fsdp | pipeline | tp
  QString sharding = QStringLiteral("full"); // full | grad-op (fsdp)
  // The defaults are the engine's (JobConfig), so a lesson spec that leaves a key out
  // runs exactly as `shardlab-run --spec` would run it.
  int ranks = 4;
  int layers = 4;
  int hidden = 64;
  int vocab = 64;
  int batch = 64;
  int steps = 20;
  int seed = 1;
  double lr = 3e-3;
  bool prefetch = true;
  QString memoryBudget; // "" = none, else "3MiB", "512KiB", "1GiB" or bytes
  int microbatches = 1;
  QString schedule = QStringLiteral("1f1b"); // naive | gpipe | 1f1b | interleaved
  int virtualStages = 1;
  QString device = QStringLiteral("auto"); // auto | cpu | cuda

  QList<JobSpecIssue> validate() const;
  // Arguments after the program name, without --events/--trace.
  QStringList arguments() const;
  QJsonObject toJson() const;   // the spec JSON of the launcher (option names with '_')
  static JobSpec fromJson(const QJsonObject& o);
  // One line: "fsdp · 4 ranks · 4 layers × 64 · batch 8 · 3 steps".
  QString describe() const;
  // Parses "3MiB", "512 KiB", "1GiB", "123456"; -1 when invalid.
  static qint64 parseBytes(const QString& text);
};
