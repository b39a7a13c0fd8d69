#include "models/RunEnding.h"

#include "models/Format.h"
#include "models/Captions.h"

#include <QLocale>

#include <algorithm>

namespace shardlab::app {

namespace st = shardlab::trace;

namespace {

QList<int> toList(const std::vector<int>& ranks) { return QList<int>(ranks.begin(), ranks.end()); }

// The typical step of `rank` (the median gap between its step records), 0 when it
// recorded fewer than two.
qint64 typicalStep(const st::Trace& trace, int rank) {
  std::vector<qint64> ends;
  for (const auto& e : trace.events)
    if (e.record == st::Record::Step && e.rank == rank) ends.push_back(e.t0);
  if (ends.size() < 2) return 0;
  std::vector<qint64> gaps;
  for (std::size_t i = 1; i < ends.size(); ++i) gaps.push_back(ends[i] - ends[i - 1]);
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  return gaps[gaps.size() / 2];
}

} // namespace

RunEnding RunEnding::of(const st::Trace& trace) {
  RunEnding r;
  qint64 first = INT64_MAX;
  bool outOfMemory = false;
  qint64 firstDump = INT64_MAX;
  for (const auto& e : trace.events) {
    first = std::min<qint64>(first, e.t0);
    if (e.record == st::Record::OutOfMemory) outOfMemory = true;
    if (e.record == st::Record::Failure && !r.failures.count(e.rank))
      r.failures[e.rank] =
          e.text < trace.texts.size() ? Format::failureReason(QString::fromStdString(trace.texts[e.text])) : QString();
    if (e.record != st::Record::Flight) continue;
    firstDump = std::min<qint64>(firstDump, e.t0);
    if (e.total != -1) continue;
    // Each rank's oldest unfinished call, as hangReport() reads it.
    auto it = r.stuck.find(e.rank);
    if (it == r.stuck.end() || e.value < it->second.start)
      r.stuck[e.rank] = {e.rank, e.kind, e.unit, e.step, e.micro, e.peer, e.value, e.t0};
  }
  if (first == INT64_MAX) first = 0;
  if (const auto config = trace.config()) r.timeoutSeconds = config->collectiveTimeout;

  if (auto report = st::hangReport(trace)) {
    r.kind = Kind::Hang;
    r.waiting = report->waiting;
    r.culprits = report->missing;
    r.hang = std::move(report);
    r.hangSince = INT64_MAX;
    for (int w : r.waiting)
      if (auto it = r.stuck.find(w); it != r.stuck.end()) r.hangSince = std::min(r.hangSince, it->second.start);
    if (r.hangSince == INT64_MAX) r.hangSince = firstDump;
    r.moment = firstDump;
    // The wait itself, and a quarter of it before: what the ranks did last.
    r.windowStart = std::max(first, r.hangSince - (r.moment - r.hangSince) / 4);
    return r;
  }
  if (outOfMemory || r.failures.empty()) {
    r.failures.clear();
    r.stuck.clear();
    return r;
  }
  r.kind = Kind::RankFailed;
  r.stuck.clear();
  // The first to fail is the cause; the others failed after it (or were stopped).
  r.moment = INT64_MAX;
  for (const auto& e : trace.events)
    if (e.record == st::Record::Failure && e.t0 < r.moment) r.moment = e.t0;
  for (const auto& e : trace.events)
    if (e.record == st::Record::Failure && e.t0 == r.moment &&
        std::find(r.culprits.begin(), r.culprits.end(), e.rank) == r.culprits.end())
      r.culprits.push_back(e.rank);
  std::sort(r.culprits.begin(), r.culprits.end());
  // Two of the failed rank's steps before it failed (the whole run when it had none).
  const qint64 step = typicalStep(trace, r.culprits.front());
  r.windowStart = step > 0 ? std::max(first, r.moment - 2 * step) : first;
  return r;
}

bool RunEnding::isCulprit(int rank) const { return std::find(culprits.begin(), culprits.end(), rank) != culprits.end(); }
bool RunEnding::isWaiting(int rank) const { return std::find(waiting.begin(), waiting.end(), rank) != waiting.end(); }

bool RunEnding::reached(qint64 t) const {
  switch (kind) {
  case Kind::Hang: return t >= hangSince;
  case Kind::RankFailed: return t >= moment;
  case Kind::None: return false;
  }
  return false;
}

QString RunEnding::text() const {
  if (kind == Kind::RankFailed) {
    QStringList parts;
    for (int c : culprits) parts << tr("Rank %1 failed: %2.").arg(c).arg(failures.at(c));
    QList<int> others;
    for (const auto& [rank, why] : failures)
      if (!isCulprit(rank)) others << rank;
    if (!others.isEmpty())
      parts << tr("Then rank(s) %1 failed too.", nullptr, static_cast<int>(others.size())).arg(Format::rankList(others));
    parts << tr("The other ranks were stopped; the trace up to the failure is shown.");
    return parts.join(QLatin1Char(' '));
  }
  if (kind != Kind::Hang || !hang) return {};
  const auto& h = *hang;
  // The app's user sets it in the form, not on shardlab-run's command line.
  const QString head = tr("Hang after %1 s (Hang timeout in the Experiment form):").arg(QLocale().toString(timeoutSeconds));
  const int nWaiting = static_cast<int>(h.waiting.size());
  const QString waitingList = Format::rankList(toList(h.waiting));
  const QString unit = QString::fromStdString(h.unit);
  const bool p2p = h.kind == st::Kind::Send || h.kind == st::Kind::Recv;
  if (p2p) {
    const int peer = h.missing.empty() ? (h.passed.empty() ? -1 : h.passed.front()) : h.missing.front();
    const QString waitingIn =
        tr("rank(s) %1 are waiting in %2", nullptr, nWaiting).arg(waitingList, Format::call(h.kind, unit, h.step, h.micro, peer));
    if (h.missing.empty()) return tr("%1 %2; rank %3 got past it.").arg(head, waitingIn).arg(peer);
    return h.kind == st::Kind::Recv ? tr("%1 %2; rank %3 never sent it.").arg(head, waitingIn).arg(peer)
                                    : tr("%1 %2; rank %3 never received it.").arg(head, waitingIn).arg(peer);
  }
  const QString call = Format::call(h.kind, unit, h.step, h.micro);
  if (h.missing.empty()) {
    const QString waitingIn = tr("rank(s) %1 are waiting in %2", nullptr, nWaiting).arg(waitingList, call);
    const QString finished = h.passed.empty()
                                 ? QString()
                                 : tr(" Rank(s) %1 finished it.", nullptr, static_cast<int>(h.passed.size()))
                                       .arg(Format::rankList(toList(h.passed)));
    return tr("%1 %2.").arg(head, waitingIn) + finished;
  }
  const QString neverEntered = tr("rank(s) %1 never entered %2", nullptr, static_cast<int>(h.missing.size()))
                                   .arg(Format::rankList(toList(h.missing)), call);
  const QString waitingInIt = tr("rank(s) %1 are waiting in it", nullptr, nWaiting).arg(waitingList);
  return tr("%1 %2; %3.").arg(head, neverEntered, waitingInIt);
}

QString RunEnding::culpritText(int rank) const {
  if (kind == Kind::RankFailed) {
    const auto it = failures.find(rank);
    return it == failures.end() ? QString() : it->second;
  }
  if (kind != Kind::Hang || !hang) return {};
  const auto& h = *hang;
  const QString unit = QString::fromStdString(h.unit);
  // A message: the peer's side of it (the send the receiver waits for, or the receive).
  if (h.kind == st::Kind::Recv || h.kind == st::Kind::Send)
    return tr("never entered %1")
        .arg(Format::call(h.kind == st::Kind::Recv ? st::Kind::Send : st::Kind::Recv, unit, h.step, h.micro, h.waiting.front()));
  return tr("never entered %1").arg(Format::call(h.kind, unit, h.step, h.micro));
}

QString RunEnding::waitingText(const st::Trace& trace, int rank) const {
  const auto it = stuck.find(rank);
  if (kind != Kind::Hang || it == stuck.end()) return {};
  const auto& s = it->second;
  const bool p2p = s.kind == st::Kind::Send || s.kind == st::Kind::Recv;
  const QString call = Format::call(s.kind, QString::fromStdString(trace.unitName(s.unit)), s.step, s.micro, p2p ? s.peer : -1);
  if (culprits.empty() || !isWaiting(rank)) return tr("waiting in %1").arg(call);
  return tr("waiting in %1 for rank(s) %2", nullptr, static_cast<int>(culprits.size()))
      .arg(call, Format::rankList(toList(culprits)));
}

} // namespace shardlab::app
