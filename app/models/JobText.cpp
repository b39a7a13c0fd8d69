#include "models/JobText.h"

#include "trace/Summary.h"

#include <QCoreApplication>

namespace shardlab::app {

namespace {
QString text(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }
} // namespace

QString strategyLabel(shardlab::StrategyKind strategy) { return text(shardlab::name(strategy)).toUpper(); }

QString describeJob(const shardlab::JobConfig& c) {
  using shardlab::StrategyKind;
  // Each count takes its plural (Qt's %n: "1 rank", "4 ranks"; "1 ранг", "2 слоя"), then
  // the line puts them together.
  //: %1 strategy, %2 "4 ranks", %3 "4 layers", %4 hidden size, %5 batch, %6 "20 steps"
  QString d = QCoreApplication::translate("JobText", "%1 · %2 · %3 × %4 · batch %5 · %6")
                  .arg(strategyLabel(c.strategy), QCoreApplication::translate("JobText", "%n rank(s)", nullptr, c.ranks),
                       QCoreApplication::translate("JobText", "%n layer(s)", nullptr, c.layers))
                  .arg(c.hidden)
                  .arg(c.batch)
                  .arg(QCoreApplication::translate("JobText", "%n step(s)", nullptr, c.steps));
  if (c.strategy == StrategyKind::Pipeline)
    //: %1 the pipeline schedule, %2 "4 micro-batches"
    d += QCoreApplication::translate("JobText", " · %1, %2")
             .arg(text(shardlab::name(c.schedule)),
                  QCoreApplication::translate("JobText", "%n micro-batch(es)", nullptr, c.microbatches));
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

} // namespace shardlab::app
