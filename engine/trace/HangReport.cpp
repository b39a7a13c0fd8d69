#include "trace/HangReport.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace shardlab::trace {
namespace {

std::string rankList(const std::vector<int>& ranks) {
  std::string out = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size(); ++i) out += (i ? ", " : "") + std::to_string(ranks[i]);
  return out;
}

std::string callText(Kind kind, const std::string& unit, int step, int micro, int peer = -1) {
  std::string s(toString(kind));
  if (peer >= 0) s += (kind == Kind::Recv ? " from rank " : " to rank ") + std::to_string(peer);
  if (unit != "-") s += " of " + unit;
  if (step >= 0) s += " in step " + std::to_string(step);
  if (micro >= 0) s += " (micro-batch " + std::to_string(micro) + ")";
  return s;
}

bool sameCall(const Event& a, const Event& b) {
  return a.kind == b.kind && a.unit == b.unit && a.step == b.step && a.micro == b.micro && a.group == b.group;
}

} // namespace

std::optional<HangReport> hangReport(const Trace& trace) {
  // The unfinished calls of the flight recorders, grouped by call.
  using Key = std::tuple<int, int, int, int, int, std::int64_t, RankMask, int>; // kind, unit, step, micro, group, seq, mask, peer
  std::map<Key, std::vector<const Event*>> waitingIn;
  std::map<int, const Event*> ownWait; // each rank's oldest unfinished call
  for (const auto& e : trace.events) {
    if (e.record != Record::Flight || e.total != -1) continue;
    const bool p2p = e.kind == Kind::Send || e.kind == Kind::Recv;
    // A point-to-point call is keyed by the pair it joins (the receiver's view).
    const Key key{static_cast<int>(e.kind), e.unit, e.step, e.micro, static_cast<int>(e.group), p2p ? -1 : e.seq,
                  e.participants, p2p ? e.peer : -1};
    auto& list = waitingIn[key];
    if (std::none_of(list.begin(), list.end(), [&](const Event* w) { return w->rank == e.rank; })) list.push_back(&e);
    auto [it, fresh] = ownWait.try_emplace(e.rank, &e);
    if (!fresh && e.value < it->second->value) it->second = &e;
  }
  if (waitingIn.empty()) return std::nullopt;
  // The call most ranks wait in; on a tie, the one that started first.
  auto best = waitingIn.begin();
  auto startOf = [](const std::vector<const Event*>& v) {
    std::int64_t t = INT64_MAX;
    for (const Event* e : v) t = std::min(t, e->value);
    return t;
  };
  for (auto it = waitingIn.begin(); it != waitingIn.end(); ++it)
    if (it->second.size() > best->second.size() ||
        (it->second.size() == best->second.size() && startOf(it->second) < startOf(best->second)))
      best = it;
  const Event& call = *best->second.front();

  HangReport report;
  report.kind = call.kind;
  report.unit = trace.unitName(call.unit);
  report.step = call.step;
  report.micro = call.micro;
  report.group = call.group;
  report.seq = call.seq;
  for (const Event* e : best->second) report.waiting.push_back(e->rank);
  std::sort(report.waiting.begin(), report.waiting.end());

  const bool p2p = call.kind == Kind::Send || call.kind == Kind::Recv;
  if (p2p) {
    // The peer either sent (received) the message, or never did.
    const Kind other = call.kind == Kind::Recv ? Kind::Send : Kind::Recv;
    bool matched = false;
    for (const auto& e : trace.events)
      if ((e.record == Record::Collective || e.record == Record::Flight) && e.rank == call.peer && e.kind == other &&
          e.peer == call.rank && e.step == call.step && e.micro == call.micro && e.unit == call.unit)
        matched = true;
    (matched ? report.passed : report.missing).push_back(call.peer);
    report.message = rankList(report.waiting) + (report.waiting.size() == 1 ? " is" : " are") + " waiting in " +
                     callText(call.kind, report.unit, call.step, call.micro, call.peer) + "; rank " +
                     std::to_string(call.peer) +
                     (matched ? " got past it" : call.kind == Kind::Recv ? " never sent it" : " never received it");
    return report;
  }

  for (int r = 0; r < 64; ++r) {
    if (!(call.participants & (RankMask{1} << r))) continue;
    if (std::find(report.waiting.begin(), report.waiting.end(), r) != report.waiting.end()) continue;
    // Entered and finished: the rank recorded more than SEQ collectives on that
    // communicator (a call's `coll` record is written when it ends, in issue order,
    // so the SEQ-th one is this call), or its flight recorder has the call finished.
    std::int64_t done = 0;
    bool finished = false;
    for (const auto& e : trace.events) {
      if (e.rank != r) continue;
      if (e.record == Record::Collective && e.group == call.group && e.kind != Kind::Send && e.kind != Kind::Recv)
        ++done;
      if (e.record == Record::Flight && e.total != -1 && e.seq == call.seq && sameCall(e, call)) finished = true;
    }
    finished = finished || done > call.seq;
    (finished ? report.passed : report.missing).push_back(r);
  }

  const std::string what = callText(call.kind, report.unit, call.step, call.micro);
  std::string m;
  if (!report.missing.empty()) {
    m = rankList(report.missing) + " never entered " + what;
    for (int r : report.missing)
      if (auto it = ownWait.find(r); it != ownWait.end() && !sameCall(*it->second, call))
        m += " (rank " + std::to_string(r) + " is waiting in " +
             callText(it->second->kind, trace.unitName(it->second->unit), it->second->step, it->second->micro,
                      it->second->kind == Kind::Send || it->second->kind == Kind::Recv ? it->second->peer : -1) +
             ")";
    m += "; " + rankList(report.waiting) + (report.waiting.size() == 1 ? " is" : " are") + " waiting in it";
  } else {
    m = rankList(report.waiting) + (report.waiting.size() == 1 ? " is" : " are") + " waiting in " + what;
    if (!report.passed.empty()) m += "; " + rankList(report.passed) + " finished it";
  }
  report.message = m;
  return report;
}

} // namespace shardlab::trace
