#include "views/SummaryView.h"

#include "models/Format.h"
#include "models/Captions.h"
#include "views/Palette.h"

#include <QLocale>

namespace shardlab::app {

namespace st = shardlab::trace;

SummaryView::SummaryView(const TraceModel& model, QWidget* parent) : QTextBrowser(parent), model_(model) {}

void SummaryView::rebuild() { setHtml(html(model_)); }

// A ring-model byte count, and beside it what Open MPI's monitoring measured when it
// did (docs/trace-format.md, "Bytes on the wire"); otherwise the figure says it is modelled.
QString SummaryView::wireBytes(std::int64_t ringModel, const std::optional<std::int64_t>& measured) {
  if (!measured) return tr("%1 modelled").arg(Format::bytes(ringModel));
  return tr("%1 modelled · %2 measured").arg(Format::bytes(ringModel), Format::bytes(*measured));
}

QString SummaryView::html(const TraceModel& model) {
  if (model.isEmpty()) return tr("<p>No run yet.</p>");
  const auto& s = model.summary();
  QString h;
  h += QStringLiteral("<h3>%1</h3>").arg(model.runLabel().toHtmlEscaped());
  if (model.imported())
    // A profiler trace holds no parameter count (and no loss): not "0 parameters".
    h += tr("<p>%1 on %n rank(s) · %2 of %3 steps (ProfilerStep) · %4 units · wall %5 · the trace records neither "
            "the parameters nor the loss, and is not replayed</p>", nullptr, s.ranks)
             .arg(QString::fromStdString(s.strategy).toUpper())
             .arg(s.stepsCompleted)
             .arg(s.steps)
             .arg(s.units)
             .arg(Format::duration(static_cast<qint64>(s.wallS * 1e9)));
  else
    h += tr("<p>%1 on %n rank(s) · %2 of %3 steps · %4 parameters in %5 units · wall %6</p>", nullptr, s.ranks)
             .arg(QString::fromStdString(s.strategy).toUpper())
             .arg(s.stepsCompleted)
             .arg(s.steps)
             .arg(s.parameters)
             .arg(s.units)
             .arg(Format::duration(static_cast<qint64>(s.wallS * 1e9)));
  if (!s.lossPerStep.empty())
    h += tr("<p>Loss %1 → %2</p>").arg(QLocale().toString(s.lossPerStep.front(), 'f', 4), QLocale().toString(s.lossPerStep.back(), 'f', 4));
  h += QStringLiteral("<table border=1 cellspacing=0 cellpadding=3><tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th>"
                      "<th>%5</th><th>%6</th><th>%7</th><th>%8</th></tr>")
           .arg(tr("rank"), tr("persistent"), tr("peak"), tr("compute"), tr("comm"), tr("exposed comm"), tr("idle"),
                tr("sent"));
  for (const auto& r : s.ranksDetail)
    h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td><td>%8</td></tr>")
             .arg(model.rankLabel(r.rank).toHtmlEscaped(), Format::bytes(r.persistentBytes), Format::bytes(r.peakBytes),
                  Format::duration(static_cast<qint64>(r.computeS * 1e9)),
                  Format::duration(static_cast<qint64>(r.commS * 1e9)),
                  Format::duration(static_cast<qint64>(r.exposedCommS * 1e9)),
                  Format::duration(static_cast<qint64>(r.idleS * 1e9)), wireBytes(r.sentBytes, r.measuredSentBytes));
  h += QStringLiteral("</table>");
  if (!s.collectives.empty()) {
    h += QStringLiteral("<table border=1 cellspacing=0 cellpadding=3><tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>")
             .arg(tr("collective"), tr("calls per rank"), tr("buffer bytes"), tr("on the wire"), tr("time"));
    for (const auto& [kind, c] : s.collectives)
      h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
               .arg(Format::kindName(st::kindFromString(kind).value_or(st::Kind::None)))
               .arg(c.count)
               .arg(Format::bytes(c.bytes), wireBytes(c.wireBytes, c.measuredWireBytes),
                    Format::duration(static_cast<qint64>(c.seconds * 1e9)));
    h += QStringLiteral("</table>");
    h += tr("<p><i>Modelled</i>: what a ring algorithm sends for each recorded call. <i>Measured</i>: what Open "
            "MPI's monitoring counted the rank really sending, whatever algorithm it chose; not available on NCCL "
            "ranks, for point-to-point messages on Open MPI 4.1, or with <code>--no-wire-monitoring</code>.</p>");
  }
  if (s.bubble.present)
    h += tr("<p>Pipeline bubble (%1; p = %2 stages, m = %3 micro-batches, V = %4 model chunks per rank): measured %5%, theory %6%</p>")
             .arg(QString::fromStdString(s.bubble.schedule))
             .arg(s.bubble.stages)
             .arg(s.bubble.microbatches)
             .arg(s.bubble.virtualStages)
             .arg(QLocale().toString(s.bubble.measured * 100, 'f', 1), QLocale().toString(s.bubble.theory * 100, 'f', 1));
  if (s.outOfMemory)
    h += tr("<p><b>Out of memory on rank %1</b>: %2 needed %3 more while holding %4; the budget is %5.</p>")
             .arg(s.outOfMemory->rank)
             .arg(Format::categoryName(s.outOfMemory->category), Format::bytes(s.outOfMemory->needed),
                  Format::bytes(s.outOfMemory->holding), Format::bytes(s.outOfMemory->budget));
  for (const auto& r : s.ranksDetail)
    if (r.failure && !(s.outOfMemory && s.outOfMemory->rank == r.rank))
      h += tr("<p><b>Rank %1 failed</b>: %2</p>").arg(r.rank).arg(Format::failureReason(QString::fromStdString(*r.failure)).toHtmlEscaped());
  return h;
}

} // namespace shardlab::app
