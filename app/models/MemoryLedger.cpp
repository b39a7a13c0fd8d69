#include "models/MemoryLedger.h"

#include "models/Format.h"
#include "models/Captions.h"
#include "models/MemoryStateModel.h"

#include "job/MemoryEstimate.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace shardlab::app {

namespace st = shardlab::trace;
using shardlab::Sharding;
using shardlab::StrategyKind;

namespace {
constexpr double kFp32 = 4.0; // master parameters, gradients and each AdamW moment are fp32

// Why a persistent part differs from its Ψ formula: the padding each unit gets to a
// multiple of D (measured − formula equals it exactly), or what remains unexplained.
QString persistentWhy(std::int64_t measured, double formula, double padded, double psi) {
  const double diff = static_cast<double>(measured) - formula;
  if (std::abs(diff) < 0.5) return QCoreApplication::translate("MemoryLedger", "equal");
  if (measured == 0) return QCoreApplication::translate("MemoryLedger", "not held at the end of a step: freed after the optimizer step");
  if (std::abs(static_cast<double>(measured) - padded) < 0.5)
    return QCoreApplication::translate("MemoryLedger", "+%1: each unit's flat parameter is padded to a multiple of the shard degree D")
        .arg(Format::bytes(static_cast<qint64>(std::llround(diff))));
  return QCoreApplication::translate("MemoryLedger", "%1 %2 the arithmetic with padding (%3): not explained")
      .arg(Format::bytes(static_cast<qint64>(std::llround(std::abs(static_cast<double>(measured) - padded)))),
           static_cast<double>(measured) > padded ? QCoreApplication::translate("MemoryLedger", "above") : QCoreApplication::translate("MemoryLedger", "below"), psiMultiple(padded, psi));
}
// Why a persistent part measured when an out-of-memory run stopped differs from its Ψ
// formula: not allocated yet, or only partly, when the allocation was refused.
QString stoppedWhy(std::int64_t measured, double formula, double padded, double psi, const LedgerStop& stop) {
  if (!stop.rankRecorded)
    return QCoreApplication::translate("MemoryLedger", "no memory record of this rank before the run stopped out of memory");
  const double diff = static_cast<double>(measured) - formula;
  if (std::abs(diff) < 0.5) return QCoreApplication::translate("MemoryLedger", "equal");
  if (measured == 0) return QCoreApplication::translate("MemoryLedger", "not allocated when the run stopped out of memory");
  if (static_cast<double>(measured) < formula)
    return QCoreApplication::translate("MemoryLedger", "%1 short: the run stopped out of memory before all of it was allocated")
        .arg(Format::bytes(static_cast<qint64>(std::llround(-diff))));
  return persistentWhy(measured, formula, padded, psi);
}

// The out-of-memory stop of the run, if it ended so (the first rank to report it).
std::optional<LedgerStop> outOfMemoryStop(const TraceModel& model, int rank) {
  const auto& oom = model.summary().outOfMemory;
  if (!oom) return std::nullopt;
  LedgerStop stop;
  stop.reportingRank = oom->rank;
  stop.category = oom->category;
  stop.unit = QString::fromStdString(oom->unit);
  stop.needed = oom->needed;
  stop.holding = oom->holding;
  stop.budget = oom->budget;
  stop.at = model.endTime();
  for (int i : model.failureEvents()) {
    const auto& e = model.event(i);
    if (e.record == st::Record::OutOfMemory && e.rank == oom->rank) {
      stop.at = e.t0;
      break;
    }
  }
  // The step it was in: the steps it completed before, or none begun (its setup).
  int completed = 0;
  bool begun = false;
  for (int i = 0; i < model.eventCount(); ++i) {
    const auto& e = model.event(i);
    if (e.rank != oom->rank || e.t0 > stop.at) continue;
    if (e.record == st::Record::Step) ++completed;
    else if ((e.record == st::Record::Op || e.record == st::Record::Collective || e.record == st::Record::Idle) && e.step >= 0)
      begun = true;
  }
  stop.step = completed > 0 || begun ? completed : -1;
  const auto& recs = model.memoryRecords(rank);
  stop.rankRecorded = !recs.empty() && model.event(recs.front()).t0 <= stop.at;
  return stop;
}
} // namespace

QString psiMultiple(double bytes, double psi) {
  return psi > 0 ? QStringLiteral("%1 Ψ").arg(QLocale().toString(bytes / psi, 'f', 2)) : QString();
}

std::int64_t Ledger::measuredPersistent() const {
  std::int64_t sum = 0;
  for (const auto& l : lines)
    if (l.persistent) sum += l.measured;
  return sum;
}

std::optional<double> Ledger::formulaPersistent() const {
  if (!applies) return std::nullopt;
  double sum = 0;
  for (const auto& l : lines)
    if (l.persistent && l.formulaBytes) sum += *l.formulaBytes;
  return sum;
}

namespace {
// A PyTorch profiler trace says how much each rank had allocated, not what for, and
// the job record has no model size (Ψ): one uncategorised line held at the end of the
// last step, one at its peak.
Ledger importedLedger(const TraceModel& model, int rank) {
  Ledger ledger;
  ledger.rank = rank;
  ledger.imported = true;
  qint64 lastStepEnd = -1;
  for (int i = 0; i < model.eventCount(); ++i) {
    const auto& e = model.event(i);
    if (e.record == st::Record::Step && e.rank == rank) lastStepEnd = std::max<qint64>({lastStepEnd, e.t0, e.t1});
  }
  const MemoryStateModel state(model);
  const CategoryBytes atEnd = lastStepEnd >= 0 ? state.memoryAt(rank, lastStepEnd) : CategoryBytes{};
  const auto& ranks = model.summary().ranksDetail;
  const auto summary = std::find_if(ranks.begin(), ranks.end(), [&](const auto& r) { return r.rank == rank; });
  LedgerLine held;
  held.category = st::Category::Unknown;
  held.measured = atEnd[static_cast<std::size_t>(st::Category::Unknown)];
  held.why = QCoreApplication::translate("MemoryLedger", "what the rank still held when its last step ended, of the "
                                                         "allocations the profiler saw (on CPU ranks those made while it "
                                                         "recorded: the parameters, allocated before it, are not counted)");
  LedgerLine peak;
  peak.category = st::Category::Unknown;
  peak.persistent = false;
  peak.measured = summary == ranks.end() ? 0 : summary->peakBytes;
  peak.why = QCoreApplication::translate("MemoryLedger", "the profiler's largest total allocated on this rank");
  ledger.lines = {held, peak};
  return ledger;
}
} // namespace

Ledger memoryLedger(const TraceModel& model, int rank) {
  Ledger ledger;
  ledger.rank = rank;
  if (!model.config() || rank < 0 || rank >= model.rankCount()) return ledger;
  if (model.imported()) return importedLedger(model, rank);
  const shardlab::JobConfig& job = *model.config();
  const shardlab::ModelShape shape = job.shape();
  const bool fsdp = job.strategy == StrategyKind::Fsdp;
  ledger.applies = fsdp || job.strategy == StrategyKind::Ddp;
  ledger.degree = fsdp ? job.shardDegree() : 1;
  const int d = ledger.degree;
  double psi = 0, largestUnit = 0;
  for (int u = 0; u < shape.unitCount(); ++u) {
    const auto n = static_cast<double>(shape.unitSize(u));
    const auto shard = static_cast<double>(shape.shardSize(u, d));
    psi += n;
    largestUnit = std::max(largestUnit, shard * d);
  }
  ledger.psi = psi;
  // SHARD_GRAD_OP is only close to ZeRO-2: ZeRO-2 keeps the parameters replicated
  // (4Ψ + 12Ψ/N in fp32), SHARD_GRAD_OP shards them between steps (16Ψ/N), as the
  // lines below count them (docs/sharding.md, "Two honest differences").
  if (fsdp)
    ledger.stage = QStringLiteral("%1 (%2ZeRO-%3)")
                       .arg(QString::fromUtf8(shardlab::pytorchName(job.sharding).data(),
                                              static_cast<qsizetype>(shardlab::pytorchName(job.sharding).size())),
                            job.sharding == Sharding::GradOp ? QStringLiteral("≈ ") : QString())
                       .arg(shardlab::zeroStage(job.sharding));
  else if (ledger.applies)
    ledger.stage = QStringLiteral("DDP");

  // Measured: the categories at the end of the rank's last completed step, and their peaks.
  qint64 lastStepEnd = -1;
  for (int i = 0; i < model.eventCount(); ++i) {
    const auto& e = model.event(i);
    if (e.record == st::Record::Step && e.rank == rank) lastStepEnd = std::max<qint64>({lastStepEnd, e.t0, e.t1});
  }
  const MemoryStateModel state(model);
  // A run that ran out of memory: what the rank held when it stopped.
  ledger.outOfMemory = outOfMemoryStop(model, rank);
  const qint64 measuredAt = ledger.outOfMemory ? ledger.outOfMemory->at : lastStepEnd;
  const CategoryBytes atEnd = measuredAt >= 0 ? state.memoryAt(rank, measuredAt) : CategoryBytes{};
  const auto& ranks = model.summary().ranksDetail;
  const auto summary = std::find_if(ranks.begin(), ranks.end(), [&](const auto& r) { return r.rank == rank; });
  auto held = [&](st::Category c) { return atEnd[static_cast<std::size_t>(c)]; };
  auto peak = [&](st::Category c) {
    return summary == ranks.end() ? std::int64_t{0} : summary->peakByCategory[static_cast<std::size_t>(c)];
  };

  // Which persistent parts this stage shards (docs/sharding.md, "Memory per rank, in Ψ").
  const Sharding s = job.sharding;
  const bool paramsSharded = fsdp && (s == Sharding::GradOp || s == Sharding::Full || s == Sharding::Hybrid);
  const bool gradsSharded = paramsSharded;
  const bool optimizerSharded = fsdp && s != Sharding::NoShard;
  const QString over = d > 1 ? QStringLiteral("/%1").arg(d) : QString();
  // The same arithmetic with each unit padded to a multiple of D, as the engine
  // allocates it: the launcher's pre-flight estimate (engine/job/MemoryEstimate.h).
  const shardlab::MemoryEstimate engine = shardlab::estimateRankMemory(job);
  auto persistentLine = [&](st::Category a, st::Category b, double perValue, bool sharded, const QString& coefficient,
                            double padded) {
    LedgerLine l;
    l.category = a;
    l.also = b;
    l.measured = held(a) + (b == st::Category::Count ? 0 : held(b));
    if (ledger.applies) {
      l.formulaBytes = perValue * psi / (sharded ? d : 1);
      l.formula = sharded && d > 1 ? QStringLiteral("%1Ψ/D = %1Ψ%2").arg(coefficient, over) : coefficient + QStringLiteral("Ψ");
      l.why = ledger.outOfMemory ? stoppedWhy(l.measured, *l.formulaBytes, padded, psi, *ledger.outOfMemory)
                                 : persistentWhy(l.measured, *l.formulaBytes, padded, psi);
    }
    return l;
  };
  // A sharded part is held as its shard, else in full (named by the category it is held in).
  ledger.lines.push_back(persistentLine(paramsSharded ? st::Category::ParamShard : st::Category::ParamReplica,
                                        st::Category::Count, kFp32, paramsSharded, QStringLiteral("4"), engine.parameters));
  ledger.lines.push_back(persistentLine(gradsSharded ? st::Category::GradShard : st::Category::Grads,
                                        st::Category::Count, kFp32, gradsSharded, QStringLiteral("4"), engine.gradients));
  ledger.lines.push_back(persistentLine(st::Category::OptimizerState, st::Category::Count, 2 * kFp32, optimizerSharded,
                                        QStringLiteral("8"), engine.optimizer));

  // Transient parts: what the Ψ arithmetic leaves out, at their peak.
  auto transientLine = [&](st::Category c, const QString& why) {
    LedgerLine l;
    l.category = c;
    l.persistent = false;
    l.measured = peak(c);
    l.why = why;
    return l;
  };
  if (fsdp && peak(st::Category::GatheredParams) > 0) {
    const double unitBytes = largestUnit * kFp32;
    ledger.lines.push_back(transientLine(
        st::Category::GatheredParams,
        QCoreApplication::translate("MemoryLedger", "units rebuilt for their compute: the peak is %1 × the largest unit (%2), the unit computing and those "
           "prefetched or kept")
            .arg(QLocale().toString(static_cast<double>(peak(st::Category::GatheredParams)) / std::max(1.0, unitBytes), 'f', 1),
                 Format::bytes(static_cast<qint64>(unitBytes)))));
  }
  if (gradsSharded && peak(st::Category::Grads) > 0)
    ledger.lines.push_back(transientLine(
        st::Category::Grads, QCoreApplication::translate("MemoryLedger", "full gradients of the units being reduce-scattered, freed once their slice is reduced")));
  ledger.lines.push_back(transientLine(
      st::Category::Activations,
      QCoreApplication::translate("MemoryLedger", "not in the Ψ arithmetic: they grow with the batch, the hidden size and the layers, not with Ψ")));
  if (peak(st::Category::CommBuffers) > 0)
    ledger.lines.push_back(transientLine(st::Category::CommBuffers, QCoreApplication::translate("MemoryLedger", "staging for collectives and messages")));
  return ledger;
}

} // namespace shardlab::app
