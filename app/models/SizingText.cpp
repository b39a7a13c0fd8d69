#include "models/SizingText.h"

#include <QCoreApplication>
#include <QLocale>

namespace shardlab::app {

namespace {

QString times(double ratio) { return QLocale().toString(ratio, 'f', ratio < 10 ? 1 : 0); }

// Why the size meets (or misses) one condition, in words.
QString conditionText(const shardlab::quiz::ConditionEstimate& c) {
  const QString estimated = times(c.estimated), needed = times(c.condition.atLeast);
  const std::string& ratio = c.condition.ratio;
  QString text;
  if (ratio == "stage_compute_per_handoff")
    text = QCoreApplication::translate(
        "Sizing", "one micro-batch's compute on a stage is about %1× a hand-off (needs at least %2×)");
  else if (ratio == "unit_compute_per_all_gather")
    text = QCoreApplication::translate("Sizing",
                                       "a block's forward compute is about %1× its all-gather (needs at least %2×)");
  else if (ratio == "unit_compute_per_all_reduce")
    text = QCoreApplication::translate(
        "Sizing", "a block's backward compute is about %1× its gradient all-reduce (needs at least %2×)");
  else
    text = QCoreApplication::translate("Sizing", "free cores per rank: about %1 (needs at least %2)");
  return text.arg(estimated, needed);
}

// "2 stages" for a pipeline, "2 ranks" otherwise.
QString workers(int n, bool pipeline) {
  return pipeline ? QCoreApplication::translate("Sizing", "%n stage(s)", nullptr, n)
                  : QCoreApplication::translate("Sizing", "%n rank(s)", nullptr, n);
}

} // namespace

QString sizingStatement(const shardlab::quiz::LessonSize& size, shardlab::StrategyKind strategy, int cores) {
  const bool pipeline = strategy == shardlab::StrategyKind::Pipeline;
  QString text = QCoreApplication::translate("Sizing", "**Sized for this machine:** %n core(s)", nullptr, cores) +
                 QStringLiteral(" → ") + workers(size.ranks, pipeline) +
                 QCoreApplication::translate("Sizing", "; hidden %1, batch %2.")
                     .arg(QLocale().toString(size.hidden), QLocale().toString(size.batch));
  QStringList reasons;
  for (const auto& c : size.conditions)
    if (c.met() && c.condition.ratio != "cores_per_rank") reasons << conditionText(c);
  if (!reasons.isEmpty())
    text += QLatin1Char(' ') + QCoreApplication::translate("Sizing", "So that compute outweighs the communication: ") +
            reasons.join(QStringLiteral("; ")) + QLatin1Char('.');
  text += QLatin1Char(' ') +
          QCoreApplication::translate("Sizing", "These are estimates from this machine's calibration; the run measures them.");
  if (size.reducedRanks())
    text += QStringLiteral("\n\n") +
            QCoreApplication::translate("Sizing",
                                        "**Not shown for real here:** the lesson's own job has %1, more than this "
                                        "machine's %n core(s) can run at once; ranks sharing a core would wait for it, "
                                        "not for each other. This run uses %2 instead. Its lost time is taken apart by "
                                        "replays of its own trace, and the switch above the views shows it replayed "
                                        "with communication free (Schedule alone).",
                                        nullptr, cores)
                .arg(workers(size.lessonRanks, pipeline), workers(size.ranks, pipeline));
  // A lesson about hiding communication asks for 2 cores per rank: on CPU ranks the
  // communication thread copies the bytes with a core of its own, so with fewer the
  // overlap can only slow the compute it hides behind (docs/performance.md, "Prefetch on
  // two cores").
  for (const auto& c : size.failed())
    if (c.condition.ratio == "cores_per_rank" && c.condition.atLeast >= 2)
      text += QStringLiteral("\n\n") +
              QCoreApplication::translate(
                  "Sizing",
                  "**Not shown for real here:** hiding communication behind compute needs a core for each rank's "
                  "communication thread besides its compute, since Open MPI moves a CPU rank's bytes with the CPU: "
                  "%1 need %2 cores, and this machine has %n. Both runs are real and measured, but here the "
                  "overlap competes with the compute for the cores. The switch above the views shows the same "
                  "runs replayed with communication free (Schedule alone), which is what overlap can gain at most.",
                  nullptr, cores)
                  .arg(workers(size.ranks, pipeline), QLocale().toString(2 * size.ranks));
  // Too few cores is said above when the lesson was cut down for it or when it is about overlap.
  for (const auto& c : size.failed())
    if (c.condition.ratio != "cores_per_rank" || (!size.reducedRanks() && c.condition.atLeast < 2))
      text += QStringLiteral("\n\n") +
              QCoreApplication::translate("Sizing",
                                          "**Warning:** within the lesson's budget of %1 s this machine cannot meet: "
                                          "%2. The closest size runs; its effect is weaker than the lesson describes.")
                  .arg(QLocale().toString(size.budgetSeconds), conditionText(c));
  return text;
}

} // namespace shardlab::app
