#include "trace/ChromeTrace.h"

namespace shardlab::trace {
namespace {

constexpr int kComputeThread = 1;
constexpr int kCommThread = 2;
constexpr int kIdleThread = 3;

double micros(std::int64_t ns) { return static_cast<double>(ns) / 1000.0; }

} // namespace

void writeChromeTrace(const Trace& trace, std::ostream& out) {
  using nlohmann::json;
  out << "{\"displayTimeUnit\":\"ms\",\"otherData\":" << json{{"job", trace.job ? trace.job->written : json()}}.dump() << ",\"traceEvents\":[\n";
  bool first = true;
  auto emit = [&](const json& e) {
    if (!first) out << ",\n";
    first = false;
    out << e.dump();
  };

  int ranks = trace.rankCount();
  for (const auto& e : trace.events) ranks = std::max(ranks, e.rank + 1);
  for (int r = 0; r < ranks; ++r) {
    std::string device = "CPU rank";
    if (const auto* info = trace.rankInfo(r); info && info->meta.is_object() && info->meta.contains("device_name"))
      device = info->meta["device_name"].get<std::string>();
    emit({{"ph", "M"}, {"pid", r}, {"name", "process_name"}, {"args", {{"name", "rank " + std::to_string(r) + " (" + device + ")"}}}});
    emit({{"ph", "M"}, {"pid", r}, {"tid", kComputeThread}, {"name", "thread_name"}, {"args", {{"name", "compute"}}}});
    emit({{"ph", "M"}, {"pid", r}, {"tid", kCommThread}, {"name", "thread_name"}, {"args", {{"name", "communication"}}}});
    emit({{"ph", "M"}, {"pid", r}, {"tid", kIdleThread}, {"name", "thread_name"}, {"args", {{"name", "idle"}}}});
  }

  for (const auto& e : trace.events) {
    const std::string unit = trace.unitName(e.unit);
    switch (e.record) {
    case Record::Op:
    case Record::Collective:
    case Record::Idle: {
      json args = {{"unit", unit}, {"step", e.step}};
      if (e.micro >= 0) args["micro_batch"] = e.micro;
      if (e.recompute) args["recompute"] = true;
      if (e.record == Record::Collective) {
        args["bytes"] = e.bytes;
        if (e.peer >= 0) args["peer"] = e.peer;
        args["communicator"] = std::string(toString(e.group));
      }
      std::string name(e.recompute ? "recompute" : toString(e.kind));
      if (unit != "-") name += " " + unit;
      if (e.micro >= 0) name += " mb" + std::to_string(e.micro);
      const int tid = e.record == Record::Op ? kComputeThread : e.record == Record::Collective ? kCommThread : kIdleThread;
      emit({{"ph", "X"}, {"pid", e.rank}, {"tid", tid}, {"ts", micros(e.t0)}, {"dur", micros(e.t1 - e.t0)},
            {"name", name}, {"cat", std::string(toString(e.record))}, {"args", args}});
      break;
    }
    case Record::Memory:
      emit({{"ph", "C"}, {"pid", e.rank}, {"ts", micros(e.t0)}, {"name", "memory " + std::string(toString(e.category))},
            {"args", {{"bytes", e.value}}}});
      break;
    case Record::Step:
      emit({{"ph", "i"}, {"pid", e.rank}, {"tid", kComputeThread}, {"ts", micros(e.t0)}, {"s", "p"},
            {"name", "step " + std::to_string(e.step) + " end"}, {"args", {{"loss_sum", e.loss}, {"tokens", e.value}}}});
      break;
    case Record::OutOfMemory:
    case Record::Failure:
      emit({{"ph", "i"}, {"pid", e.rank}, {"tid", kComputeThread}, {"ts", micros(e.t0)}, {"s", "g"},
            {"name", e.record == Record::OutOfMemory ? "out of memory" : "failure"}});
      break;
    case Record::DeviceMemory:
      emit({{"ph", "C"}, {"pid", e.rank}, {"ts", micros(e.t0)}, {"name", "device memory free"}, {"args", {{"bytes", e.value}}}});
      break;
    case Record::End: break;
    case Record::Flight: break; // the calls themselves are there as coll records; the dump is for hangReport()
    }
  }
  out << "\n]}\n";
}

} // namespace shardlab::trace
