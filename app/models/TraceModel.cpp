#include "models/TraceModel.h"

#include "trace/ChromeTrace.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSet>

#include <algorithm>
#include <array>
#include <fstream>
#include <functional>
#include <map>

namespace shardlab::app {

namespace st = shardlab::trace;

TraceModel::TraceModel(QObject* parent) : QObject(parent) { clear(); }

void TraceModel::clear() {
  trace_ = std::make_unique<st::Trace>();
  parser_ = std::make_unique<st::TraceParser>(*trace_);
  measured_.reset();
  replayMode_.reset();
  breakdown_.reset();
  breakdownAt_ = -1;
  reindex();
  Q_EMIT reset();
}

void TraceModel::reindex() {
  ranks_.clear();
  eventStarts_.clear();
  collStarts_.clear();
  phaseStarts_.clear();
  summary_.reset();
  summaryAt_ = -1;
  tMin_ = INT64_MAX;
  tMax_ = 0;
  peakBytes_ = 0;
  stepsDone_ = 0;
  failures_.clear();
  flights_.clear();
  endingAt_ = -1;
  parseError_.clear();
  config_.reset();
  updateJob();
  ++generation_;
}

void TraceModel::showReplay(std::optional<st::ReplayMode> mode) {
  if (mode == replayMode_) return;
  if (mode && st::notReplayable(measured())) return; // an imported trace: the measured run stays
  const QString parseError = parseError_;
  if (!mode) {
    trace_ = std::move(measured_);
  } else {
    if (!measured_) measured_ = std::move(trace_);
    trace_ = std::make_unique<st::Trace>(st::replayedTrace(*measured_, *mode));
  }
  replayMode_ = mode;
  parser_ = std::make_unique<st::TraceParser>(*trace_);
  reindex();
  index(0);
  parseError_ = parseError;
  Q_EMIT reset();
}

const std::optional<st::BubbleBreakdown>& TraceModel::breakdown(int maxAgeMs) const {
  const int count = static_cast<int>(measured().events.size());
  if (breakdownAt_ == count) return breakdown_;
  if (breakdownAt_ >= 0 && breakdownAge_.isValid() && breakdownAge_.elapsed() < maxAgeMs) return breakdown_;
  breakdown_ = st::bubbleBreakdown(measured());
  breakdownAt_ = count;
  breakdownAge_.start();
  return breakdown_;
}

bool TraceModel::writeChromeTrace(const QString& path) const {
  std::ofstream out(path.toStdString());
  if (out) shardlab::trace::writeChromeTrace(trace(), out);
  return static_cast<bool>(out);
}

QString TraceModel::loadFile(const QString& path) {
  auto result = st::readTraceFile(QFileInfo(path).absoluteFilePath().toStdString());
  QString error;
  if (result.error) {
    if (result.error->line == 0)
      error = tr("Cannot open %1: the file does not exist or is not readable.").arg(path);
    else
      error = tr("%1, line %2: %3.%4")
                  .arg(QFileInfo(path).fileName())
                  .arg(result.error->line)
                  .arg(QString::fromStdString(result.error->message))
                  .arg(result.trace.events.empty()
                           ? QString()
                           : tr(" The %n event(s) before it are shown.", nullptr,
                                static_cast<int>(result.trace.events.size())));
  }
  setTrace(std::move(result.trace));
  parseError_ = error;
  return error;
}

void TraceModel::setTrace(st::Trace trace) {
  clear();
  *trace_ = std::move(trace);
  // The parser continues after the loaded lines (nothing more is expected).
  index(0);
  Q_EMIT reset();
}

int TraceModel::appendLines(const QList<QByteArray>& lines) {
  const int before = eventCount();
  const bool hadMeta = trace_->job.has_value();
  const auto ranksBefore = trace_->ranks.size();
  int errors = 0;
  for (const auto& line : lines) {
    if (auto err = parser_->parseLine(std::string_view(line.constData(), static_cast<std::size_t>(line.size())))) {
      if (errors++ == 0 && parseError_.isEmpty())
        parseError_ = tr("stream line %1: %2").arg(parser_->linesRead()).arg(QString::fromStdString(*err));
    }
  }
  if (eventCount() != before || hadMeta != trace_->job.has_value() || ranksBefore != trace_->ranks.size()) {
    index(before);
    Q_EMIT appended();
  }
  return errors;
}

void TraceModel::ensureRank(int rank) {
  if (rank >= 0 && static_cast<std::size_t>(rank) >= ranks_.size()) ranks_.resize(static_cast<std::size_t>(rank) + 1);
}

namespace {
// Sorts the entries appended since `oldSize` and merges them into the sorted prefix.
// Traces arrive in time order per rank with ranks interleaved, so the tail is nearly
// sorted and overlaps only the last few entries of the prefix: O(batch) per batch,
// never a re-sort of everything ingested so far.
template <class T, class Less>
std::size_t mergeTail(std::vector<T>& v, std::size_t oldSize, Less less) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(oldSize);
  if (!std::is_sorted(mid, v.end(), less)) std::sort(mid, v.end(), less);
  if (oldSize == 0 || mid == v.end() || !less(*mid, *(mid - 1))) return oldSize;
  const auto p = std::upper_bound(v.begin(), mid, *mid, less);
  std::inplace_merge(p, mid, v.end(), less);
  return static_cast<std::size_t>(p - v.begin());
}
} // namespace

void TraceModel::sortLaneTail(RankIndex& ri, int l, std::size_t oldSize) {
  auto& v = ri.lanes[l];
  if (v.size() == oldSize) return;
  const auto& events = trace_->events;
  // Start time, then file order: the order a stable sort by start gives.
  const auto from = mergeTail(v, oldSize, [&events](int a, int b) {
    const auto ta = events[static_cast<std::size_t>(a)].t0, tb = events[static_cast<std::size_t>(b)].t0;
    return ta != tb ? ta < tb : a < b;
  });
  auto& starts = ri.starts[l];
  auto& maxEnd = ri.maxEnd[l];
  starts.resize(v.size());
  maxEnd.resize(v.size());
  qint64 running = from > 0 ? maxEnd[from - 1] : INT64_MIN;
  for (std::size_t k = from; k < v.size(); ++k) {
    const auto& e = events[static_cast<std::size_t>(v[k])];
    starts[k] = e.t0;
    running = std::max<qint64>(running, e.t1);
    maxEnd[k] = running;
  }
}

void TraceModel::index(int from) {
  ++generation_;
  updateJob();
  ensureRank(rankCount() - 1);
  std::vector<std::array<std::size_t, 3>> laneSizes(ranks_.size());
  for (std::size_t r = 0; r < ranks_.size(); ++r)
    for (int l = 0; l < 3; ++l) laneSizes[r][static_cast<std::size_t>(l)] = ranks_[r].lanes[l].size();
  const std::size_t eventsBefore = eventStarts_.size(), collBefore = collStarts_.size(), phaseBefore = phaseStarts_.size();
  for (int i = from; i < eventCount(); ++i) {
    const auto& e = trace_->events[static_cast<std::size_t>(i)];
    ensureRank(e.rank);
    auto& ri = ranks_[static_cast<std::size_t>(e.rank)];
    tMin_ = std::min<qint64>(tMin_, e.t0);
    tMax_ = std::max<qint64>(tMax_, e.t1);
    switch (e.record) {
    case st::Record::Op:
      ri.lanes[0].push_back(i);
      eventStarts_.push_back(e.t0);
      if (e.kind != ri.lastCompute) {
        phaseStarts_.push_back(e.t0);
        ri.lastCompute = e.kind;
      }
      break;
    case st::Record::Collective:
      ri.lanes[1].push_back(i);
      eventStarts_.push_back(e.t0);
      collStarts_.push_back(e.t0);
      break;
    case st::Record::Idle:
      ri.lanes[2].push_back(i);
      eventStarts_.push_back(e.t0);
      break;
    case st::Record::Memory:
      ri.memory.push_back(i);
      ri.peak = std::max<qint64>(ri.peak, e.total);
      peakBytes_ = std::max<qint64>(peakBytes_, e.total);
      break;
    case st::Record::Step:
      stepsDone_ = std::max(stepsDone_, e.step + 1);
      phaseStarts_.push_back(e.t0);
      ri.lastCompute = st::Kind::None;
      break;
    case st::Record::OutOfMemory:
    case st::Record::Failure:
      failures_.push_back(i);
      eventStarts_.push_back(e.t0);
      break;
    case st::Record::Flight: flights_.push_back(i); break;
    default: break;
    }
  }
  laneSizes.resize(ranks_.size(), {0, 0, 0});
  for (std::size_t r = 0; r < ranks_.size(); ++r)
    for (int l = 0; l < 3; ++l) sortLaneTail(ranks_[r], l, laneSizes[r][static_cast<std::size_t>(l)]);
  updateJob();
  mergeTail(eventStarts_, eventsBefore, std::less<qint64>());
  mergeTail(collStarts_, collBefore, std::less<qint64>());
  mergeTail(phaseStarts_, phaseBefore, std::less<qint64>());
}

const st::Summary& TraceModel::summary() const {
  if (!summary_ || summaryAt_ != eventCount()) {
    summary_ = std::make_unique<st::Summary>(st::summarizeMeasured(*trace_));
    summaryAt_ = eventCount();
  }
  return *summary_;
}

const RunEnding& TraceModel::ending() const {
  const int count = static_cast<int>(measured().events.size());
  if (endingAt_ != count) {
    // Painted many times a second while a run streams in: a run with neither a flight
    // nor a failure record ends as it goes, without reading it all again.
    const bool nothingToRead = !measured_ && flights_.empty() && failures_.empty();
    // A replay has no ending of its own: the measured run's would be drawn at times the
    // replay does not have.
    ending_ = nothingToRead || replayMode_ ? RunEnding() : RunEnding::of(measured());
    endingAt_ = count;
  }
  return ending_;
}

const st::Summary& TraceModel::recentSummary(int maxAgeMs) const {
  if (summary_ && summaryAt_ != eventCount() && summaryAge_.isValid() && summaryAge_.elapsed() < maxAgeMs) return *summary_;
  if (!summary_ || summaryAt_ != eventCount()) summaryAge_.start();
  return summary();
}

// Asked for all over every paint: the job record is read once, when it appears (it
// comes first in a trace and does not change), or dropped when the run is cleared.
void TraceModel::updateJob() {
  if (trace_->job.has_value() != config_.has_value()) config_ = trace_->config();
  rankCount_ = std::max(trace_->rankCount(), static_cast<int>(ranks_.size()));
}

static QString metaString(const nlohmann::json& meta, const char* key) {
  if (meta.is_object() && meta.contains(key) && meta[key].is_string()) return QString::fromStdString(meta[key].get<std::string>());
  if (meta.is_object() && meta.contains(key) && meta[key].is_number()) return QString::fromStdString(meta[key].dump());
  return {};
}

bool TraceModel::rankIsCpu(int rank) const {
  const auto* info = trace_->rankInfo(rank);
  if (!info || !info->meta.is_object()) {
    using shardlab::DeviceKind;
    return !config_ || (config_->device != DeviceKind::Cuda && config_->device != DeviceKind::CudaMpiStaged);
  }
  return metaString(info->meta, "device") != QLatin1String("cuda");
}

int TraceModel::slotCount() const {
  const int n = std::max(1, rankCount_);
  if (!config_ || config_->strategy != shardlab::StrategyKind::Fsdp) return n;
  const int degree = config_->shardDegree();
  return degree >= 1 && degree <= n && n % degree == 0 ? degree : n;
}

QString TraceModel::rankLabel(int rank) const {
  const auto* info = trace_->rankInfo(rank);
  if (rankIsCpu(rank)) return tr("CPU rank %1").arg(rank);
  if (imported()) return tr("GPU rank %1").arg(rank); // the profiler's trace does not name the GPU
  QString name = info ? metaString(info->meta, "device_name") : QString();
  return name.isEmpty() ? tr("GPU rank %1").arg(rank) : tr("GPU rank %1 · %2").arg(rank).arg(name);
}

QString TraceModel::runLabel() const {
  const int n = rankCount();
  if (n == 0) return tr("No run");
  if (imported()) {
    // Said on every view: not a ShardLab run; the device is what the profiler recorded.
    const bool gpu = trace_->job->config.device != shardlab::DeviceKind::Cpu;
    const QString ranks = gpu ? tr("%n GPU rank(s)", nullptr, n) : tr("%n CPU rank(s)", nullptr, n);
    const QString backend = QString::fromStdString(trace_->job->imported->backend);
    return backend.isEmpty() ? tr("Imported from a PyTorch profiler trace: %1").arg(ranks)
                             : tr("Imported from a PyTorch profiler trace: %1, %2 backend").arg(ranks, backend);
  }
  // Group ranks by what their rank records say they ran on.
  std::map<QString, int> groups;
  QString nccl;
  int unknown = 0;
  for (int r = 0; r < n; ++r) {
    const auto* info = trace_->rankInfo(r);
    if (!info || !info->meta.is_object()) {
      ++unknown;
      continue;
    }
    const auto& m = info->meta;
    if (metaString(m, "device") == QLatin1String("cuda")) {
      groups[metaString(m, "device_name").isEmpty() ? tr("GPU") : metaString(m, "device_name")] += 1;
      for (const char* key : {"nccl_version", "nccl"})
        if (!metaString(m, key).isEmpty()) nccl = metaString(m, key);
    } else {
      groups[QString()] += 1; // CPU
    }
  }
  QStringList parts;
  for (const auto& [name, count] : groups) {
    if (name.isEmpty()) {
      // The device_name of a CPU rank reads "CPU rank (Open MPI, shared memory)".
      QString how;
      for (int r = 0; r < n && how.isEmpty(); ++r)
        if (const auto* info = trace_->rankInfo(r); info && rankIsCpu(r)) {
          const auto dn = metaString(info->meta, "device_name");
          const auto open = dn.indexOf(QLatin1Char('('));
          if (open >= 0) how = dn.mid(open);
        }
      // The worker writes it in English (WorkerSetup); the words are the app's to translate.
      if (how == QLatin1String("(Open MPI, shared memory)")) how = tr("(Open MPI, shared memory)");
      // Where each rank bound itself to CPUs of its own (engine/comm/CorePlacement.h), say so:
      // it is why hand-offs cost microseconds here, and not when ranks share the cores.
      int bound = 0, single = 0;
      for (int r = 0; r < n; ++r)
        if (const auto* info = trace_->rankInfo(r); info && rankIsCpu(r) && info->meta.is_object() &&
                                                    info->meta.value("bound_to_cpus", false)) {
          ++bound;
          const auto cpus = info->meta.find("cpus");
          single += cpus != info->meta.end() && cpus->is_array() && cpus->size() == 1 ? 1 : 0;
        }
      QString placement;
      if (bound == count && count > 0)
        placement = single == count ? tr(", each on a core of its own") : tr(", each on CPUs of its own");
      parts << (tr("%n CPU rank(s)", nullptr, count) + (how.isEmpty() ? QString() : QLatin1Char(' ') + how) + placement);
    } else {
      parts << QStringLiteral("%1 × %2").arg(count).arg(name) +
                   (nccl.isEmpty() ? QString() : QStringLiteral(" (NCCL %1)").arg(nccl));
    }
  }
  if (parts.isEmpty()) return tr("%n rank(s), device not yet known", nullptr, n);
  if (unknown > 0) parts << tr("%n rank(s) not yet reported", nullptr, unknown);
  // A multi-host run (docs/multi-host.md) says across how many machines.
  QSet<QString> hosts;
  for (int r = 0; r < n; ++r)
    if (const auto* info = trace_->rankInfo(r); info && !metaString(info->meta, "host").isEmpty())
      hosts.insert(metaString(info->meta, "host"));
  if (hosts.size() > 1) parts << tr("on %n host(s)", nullptr, static_cast<int>(hosts.size()));
  const QString ran = parts.join(QStringLiteral(", "));
  return replayMode_ ? tr("REPLAY of this run (%1) — %2").arg(replayName(*replayMode_), ran) : ran;
}

QString TraceModel::replayName(st::ReplayMode mode) {
  switch (mode) {
  case st::ReplayMode::ScheduleAlone: return tr("schedule alone: communication free, each op at its fastest recorded time");
  case st::ReplayMode::Fitted: return tr("communication as fitted to this run");
  case st::ReplayMode::Reference:
    return tr("projected on %1, ops at their fastest recorded time")
        .arg(QString::fromUtf8(st::kReferenceInterconnect.name.data(),
                               static_cast<qsizetype>(st::kReferenceInterconnect.name.size())));
  }
  return {};
}

const std::vector<int>& TraceModel::lane(int rank, Lane l) const {
  static const std::vector<int> empty;
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size()) return empty;
  return ranks_[static_cast<std::size_t>(rank)].lanes[static_cast<int>(l)];
}

const std::vector<qint64>& TraceModel::laneStarts(int rank, Lane l) const {
  static const std::vector<qint64> empty;
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size()) return empty;
  return ranks_[static_cast<std::size_t>(rank)].starts[static_cast<int>(l)];
}

std::pair<std::size_t, std::size_t> TraceModel::laneRange(int rank, Lane l, qint64 t0, qint64 t1) const {
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size() || t1 < t0) return {0, 0};
  const auto& ri = ranks_[static_cast<std::size_t>(rank)];
  const auto& starts = ri.starts[static_cast<int>(l)];
  const auto& maxEnd = ri.maxEnd[static_cast<int>(l)];
  // Before `first` every block (and all blocks before it) ended before t0.
  const auto first = static_cast<std::size_t>(std::lower_bound(maxEnd.begin(), maxEnd.end(), t0) - maxEnd.begin());
  const auto last = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), t1) - starts.begin());
  return {first, std::max(first, last)};
}

const std::vector<int>& TraceModel::memoryRecords(int rank) const {
  static const std::vector<int> empty;
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size()) return empty;
  return ranks_[static_cast<std::size_t>(rank)].memory;
}

qint64 TraceModel::peakBytes(int rank) const {
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size()) return 0;
  return ranks_[static_cast<std::size_t>(rank)].peak;
}

const std::vector<qint64>& TraceModel::eventStarts() const { return eventStarts_; }
const std::vector<qint64>& TraceModel::collectiveStarts() const { return collStarts_; }
const std::vector<qint64>& TraceModel::phaseStarts() const { return phaseStarts_; }

} // namespace shardlab::app
