#include "models/JobText.h"

#include "trace/Summary.h"

#include <QCoreApplication>

namespace {
QString text(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
} // namespace

QString strategyLabel(shardlab::StrategyKind strategy) { return text(shardlab::name(strategy)).toUpper(); }

QString describeJob(const shardlab::JobConfig& c) {
  using shardlab::StrategyKind;
  QString d = QCoreApplication::translate("JobText", "%1 · %2 ranks · %3 layers × %4 · batch %5 · %6 steps")
                  .arg(strategyLabel(c.strategy))
                  .arg(c.ranks)
                  .arg(c.layers)
                  .arg(c.hidden)
                  .arg(c.batch)
                  .arg(c.steps);
  if (c.strategy == StrategyKind::Pipeline)
    d += QCoreApplication::translate("JobText", " · %1, %2 micro-batches").arg(text(shardlab::name(c.schedule))).arg(c.microbatches);
  if (c.strategy == StrategyKind::Fsdp) {
    d += QStringLiteral(" · %1 (%2, ZeRO-%3)")
             .arg(text(shardlab::name(c.sharding)), text(shardlab::pytorchName(c.sharding)))
             .arg(shardlab::zeroStage(c.sharding));
    if (c.sharding == shardlab::Sharding::Hybrid)
      d += QCoreApplication::translate("JobText", " · shard groups of %n ranks", nullptr, c.shardGroup);
  }
  if (c.strategy == StrategyKind::Fsdp && !c.prefetches()) d += QCoreApplication::translate("JobText", " · no prefetch");
  if (c.memoryBudget > 0)
    d += QCoreApplication::translate("JobText", " · budget %1").arg(QString::fromStdString(shardlab::trace::formatBytes(c.memoryBudget)));
  return d;
}

QString ruleText(const shardlab::JobIssue& issue) {
  QString t = QCoreApplication::translate("JobRule", shardlab::ruleTemplate(issue.rule));
  for (const auto& a : issue.args) t = t.arg(QString::fromStdString(a));
  return t;
}

QString issueText(const shardlab::JobIssue& issue) {
  return QString::fromStdString(issue.field) + QStringLiteral(": ") + ruleText(issue);
}
