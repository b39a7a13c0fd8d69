#include "models/JobSpec.h"

#include <QCoreApplication>
#include <QJsonValue>
#include <QRegularExpression>

qint64 JobSpec::parseBytes(const QString& text) {
  static const QRegularExpression re(QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*(B|KiB|MiB|GiB|KB|MB|GB|K|M|G)?\\s*$"),
                                     QRegularExpression::CaseInsensitiveOption);
  auto m = re.match(text);
  if (!m.hasMatch()) return -1;
  double v = m.captured(1).toDouble();
  const QString unit = m.captured(2).toLower();
  if (unit.startsWith(QLatin1Char('k'))) v *= 1024.0;
  else if (unit.startsWith(QLatin1Char('m'))) v *= 1024.0 * 1024.0;
  else if (unit.startsWith(QLatin1Char('g'))) v *= 1024.0 * 1024.0 * 1024.0;
  return static_cast<qint64>(v);
}

QList<JobSpecIssue> JobSpec::validate() const {
  QList<JobSpecIssue> out;
  auto add = [&](const char* field, const QString& rule) { out.append({QLatin1String(field), rule}); };
  const QStringList strategies{QStringLiteral("ddp"), QStringLiteral("fsdp"), QStringLiteral("pipeline"), QStringLiteral("tp")};
  if (!strategies.contains(strategy)) add("strategy", tr("must be one of ddp, fsdp, pipeline, tp"));
  if (sharding != QLatin1String("full") && sharding != QLatin1String("grad-op"))
    add("sharding", tr("must be full or grad-op"));
  if (ranks < 1 || ranks > 64) add("ranks", tr("must be between 1 and 64 (got %1)").arg(ranks));
  if (layers < 1 || layers > 256) add("layers", tr("must be between 1 and 256 (got %1)").arg(layers));
  if (hidden < 1 || hidden > 8192) add("hidden", tr("must be between 1 and 8192 (got %1)").arg(hidden));
  if (vocab < 2 || vocab > 1000000) add("vocab", tr("must be between 2 and 1000000 (got %1)").arg(vocab));
  if (steps < 1 || steps > 10000) add("steps", tr("must be between 1 and 10000 (got %1)").arg(steps));
  if (!(lr > 0.0) || lr > 10.0) add("lr", tr("must be greater than 0 and at most 10"));
  if (batch < 1) add("batch", tr("must be at least 1 (got %1)").arg(batch));
  const bool dataParallel = strategy == QLatin1String("ddp") || strategy == QLatin1String("fsdp");
  if (batch >= 1 && ranks >= 1 && dataParallel && batch % ranks != 0)
    add("batch", tr("must be divisible by ranks: %1 is not a multiple of %2").arg(batch).arg(ranks));
  if (strategy == QLatin1String("pipeline")) {
    const QStringList schedules{QStringLiteral("naive"), QStringLiteral("gpipe"), QStringLiteral("1f1b"),
                                QStringLiteral("interleaved")};
    if (!schedules.contains(schedule)) add("schedule", tr("must be naive, gpipe, 1f1b or interleaved"));
    if (microbatches < 1) add("microbatches", tr("must be at least 1 (got %1)").arg(microbatches));
    else if (batch >= 1 && batch % microbatches != 0)
      add("batch", tr("must be divisible by microbatches: %1 is not a multiple of %2").arg(batch).arg(microbatches));
    if (virtualStages < 1) add("virtual_stages", tr("must be at least 1 (got %1)").arg(virtualStages));
    if (schedule != QLatin1String("interleaved") && virtualStages != 1)
      add("virtual_stages", tr("only the interleaved schedule uses more than 1 virtual stage"));
    // The engine's rule: the model's layers + 2 units (embedding, blocks, output) cover every stage.
    if (ranks >= 1 && virtualStages >= 1 && layers + 2 < ranks * virtualStages)
      add("layers", tr("layers + 2 (the model's units) must be at least ranks × virtual stages (%1) so every stage holds a unit")
                        .arg(ranks * virtualStages));
  }
  if (strategy == QLatin1String("tp") && ranks >= 1 && hidden % ranks != 0)
    add("hidden", tr("must be divisible by ranks for tensor parallelism: %1 is not a multiple of %2").arg(hidden).arg(ranks));
  if (!memoryBudget.trimmed().isEmpty() && parseBytes(memoryBudget) <= 0)
    add("memory_budget", tr("must be a size such as 3MiB, 512KiB or 1048576"));
  if (device != QLatin1String("auto") && device != QLatin1String("cpu") && device != QLatin1String("cuda"))
    add("device", tr("must be auto, cpu or cuda"));
  return out;
}

QStringList JobSpec::arguments() const {
  QStringList a{QStringLiteral("--strategy"), strategy, QStringLiteral("--ranks"), QString::number(ranks),
                QStringLiteral("--layers"), QString::number(layers), QStringLiteral("--hidden"), QString::number(hidden),
                QStringLiteral("--vocab"), QString::number(vocab), QStringLiteral("--batch"), QString::number(batch),
                QStringLiteral("--steps"), QString::number(steps), QStringLiteral("--seed"), QString::number(seed),
                QStringLiteral("--lr"), QString::number(lr), QStringLiteral("--device"), device};
  if (strategy == QLatin1String("fsdp")) {
    a << QStringLiteral("--sharding") << sharding;
    if (!prefetch) a << QStringLiteral("--no-prefetch");
  }
  if (strategy == QLatin1String("pipeline")) {
    a << QStringLiteral("--microbatches") << QString::number(microbatches) << QStringLiteral("--schedule") << schedule;
    if (schedule == QLatin1String("interleaved"))
      a << QStringLiteral("--virtual-stages") << QString::number(virtualStages);
  }
  if (!memoryBudget.trimmed().isEmpty()) a << QStringLiteral("--memory-budget") << memoryBudget.trimmed().remove(QLatin1Char(' '));
  return a;
}

QJsonObject JobSpec::toJson() const {
  QJsonObject o{{QStringLiteral("strategy"), strategy}, {QStringLiteral("ranks"), ranks},
                {QStringLiteral("layers"), layers},     {QStringLiteral("hidden"), hidden},
                {QStringLiteral("vocab"), vocab},       {QStringLiteral("batch"), batch},
                {QStringLiteral("steps"), steps},       {QStringLiteral("seed"), seed},
                {QStringLiteral("lr"), lr},             {QStringLiteral("device"), device},
                {QStringLiteral("sharding"), sharding}, {QStringLiteral("prefetch"), prefetch},
                {QStringLiteral("microbatches"), microbatches}, {QStringLiteral("schedule"), schedule},
                {QStringLiteral("virtual_stages"), virtualStages}};
  if (!memoryBudget.isEmpty()) o.insert(QStringLiteral("memory_budget"), memoryBudget);
  return o;
}

JobSpec JobSpec::fromJson(const QJsonObject& o) {
  JobSpec s;
  auto str = [&](const char* k, QString& v) {
    if (o.value(QLatin1String(k)).isString()) v = o.value(QLatin1String(k)).toString();
  };
  auto num = [&](const char* k, int& v) {
    if (o.value(QLatin1String(k)).isDouble()) v = o.value(QLatin1String(k)).toInt();
  };
  str("strategy", s.strategy);
  str("sharding", s.sharding);
  num("ranks", s.ranks);
  num("layers", s.layers);
  num("hidden", s.hidden);
  num("vocab", s.vocab);
  num("batch", s.batch);
  num("steps", s.steps);
  num("seed", s.seed);
  if (o.value(QStringLiteral("lr")).isDouble()) s.lr = o.value(QStringLiteral("lr")).toDouble();
  if (o.value(QStringLiteral("prefetch")).isBool()) s.prefetch = o.value(QStringLiteral("prefetch")).toBool();
  if (o.value(QStringLiteral("no_prefetch")).isBool()) s.prefetch = !o.value(QStringLiteral("no_prefetch")).toBool();
  const auto mb = o.value(QStringLiteral("memory_budget"));
  if (mb.isString()) s.memoryBudget = mb.toString();
  else if (mb.isDouble() && mb.toDouble() > 0) s.memoryBudget = QString::number(static_cast<qint64>(mb.toDouble()));  // 0: none
  num("microbatches", s.microbatches);
  str("schedule", s.schedule);
  num("virtual_stages", s.virtualStages);
  str("device", s.device);
  return s;
}

QString JobSpec::describe() const {
  QString d = tr("%1 · %2 ranks · %3 layers × %4 · batch %5 · %6 steps")
                  .arg(strategy.toUpper())
                  .arg(ranks)
                  .arg(layers)
                  .arg(hidden)
                  .arg(batch)
                  .arg(steps);
  if (strategy == QLatin1String("pipeline")) d += tr(" · %1, %2 micro-batches").arg(schedule).arg(microbatches);
  if (strategy == QLatin1String("fsdp") && !prefetch) d += tr(" · no prefetch");
  if (!memoryBudget.isEmpty()) d += tr(" · budget %1").arg(memoryBudget);
  return d;
}
