#include "trace/Replay.h"

#include "trace/Summary.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <unordered_map>

namespace shardlab::trace {
namespace {

constexpr std::string_view kWallTimesNote = "no CPU times recorded; using wall times";
constexpr std::string_view kCpuTimesNote =
    "each op replays the shortest CPU time recorded for the same arithmetic (device time on GPU ranks)";

// One thing a rank did, to be replayed: a piece of an op (an op is cut where it waited
// for a collective), a blocking receive (both on the compute stream), or a
// collective or send (on the communication stream).
struct Task {
  std::int32_t event = -1;     // index into the measured trace's events
  std::int32_t rank = 0;
  std::int64_t t0 = 0, t1 = 0; // measured interval of this task
  std::int64_t work = 0;       // compute: the time it replays (see shortestTimes)
  std::int64_t cpu = 0;        // compute: its own CPU time (its wall time when none was recorded)
  std::int64_t transfer = 0;   // communication: its measured duration (see measuredTransfers)
  std::int64_t ready = 0;      // a receive: when its rank began waiting for the message (else t0)
  std::int32_t piece = 0;      // a piece of an op: which (0 before its first wait)
  bool comm = false;           // on the communication stream
  std::int32_t group = -1;     // a collective: the tasks of all its participants
  // Stream predecessor, then what it waits for: a compute task on the collective it
  // waited for (or a receive on its send); a communication task on its producer.
  std::array<std::int32_t, 3> deps{-1, -1, -1};
  std::string missing;         // what the trace lacks for this task (cut short), if anything
};

struct Placed {
  std::size_t after; // how many of its rank's compute tasks come before it
  std::int32_t event;
};

struct Graph {
  std::vector<Task> tasks;
  std::vector<std::vector<std::int32_t>> groups; // collective: its participants' tasks
  std::vector<std::vector<std::int32_t>> computeOrder; // per rank: compute tasks in order
  std::vector<std::vector<Placed>> marks;              // per rank: step and end records
  std::vector<std::pair<std::int64_t, std::string>> unreceived; // sends without a receive: when, what
  bool cpuTimes = false; // ops replay their recorded CPU time (else the shortest wall time of their kind)
  std::string_view timesNote() const { return cpuTimes ? kCpuTimesNote : kWallTimesNote; }
};

// Four small numbers as one hash key (ranks, steps, micro-batches, units, kinds).
struct Key {
  std::int64_t a, b, c, d;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  std::size_t operator()(const Key& k) const {
    std::uint64_t h = 1469598103934665603ULL;
    for (auto v : {k.a, k.b, k.c, k.d}) h = (h ^ static_cast<std::uint64_t>(v)) * 1099511628211ULL;
    return static_cast<std::size_t>(h);
  }
};
template <typename V>
using KeyMap = std::unordered_map<Key, V, KeyHash>;

// An op's wall time also holds any time slice the rank lost to another process, and
// even its CPU time varies with caches and frequency. So each piece of an op replays
// the shortest time (CPU time when recorded, else wall time) of any op doing the same arithmetic: the same
// piece of the same kind on a unit of the same size (job.model.unit_parameters; the
// unit itself when the trace lacks them), over all ranks, steps and micro-batches.
// That is the op's time when it had a core to itself, a duration the trace holds.
void shortestTimes(const Trace& trace, Graph& g) {
  const std::vector<std::int64_t> unitSize = trace.job ? trace.job->model.unitParameters : std::vector<std::int64_t>{};
  const bool bySize = unitSize.size() >= trace.units.size();
  const auto keyOfTask = [&](const Task& t) {
    const Event& e = trace.events[static_cast<std::size_t>(t.event)];
    const std::int64_t unit = bySize && e.unit >= 0 ? unitSize[static_cast<std::size_t>(e.unit)] : e.unit;
    return Key{static_cast<std::int64_t>(e.kind), unit, t.piece, bySize ? -1 : t.rank};
  };
  const auto isOp = [&](const Task& t) {
    return !t.comm && trace.events[static_cast<std::size_t>(t.event)].record == Record::Op;
  };
  // With CPU times (the op record's trailing field) the shortest CPU time stands for the
  // op instead: its duration with a core to itself, measured. A piece of an op cut at a
  // wait (traces recorded before ops were split) has only its wall time.
  const auto duration = [&](const Task& t) {
    const Event& e = trace.events[static_cast<std::size_t>(t.event)];
    const bool wholeOp = t.t1 - t.t0 == e.t1 - e.t0;
    if (wholeOp && e.cpuNs >= 0) {
      g.cpuTimes = true;
      return std::min(e.cpuNs, t.t1 - t.t0);
    }
    return t.t1 - t.t0;
  };
  KeyMap<std::int64_t> shortest;
  for (const Task& t : g.tasks)
    if (isOp(t)) {
      const std::int64_t d = duration(t);
      auto [it, fresh] = shortest.try_emplace(keyOfTask(t), d);
      if (!fresh) it->second = std::min(it->second, d);
    }
  for (Task& t : g.tasks)
    if (isOp(t)) {
      t.work = shortest[keyOfTask(t)];
      t.cpu = duration(t);
    }
}

// What each transfer took, as the fit samples it: a collective lasts, on the rank that
// joined it last, about its transfer alone; a message, from when both sides were ready
// (the send issued, the receiver waiting) to when the receiver could copy it: the
// hand-off, thread wake-up included. The copy itself is the receive's own duration.
void measuredTransfers(Graph& g) {
  for (const auto& members : g.groups) {
    std::int64_t shortest = INT64_MAX;
    for (auto m : members) shortest = std::min(shortest, g.tasks[static_cast<std::size_t>(m)].t1 - g.tasks[static_cast<std::size_t>(m)].t0);
    for (auto m : members) g.tasks[static_cast<std::size_t>(m)].transfer = shortest;
  }
  for (Task& t : g.tasks)
    if (t.comm && t.group < 0) t.transfer = t.t1 - t.t0;
  for (const Task& t : g.tasks) {
    if (t.comm || t.deps[2] < 0) continue;
    Task& send = g.tasks[static_cast<std::size_t>(t.deps[2])];
    send.transfer = std::max<std::int64_t>(0, t.t0 - std::max(send.t0, t.ready));
  }
}

// Builds the dependency graph (docs/replay.md, "The graph").
Graph buildGraph(const Trace& trace) {
  Graph g;
  int R = trace.rankCount();
  for (const auto& e : trace.events) R = std::max(R, e.rank + 1);
  const auto ranks = static_cast<std::size_t>(R);
  std::vector<std::vector<std::int32_t>> ops(ranks), recvs(ranks), comms(ranks), waits(ranks), marks(ranks);
  for (std::size_t i = 0; i < trace.events.size(); ++i) {
    const Event& e = trace.events[i];
    const auto r = static_cast<std::size_t>(e.rank);
    const auto idx = static_cast<std::int32_t>(i);
    if (e.record == Record::Op) ops[r].push_back(idx);
    else if (e.record == Record::Collective && e.kind == Kind::Recv) recvs[r].push_back(idx);
    else if (e.record == Record::Collective) comms[r].push_back(idx);
    else if (e.record == Record::Idle && e.kind == Kind::WaitCollective) waits[r].push_back(idx);
    else if (e.record == Record::Step || e.record == Record::End) marks[r].push_back(idx);
  }
  const auto byStart = [&](std::int32_t a, std::int32_t b) {
    return trace.events[static_cast<std::size_t>(a)].t0 < trace.events[static_cast<std::size_t>(b)].t0;
  };
  g.computeOrder.resize(ranks);
  g.marks.resize(ranks);
  std::vector<std::vector<std::int32_t>> commOrder(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    // Communication stream: one thread, so start order is issue order.
    std::stable_sort(comms[r].begin(), comms[r].end(), byStart);
    for (auto ev : comms[r]) {
      const Event& e = trace.events[static_cast<std::size_t>(ev)];
      Task t;
      t.event = ev;
      t.rank = e.rank;
      t.t0 = e.t0;
      t.t1 = e.t1;
      t.comm = true;
      if (!commOrder[r].empty()) t.deps[0] = commOrder[r].back();
      commOrder[r].push_back(static_cast<std::int32_t>(g.tasks.size()));
      g.tasks.push_back(std::move(t));
    }
    // The collective a wait ended on: the last one on this rank that ended by then.
    const auto waitedFor = [&](std::int64_t waitEnd) -> std::int32_t {
      const auto& order = commOrder[r];
      auto it = std::upper_bound(order.begin(), order.end(), waitEnd, [&](std::int64_t t, std::int32_t task) {
        return t < g.tasks[static_cast<std::size_t>(task)].t1;
      });
      return it == order.begin() ? -1 : *(it - 1);
    };
    // Compute stream: ops and blocking receives in start order; an op is cut at each
    // wait inside it, and the piece after a wait depends on what it waited for.
    std::vector<std::int32_t> compute = ops[r];
    compute.insert(compute.end(), recvs[r].begin(), recvs[r].end());
    std::stable_sort(compute.begin(), compute.end(), byStart);
    std::stable_sort(waits[r].begin(), waits[r].end(), byStart);
    std::size_t w = 0;
    std::int32_t waitedOn = -1, piece = 0;
    std::int64_t waitStart = -1; // the wait just before this task, if any
    auto pushCompute = [&](std::int32_t ev, std::int64_t t0, std::int64_t t1) {
      Task t;
      t.event = ev;
      t.rank = static_cast<std::int32_t>(r);
      t.t0 = t0;
      t.t1 = t1;
      t.ready = waitStart >= 0 && waitStart <= t0 ? waitStart : t0;
      waitStart = -1;
      t.piece = piece++;
      if (!g.computeOrder[r].empty()) t.deps[0] = g.computeOrder[r].back();
      t.deps[1] = waitedOn;
      waitedOn = -1;
      g.computeOrder[r].push_back(static_cast<std::int32_t>(g.tasks.size()));
      g.tasks.push_back(std::move(t));
    };
    for (auto ev : compute) {
      const Event& e = trace.events[static_cast<std::size_t>(ev)];
      std::int64_t pieceStart = e.t0;
      piece = 0;
      for (; w < waits[r].size(); ++w) {
        const Event& wait = trace.events[static_cast<std::size_t>(waits[r][w])];
        if (wait.t0 >= e.t1) break;
        if (e.record == Record::Op && wait.t0 >= e.t0 && wait.t1 <= e.t1) {
          if (wait.t0 > pieceStart) pushCompute(ev, pieceStart, wait.t0);
          pieceStart = wait.t1;
        } else if (wait.t1 <= e.t0) {
          waitStart = wait.t0;
        }
        waitedOn = waitedFor(wait.t1);
      }
      pushCompute(ev, pieceStart, e.t1);
    }
    // Step and end records sit after the last compute task that ended by then.
    std::stable_sort(marks[r].begin(), marks[r].end(), byStart);
    std::size_t c = 0;
    const auto& order = g.computeOrder[r];
    for (auto ev : marks[r]) {
      const auto t = trace.events[static_cast<std::size_t>(ev)].t0;
      while (c < order.size() && g.tasks[static_cast<std::size_t>(order[c])].t1 <= t) ++c;
      g.marks[r].push_back({c, ev});
    }
  }

  // A transfer's producer: the last piece of an op with its step, micro-batch and unit
  // that ended before it began (the gradient it reduces, the activation it sends);
  // else (an all-gather brings parameters in before their use) the last compute task
  // that ended before it began.
  std::vector<KeyMap<std::vector<std::int32_t>>> byKey(ranks);
  for (std::size_t r = 0; r < ranks; ++r)
    for (auto task : g.computeOrder[r]) {
      const Event& e = trace.events[static_cast<std::size_t>(g.tasks[static_cast<std::size_t>(task)].event)];
      if (e.record == Record::Op) byKey[r][Key{e.step, e.micro, e.unit, 0}].push_back(task);
    }
  const auto lastEndedBy = [&](const std::vector<std::int32_t>& list, std::int64_t t) -> std::int32_t {
    auto it = std::upper_bound(list.begin(), list.end(), t, [&](std::int64_t time, std::int32_t task) {
      return time < g.tasks[static_cast<std::size_t>(task)].t1;
    });
    return it == list.begin() ? -1 : *(it - 1);
  };
  // Collectives: the k-th of a kind over the same participants on every rank is one
  // collective (MPI runs a communicator's collectives in the same order on all ranks).
  KeyMap<std::int32_t> groupOf;      // (kind, participants, k) -> group
  KeyMap<std::int64_t> seen;         // (kind, participants, rank) -> collectives so far
  // Messages: a send matches the receive of its direction (forward: activation,
  // backward: gradient), step, micro-batch and boundary.
  KeyMap<std::int32_t> sends;
  // A split backward's B and W both read as the gradient's direction.
  const auto direction = [&](std::int32_t task) -> std::int64_t {
    if (task < 0) return 0;
    const Kind kind = trace.events[static_cast<std::size_t>(g.tasks[static_cast<std::size_t>(task)].event)].kind;
    return static_cast<std::int64_t>(isBackward(kind) ? Kind::Backward : kind);
  };
  // A message carries an activation (from a forward) or an input gradient (from a
  // backward's B): never a weight gradient. A send that started late, its thread still
  // busy with an earlier one, can start after the W of its micro-batch and unit ended,
  // and that W is not what it waited for.
  const auto notWeight = [&](const std::vector<std::int32_t>& list, std::int32_t found) -> std::int32_t {
    auto it = std::find(list.rbegin(), list.rend(), found);
    for (; it != list.rend(); ++it)
      if (trace.events[static_cast<std::size_t>(g.tasks[static_cast<std::size_t>(*it)].event)].kind != Kind::BackwardWeight)
        return *it;
    return -1;
  };
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    Task& t = g.tasks[i];
    if (!t.comm) continue;
    const Event& e = trace.events[static_cast<std::size_t>(t.event)];
    const auto r = static_cast<std::size_t>(t.rank);
    std::int32_t producer = -1;
    if (auto it = byKey[r].find(Key{e.step, e.micro, e.unit, 0}); it != byKey[r].end()) {
      producer = lastEndedBy(it->second, t.t0);
      if (e.kind == Kind::Send && producer >= 0) producer = notWeight(it->second, producer);
    }
    if (producer < 0) producer = lastEndedBy(g.computeOrder[r], t.t0);
    t.deps[1] = producer;
    if (e.kind == Kind::Send) {
      sends[Key{e.rank * 4096 + e.peer, e.step, e.micro, e.unit * 16 + direction(producer)}] =
          static_cast<std::int32_t>(i);
      continue;
    }
    const auto mask = static_cast<std::int64_t>(e.participants);
    const std::int64_t nth = seen[Key{static_cast<std::int64_t>(e.kind), mask, e.rank, 0}]++;
    auto [it, fresh] = groupOf.try_emplace(Key{static_cast<std::int64_t>(e.kind), mask, nth, -1},
                                           static_cast<std::int32_t>(g.groups.size()));
    if (fresh) g.groups.emplace_back();
    t.group = it->second;
    g.groups[static_cast<std::size_t>(it->second)].push_back(static_cast<std::int32_t>(i));
  }
  for (const auto& members : g.groups) {
    const Event& e = trace.events[static_cast<std::size_t>(g.tasks[static_cast<std::size_t>(members[0])].event)];
    const int expected = std::popcount(e.participants);
    if (static_cast<int>(members.size()) < expected)
      for (auto m : members)
        g.tasks[static_cast<std::size_t>(m)].missing = std::string(toString(e.kind)) + " " + trace.unitName(e.unit) +
                                                       " of step " + std::to_string(e.step) + " ran on " +
                                                       std::to_string(members.size()) + " of its " +
                                                       std::to_string(expected) + " ranks";
  }
  for (std::size_t r = 0; r < ranks; ++r) {
    const auto& order = g.computeOrder[r];
    for (std::size_t k = 0; k < order.size(); ++k) {
      Task& t = g.tasks[static_cast<std::size_t>(order[k])];
      const Event& e = trace.events[static_cast<std::size_t>(t.event)];
      if (e.record != Record::Collective) continue;
      // A receive's direction is the kind of the op that uses it; its boundary unit is
      // the sender's: one before (activation) or one after (gradient).
      const std::int32_t user = k + 1 < order.size() ? order[k + 1] : -1;
      const auto dir = direction(user);
      const int sentUnit = dir == static_cast<std::int64_t>(Kind::Forward) ? e.unit - 1 : e.unit + 1;
      auto it = sends.find(Key{e.peer * 4096 + e.rank, e.step, e.micro, sentUnit * 16 + dir});
      if (it != sends.end()) {
        t.deps[2] = it->second;
        sends.erase(it);
      } else
        t.missing = "recv from rank " + std::to_string(e.peer) + " (step " + std::to_string(e.step) + ", micro-batch " +
                    std::to_string(e.micro) + ") has no matching send";
    }
  }
  // A send never received does not hold the replay up, but it marks where a
  // receiver stopped recording.
  for (const auto& [key, task] : sends) {
    Task& t = g.tasks[static_cast<std::size_t>(task)];
    const Event& e = trace.events[static_cast<std::size_t>(t.event)];
    g.unreceived.push_back({t.t0, "rank " + std::to_string(e.peer) + " never received the message rank " +
                                      std::to_string(e.rank) + " sent it in step " + std::to_string(e.step) +
                                      " (micro-batch " + std::to_string(e.micro) + ")"});
  }
  shortestTimes(trace, g);
  measuredTransfers(g);
  return g;
}

// Replays the graph: every task starts when its dependencies have ended (a collective
// when all its participants can start), and lasts `cost` (compute: its measured time).
// A task that waits on something the trace lacks never runs, nor does anything after it.
template <typename Cost>
std::vector<std::pair<std::int64_t, std::int64_t>> schedule(const Graph& g, Cost cost) {
  const auto n = g.tasks.size();
  std::vector<std::pair<std::int64_t, std::int64_t>> when(n, {-1, -1});
  std::vector<std::int32_t> pending(n, 0), offsets(n + 1, 0), successors;
  for (std::size_t i = 0; i < n; ++i) {
    const Task& t = g.tasks[i];
    pending[i] = t.missing.empty() ? 0 : 1;
    for (auto d : t.deps)
      if (d >= 0) {
        ++pending[i];
        ++offsets[static_cast<std::size_t>(d) + 1];
      }
  }
  for (std::size_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
  successors.resize(static_cast<std::size_t>(offsets[n]));
  {
    std::vector<std::int32_t> fill(offsets.begin(), offsets.end() - 1);
    for (std::size_t i = 0; i < n; ++i)
      for (auto d : g.tasks[i].deps)
        if (d >= 0) successors[static_cast<std::size_t>(fill[static_cast<std::size_t>(d)]++)] = static_cast<std::int32_t>(i);
  }
  std::vector<std::int64_t> ready(n, 0);
  std::vector<std::int32_t> arrived(g.groups.size(), 0);
  std::vector<std::int64_t> groupReady(g.groups.size(), 0);
  std::deque<std::int32_t> queue;
  for (std::size_t i = 0; i < n; ++i)
    if (pending[i] == 0) queue.push_back(static_cast<std::int32_t>(i));
  const auto finish = [&](std::int32_t task, std::int64_t start) {
    const auto i = static_cast<std::size_t>(task);
    when[i] = {start, start + cost(g.tasks[i])};
    for (auto k = offsets[i]; k < offsets[i + 1]; ++k) {
      const auto s = static_cast<std::size_t>(successors[static_cast<std::size_t>(k)]);
      ready[s] = std::max(ready[s], when[i].second);
      if (--pending[s] == 0) queue.push_back(static_cast<std::int32_t>(s));
    }
  };
  while (!queue.empty()) {
    const auto task = queue.front();
    queue.pop_front();
    const Task& t = g.tasks[static_cast<std::size_t>(task)];
    if (t.group < 0) {
      finish(task, ready[static_cast<std::size_t>(task)]);
      continue;
    }
    const auto grp = static_cast<std::size_t>(t.group);
    groupReady[grp] = std::max(groupReady[grp], ready[static_cast<std::size_t>(task)]);
    if (++arrived[grp] == static_cast<std::int32_t>(g.groups[grp].size()))
      for (auto member : g.groups[grp]) finish(member, groupReady[grp]);
  }
  return when;
}

// The fit's samples: every collective once and every message once, at their measured
// duration (measuredTransfers).
std::map<std::string, AlphaBeta> fitCommunication(const Trace& trace, const Graph& g) {
  std::map<std::string, std::vector<std::pair<double, double>>> samples; // bytes, seconds
  for (const auto& members : g.groups) {
    const Task& t = g.tasks[static_cast<std::size_t>(members[0])];
    const Event& e = trace.events[static_cast<std::size_t>(t.event)];
    samples[std::string(toString(e.kind))].emplace_back(static_cast<double>(e.bytes), static_cast<double>(t.transfer) * 1e-9);
  }
  for (const Task& t : g.tasks) {
    if (t.comm || t.deps[2] < 0) continue;
    const Task& send = g.tasks[static_cast<std::size_t>(t.deps[2])];
    samples["send"].emplace_back(static_cast<double>(trace.events[static_cast<std::size_t>(t.event)].bytes),
                                 static_cast<double>(send.transfer) * 1e-9);
  }
  std::map<std::string, AlphaBeta> fits;
  for (const auto& [kind, xy] : samples) {
    // Least squares of seconds = alpha + bytes * beta; one size only (or a negative
    // slope) gives beta 0 and the mean; a negative intercept gives the line through 0.
    double n = static_cast<double>(xy.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& [x, y] : xy) {
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    AlphaBeta f;
    f.samples = static_cast<int>(xy.size());
    const double det = n * sxx - sx * sx;
    if (det > 1e-9 * n * sxx) {
      f.betaSPerByte = (n * sxy - sx * sy) / det;
      f.alphaS = (sy - f.betaSPerByte * sx) / n;
    }
    if (f.betaSPerByte <= 0.0) {
      f.betaSPerByte = 0.0;
      f.alphaS = sy / n;
    } else if (f.alphaS < 0.0) {
      f.alphaS = 0.0;
      f.betaSPerByte = sxy / sxx;
    }
    fits[kind] = f;
  }
  return fits;
}

// Seconds a transfer takes on the reference interconnect under a ring algorithm
// (Hockney's model as nccl-tests' bus bandwidth counts it, docs/replay.md).
double referenceSeconds(const Event& e) {
  const double n = std::max(1, std::popcount(e.participants));
  const double bytes = static_cast<double>(e.bytes);
  const auto& ic = kReferenceInterconnect;
  switch (e.kind) {
  case Kind::AllReduce: return 2 * (n - 1) * ic.latencyS + 2 * (n - 1) / n * bytes / ic.bandwidthBytesPerS;
  case Kind::AllGather:
  case Kind::ReduceScatter: return (n - 1) * ic.latencyS + (n - 1) / n * bytes / ic.bandwidthBytesPerS;
  default: return ic.latencyS + bytes / ic.bandwidthBytesPerS; // send, broadcast
  }
}

// Where a cut-short replay stopped: the earliest task the trace lacks something for.
std::optional<std::string> stoppedAt(const Trace& trace, const Graph& g,
                                     const std::vector<std::pair<std::int64_t, std::int64_t>>& when) {
  const Task* first = nullptr;
  for (const Task& t : g.tasks)
    if (!t.missing.empty() && (!first || t.t0 < first->t0)) first = &t;
  const auto unreceived = std::min_element(g.unreceived.begin(), g.unreceived.end());
  if (unreceived != g.unreceived.end() && (!first || unreceived->first < first->t0))
    return "replayed up to the cut: " + unreceived->second;
  if (first) {
    const Event& e = trace.events[static_cast<std::size_t>(first->event)];
    return "replayed up to rank " + std::to_string(first->rank) + ", step " + std::to_string(e.step) + ": " +
           first->missing;
  }
  for (std::size_t i = 0; i < g.tasks.size(); ++i)
    if (when[i].first < 0) return "rank " + std::to_string(g.tasks[i].rank) + ": a task never became ready";
  // Everything matched, but a rank that wrote no end record was cut off at a step end.
  std::string unended;
  for (std::size_t r = 0; r < g.marks.size(); ++r) {
    int lastStep = -1;
    bool ended = false;
    for (const auto& mark : g.marks[r]) {
      const Event& e = trace.events[static_cast<std::size_t>(mark.event)];
      if (e.record == Record::End) ended = true;
      else lastStep = std::max(lastStep, e.step);
    }
    if (!ended && !g.computeOrder[r].empty())
      unended += (unended.empty() ? "" : ", ") + ("rank " + std::to_string(r)) + " (after " +
                 (lastStep < 0 ? std::string("no step") : "step " + std::to_string(lastStep)) + ")";
  }
  if (unended.empty()) return std::nullopt;
  return "replayed to the end of the trace; no end record from " + unended;
}

Kind waitKindBefore(const Trace& trace, const Graph& g, const std::vector<std::int32_t>& order, std::size_t k) {
  const Event& e = trace.events[static_cast<std::size_t>(g.tasks[static_cast<std::size_t>(order[k])].event)];
  if (e.record != Record::Collective) return Kind::WaitCollective;
  if (k + 1 < order.size() &&
      isBackward(trace.events[static_cast<std::size_t>(g.tasks[static_cast<std::size_t>(order[k + 1])].event)].kind))
    return Kind::WaitGradient;
  return Kind::WaitActivation;
}

struct ReplayRun {
  Trace trace;
  std::optional<std::string> stoppedAt;
};

// What a replay gives each task: ops their fastest time (the public modes) or their
// own CPU or wall time (the breakdown's later replays); transfers nothing, the fitted
// model, the reference interconnect, or their own measured duration.
enum class OpTime : std::uint8_t { Fastest, OwnCpu, OwnWall };
enum class TransferTime : std::uint8_t { Free, Fitted, Reference, Measured };

ReplayRun runCosts(const Trace& measured, const Graph& g, OpTime opTime, TransferTime transferTime,
                   const std::map<std::string, AlphaBeta>& fits, nlohmann::json replayTag) {
  const auto cost = [&](const Task& t) -> std::int64_t {
    const Event& e = measured.events[static_cast<std::size_t>(t.event)];
    if (!t.comm) { // a receive's transfer is its send's; measured, its copy is its own
      if (e.record != Record::Op) return transferTime == TransferTime::Measured ? t.t1 - t.t0 : t.work;
      switch (opTime) {
      case OpTime::Fastest: return t.work;
      case OpTime::OwnCpu: return t.cpu;
      // A thread's CPU time can read a little above its wall time (two clocks, each with its
      // own tick): an op's wall time is at least its CPU time, so no core wait comes out negative.
      case OpTime::OwnWall: return std::max<std::int64_t>(t.t1 - t.t0, t.cpu);
      }
    }
    double seconds = 0.0;
    switch (transferTime) {
    case TransferTime::Free: break;
    case TransferTime::Fitted:
      if (const auto it = fits.find(std::string(toString(e.kind))); it != fits.end())
        seconds = it->second.alphaS + static_cast<double>(e.bytes) * it->second.betaSPerByte;
      break;
    case TransferTime::Reference: seconds = referenceSeconds(e); break;
    case TransferTime::Measured: return t.transfer;
    }
    return static_cast<std::int64_t>(std::llround(seconds * 1e9));
  };
  const auto when = schedule(g, cost);

  ReplayRun run;
  Trace& out = run.trace;
  out.version = measured.version;
  // The replayed trace's record is the measured one with the replay's tag.
  out.job = measured.job ? *measured.job : JobRecord{};
  if (!out.job->written.is_object()) out.job->written = nlohmann::json::object();
  out.job->written["replay"] = std::move(replayTag);
  out.units = measured.units;
  out.ranks = measured.ranks;
  out.texts = measured.texts;
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    if (when[i].first < 0) continue;
    Event e = measured.events[static_cast<std::size_t>(g.tasks[i].event)];
    e.t0 = when[i].first;
    e.t1 = when[i].second;
    if (e.record == Record::Op && e.cpuNs >= 0) e.cpuNs = e.t1 - e.t0; // a replayed op has its core
    out.events.push_back(e);
  }
  // Memory, out-of-memory and failure records move with their rank's compute stream:
  // inside a task, to the same share of its replayed time; between tasks, to the end
  // of the one before. After the cut they are dropped with everything else.
  for (const Event& m : measured.events) {
    if (m.record != Record::Memory && m.record != Record::DeviceMemory && m.record != Record::OutOfMemory &&
        m.record != Record::Failure)
      continue;
    if (static_cast<std::size_t>(m.rank) >= g.computeOrder.size()) continue;
    const auto& order = g.computeOrder[static_cast<std::size_t>(m.rank)];
    const auto after = std::upper_bound(order.begin(), order.end(), m.t0, [&](std::int64_t t, std::int32_t task) {
      return t < g.tasks[static_cast<std::size_t>(task)].t0;
    });
    Event e = m;
    if (after == order.begin()) {
      e.t0 = e.t1 = 0;
    } else {
      const auto k = static_cast<std::size_t>(*(after - 1));
      if (when[k].first < 0) continue;
      const Task& t = g.tasks[k];
      const double share = t.t1 > t.t0 ? std::clamp(static_cast<double>(m.t0 - t.t0) / static_cast<double>(t.t1 - t.t0), 0.0, 1.0) : 1.0;
      e.t0 = e.t1 = when[k].first + std::llround(share * static_cast<double>(when[k].second - when[k].first));
    }
    out.events.push_back(e);
  }
  for (std::size_t r = 0; r < g.computeOrder.size(); ++r) {
    const auto& order = g.computeOrder[r];
    std::int64_t free = 0; // when the compute stream was last free
    std::size_t done = 0;
    for (; done < order.size(); ++done) {
      const auto task = static_cast<std::size_t>(order[done]);
      if (when[task].first < 0) break;
      if (when[task].first > free) {
        const Event& next = measured.events[static_cast<std::size_t>(g.tasks[task].event)];
        Event idle;
        idle.record = Record::Idle;
        idle.kind = waitKindBefore(measured, g, order, done);
        idle.rank = static_cast<std::int32_t>(r);
        idle.step = next.step;
        idle.micro = next.micro;
        idle.t0 = free;
        idle.t1 = when[task].first;
        out.events.push_back(idle);
      }
      free = when[task].second;
    }
    for (const auto& mark : g.marks[r]) {
      if (mark.after > done) break;
      Event e = measured.events[static_cast<std::size_t>(mark.event)];
      e.t0 = e.t1 = mark.after == 0 ? 0 : when[static_cast<std::size_t>(order[mark.after - 1])].second;
      out.events.push_back(e);
    }
  }
  std::stable_sort(out.events.begin(), out.events.end(), [](const Event& a, const Event& b) { return a.t0 < b.t0; });
  run.stoppedAt = stoppedAt(measured, g, when);
  return run;
}

ReplayRun runMode(const Trace& measured, const Graph& g, ReplayMode mode,
                  const std::map<std::string, AlphaBeta>& fits) {
  const TransferTime transfer = mode == ReplayMode::ScheduleAlone ? TransferTime::Free
                                : mode == ReplayMode::Fitted      ? TransferTime::Fitted
                                                                  : TransferTime::Reference;
  nlohmann::json tag = {{"mode", std::string(toString(mode))},
                        {"compute", std::string(g.timesNote())},
                        {"communication", mode == ReplayMode::ScheduleAlone ? "free"
                                          : mode == ReplayMode::Fitted      ? "alpha + bytes * beta fitted to this run"
                                                                            : std::string(kReferenceInterconnect.name)}};
  return runCosts(measured, g, OpTime::Fastest, transfer, fits, std::move(tag));
}

// The breakdown's chain of replays (see BubbleBreakdown). Each replay is summarised
// as the measured trace is, so the stage time S and the op time U are counted over
// the same steady steps.
std::optional<BubbleBreakdown> breakdownOf(const Trace& measured, const Graph& g,
                                           const std::map<std::string, AlphaBeta>& fits) {
  const Summary m = summarizeMeasured(measured);
  if (!m.bubble.present || m.bubble.stageS <= 0.0) return std::nullopt;
  const auto summaryOf = [&](OpTime ops, TransferTime transfers) {
    return summarizeMeasured(runCosts(measured, g, ops, transfers, fits, {{"mode", "breakdown"}}).trace).bubble;
  };
  const BubbleSummary schedule = summaryOf(OpTime::Fastest, TransferTime::Free);
  const BubbleSummary handoffs = summaryOf(OpTime::Fastest, TransferTime::Measured);
  const BubbleSummary own = summaryOf(OpTime::OwnCpu, TransferTime::Measured);
  const BubbleSummary wall = g.cpuTimes ? summaryOf(OpTime::OwnWall, TransferTime::Measured) : own;
  const double U = schedule.opS;
  const double S = m.bubble.stageS;
  if (U <= 0.0 || schedule.stageS <= 0.0 || handoffs.stageS <= 0.0 || own.stageS <= 0.0 || wall.stageS <= 0.0)
    return std::nullopt;
  BubbleBreakdown b;
  b.cpuTimes = g.cpuTimes;
  b.measured = m.bubble.measured;
  b.theory = m.bubble.theory;
  b.scheduleAlone = schedule.measured;
  b.scheduleAsRun = schedule.measured - m.bubble.theory;
  b.handoffs = handoffs.measured - schedule.measured;
  b.slowerOps = own.measured - handoffs.measured;
  b.coreWaits = wall.measured - own.measured;
  b.unexplained = m.bubble.measured - wall.measured;
  b.notComputing = 1.0 - U / S;
  b.opsAboveFastest = (m.bubble.opS - U) / S;
  b.untracked = b.notComputing - b.measured - b.opsAboveFastest;
  return b;
}

ReplayResult resultOf(const Trace& replayed, ReplayMode mode) {
  ReplayResult result;
  result.mode = mode;
  const Summary s = summarizeMeasured(replayed);
  for (const auto& r : s.ranksDetail) result.exposedCommS += r.exposedCommS;
  if (!s.ranksDetail.empty()) result.exposedCommS /= static_cast<double>(s.ranksDetail.size());
  if (s.bubble.present) result.bubble = s.bubble.measured;
  result.stepS = s.stepTimeS;
  return result;
}

} // namespace

ReplayResult measureTimes(const Trace& trace) { return resultOf(trace, ReplayMode::ScheduleAlone); }

Trace replayedTrace(const Trace& measured, ReplayMode mode, ReplayReport* report) {
  const Graph g = buildGraph(measured);
  const auto fits = fitCommunication(measured, g);
  ReplayRun run = runMode(measured, g, mode, fits);
  if (report) {
    report->present = !g.tasks.empty();
    report->timesNote = g.timesNote();
    report->stoppedAt = run.stoppedAt;
    report->fitted = fits;
    report->results = {resultOf(run.trace, mode)};
  }
  return std::move(run.trace);
}

std::optional<std::string> notReplayable(const Trace& measured) {
  if (!measured.job || !measured.job->imported) return std::nullopt;
  return "not replayed: a trace imported from a PyTorch profiler trace records no wait for a collective, its ops "
         "are many different aten ops that the replay would all cost as the fastest of their unit, and the time "
         "between them is in no record; a replay would not be this run";
}

ReplayReport replayReport(const Trace& measured) {
  ReplayReport report;
  if (auto why = notReplayable(measured)) {
    report.notReplayed = std::move(*why);
    return report;
  }
  const Graph g = buildGraph(measured);
  report.present = !g.tasks.empty();
  if (!report.present) return report;
  report.timesNote = g.timesNote();
  report.fitted = fitCommunication(measured, g);
  for (auto mode : kReplayModes) {
    ReplayRun run = runMode(measured, g, mode, report.fitted);
    report.stoppedAt = run.stoppedAt;
    report.results.push_back(resultOf(run.trace, mode));
  }
  report.breakdown = breakdownOf(measured, g, report.fitted);
  return report;
}

std::optional<BubbleBreakdown> bubbleBreakdown(const Trace& measured) {
  if (notReplayable(measured)) return std::nullopt;
  const Graph g = buildGraph(measured);
  if (g.tasks.empty()) return std::nullopt;
  return breakdownOf(measured, g, fitCommunication(measured, g));
}

} // namespace shardlab::trace
