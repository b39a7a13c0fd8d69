#include "trace/PytorchTrace.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <istream>
#include <streambuf>
#include <unordered_map>

namespace shardlab::trace {
namespace {

namespace fs = std::filesystem;

// Reads a file through zlib: gzread reads a gzipped file and, transparently, a plain
// one. Past kMaxPytorchTraceBytes of uncompressed text it stops, so that neither a
// huge file nor a small gzip that inflates without end is read to the end.
class GzStreambuf : public std::streambuf {
public:
  explicit GzStreambuf(const std::string& path) : file_(gzopen(path.c_str(), "rb")) {
    if (file_) gzbuffer(file_, 1 << 17);
  }
  ~GzStreambuf() override {
    if (file_) gzclose(file_);
  }
  GzStreambuf(const GzStreambuf&) = delete;
  GzStreambuf& operator=(const GzStreambuf&) = delete;
  bool opened() const { return file_ != nullptr; }
  bool tooLarge() const { return tooLarge_; }
  bool damaged() const { return damaged_; }

protected:
  int_type underflow() override {
    if (!file_) return traits_type::eof();
    if (read_ >= kMaxPytorchTraceBytes) {
      tooLarge_ = true;
      return traits_type::eof();
    }
    const int n = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
    if (n < 0) damaged_ = true;
    if (n <= 0) return traits_type::eof();
    read_ += n;
    setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
    return traits_type::to_int_type(buffer_[0]);
  }

private:
  gzFile file_;
  std::array<char, 1 << 16> buffer_{};
  std::int64_t read_ = 0;
  bool tooLarge_ = false, damaged_ = false;
};

// One traceEvents entry, as much of it as the mapping reads. Names are interned: a
// large trace repeats a few hundred names many thousand times.
struct RawEvent {
  int name = 0;
  char ph = 0;
  std::string cat;
  std::string tid;      // a number or a label ("PyTorch Profiler"), kept as text
  double ts = 0, dur = 0; // microseconds, as Kineto writes them
  nlohmann::json args;  // kept only for the events whose arguments are read
};

struct RankFile {
  std::string file;
  nlohmann::json top = nlohmann::json::object(); // every top-level key but traceEvents
  std::vector<RawEvent> events;
  std::vector<std::string> names;
  int rank = 0, worldSize = 1;
  bool hasDistributedInfo = false;
};

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool argsNeeded(std::string_view name, std::string_view cat) {
  return startsWith(name, "c10d::") || name == "record_param_comms" || name == "[memory]" || cat == "kernel" ||
         cat == "cuda_runtime" || cat == "cuda_driver" || startsWith(name, "nccl:") || startsWith(name, "gloo:");
}

std::string tidText(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  return v.dump();
}

// Parses one file entry by entry: each traceEvents element is read, kept compact and
// discarded from the parser's tree, so memory follows the events kept, not the text.
std::optional<std::string> readRankFile(const std::string& path, RankFile& out) {
  out.file = path;
  GzStreambuf buf(path);
  if (!buf.opened()) return path + ": cannot open the file";
  std::istream in(&buf);
  std::unordered_map<std::string, int> lookup;
  std::string topKey;
  const auto keep = [&](const nlohmann::json& e) {
    if (!e.is_object()) return;
    RawEvent r;
    const auto name = e.contains("name") && e["name"].is_string() ? e["name"].get<std::string>() : std::string();
    auto [it, fresh] = lookup.try_emplace(name, static_cast<int>(out.names.size()));
    if (fresh) out.names.push_back(name);
    r.name = it->second;
    if (e.contains("ph") && e["ph"].is_string() && !e["ph"].get<std::string>().empty()) r.ph = e["ph"].get<std::string>()[0];
    if (e.contains("cat") && e["cat"].is_string()) r.cat = e["cat"].get<std::string>();
    if (e.contains("tid")) r.tid = tidText(e["tid"]);
    if (e.contains("ts") && e["ts"].is_number()) r.ts = e["ts"].get<double>();
    if (e.contains("dur") && e["dur"].is_number()) r.dur = std::max(0.0, e["dur"].get<double>());
    if (e.contains("args") && argsNeeded(name, r.cat)) r.args = e["args"];
    if (r.ph == 'M' && name == "thread_name") r.args = e.value("args", nlohmann::json());
    out.events.push_back(std::move(r));
  };
  nlohmann::json::parser_callback_t cb = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    if (depth == 1 && event == nlohmann::json::parse_event_t::key) topKey = parsed.get<std::string>();
    if (depth == 2 && event == nlohmann::json::parse_event_t::object_end && topKey == "traceEvents") {
      keep(parsed);
      return false; // processed: not kept in the tree
    }
    return true;
  };
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(in, cb);
  } catch (const nlohmann::json::exception& e) {
    if (buf.tooLarge())
      return path + ": larger than " + std::to_string(kMaxPytorchTraceBytes >> 20) +
             " MiB of JSON; refused (record fewer steps, or one rank per file)";
    if (buf.damaged()) return path + ": the gzip data is damaged";
    return path + ": not complete JSON (" + e.what() + ")";
  }
  if (!root.is_object()) return path + ": not a Chrome trace (the top level is not a JSON object)";
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it.key() != "traceEvents") out.top[it.key()] = it.value();
  const bool kineto = out.top.contains("schemaVersion") ||
                      std::any_of(out.events.begin(), out.events.end(),
                                  [](const RawEvent& e) { return e.cat == "cpu_op" || e.cat == "kernel"; });
  if (!kineto)
    return path + ": not a PyTorch profiler trace (no schemaVersion and no cpu_op or kernel events; "
                  "a Chrome trace of another program?)";
  if (out.top.contains("distributedInfo")) {
    const auto& d = out.top["distributedInfo"];
    if (!d.is_object() || !d.contains("rank") || !d.contains("world_size") || !d["rank"].is_number_integer() ||
        !d["world_size"].is_number_integer())
      return path + ": distributedInfo must have integer rank and world_size";
    out.worldSize = d["world_size"].get<int>();
    out.rank = d["rank"].get<int>();
    if (out.worldSize < 1 || out.worldSize > 64)
      return path + ": distributedInfo.world_size " + std::to_string(out.worldSize) + " is not between 1 and 64";
    if (out.rank < 0 || out.rank >= out.worldSize)
      return path + ": distributedInfo.rank " + std::to_string(out.rank) + " is not below world_size " +
             std::to_string(out.worldSize);
    out.hasDistributedInfo = true;
  }
  return std::nullopt;
}

std::int64_t dtypeBytes(std::string_view t) {
  static const std::map<std::string, std::int64_t, std::less<>> sizes = {
      {"float", 4},         {"Float", 4},        {"double", 8},      {"Double", 8},          {"c10::Half", 2},
      {"Half", 2},          {"c10::BFloat16", 2}, {"BFloat16", 2},    {"int", 4},             {"Int", 4},
      {"long int", 8},      {"Long", 8},          {"long", 8},        {"short int", 2},       {"Short", 2},
      {"signed char", 1},   {"Char", 1},          {"unsigned char", 1}, {"Byte", 1},          {"bool", 1},
      {"Bool", 1},          {"c10::Float8_e4m3fn", 1}, {"c10::Float8_e5m2", 1}, {"Float8_e4m3fn", 1}};
  const auto it = sizes.find(t);
  return it == sizes.end() ? 0 : it->second;
}

std::int64_t count(const nlohmann::json& v) {
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_string()) try {
      return std::stoll(v.get<std::string>());
    } catch (...) {
    }
  return 0;
}

// Elements of a shape ([2, 3]) or of a list of shapes ([[2, 3], [4]]).
std::int64_t elements(const nlohmann::json& dims) {
  if (!dims.is_array() || dims.empty()) return 0;
  if (dims[0].is_array()) {
    std::int64_t n = 0;
    for (const auto& d : dims) n += elements(d);
    return n;
  }
  std::int64_t n = 1;
  for (const auto& d : dims) n *= count(d);
  return n;
}

// A c10d dispatcher op's kind and which of its arguments is the full buffer (nccl-tests'
// size: the gathered output, the reduce-scatter's full input, the all-reduced buffer).
struct C10dOp {
  std::string_view name;
  Kind kind;
  int bufferArg;
};
constexpr std::array<C10dOp, 12> kC10dOps = {{{"allreduce_", Kind::AllReduce, 0},
                                              {"allreduce_coalesced_", Kind::AllReduce, 0},
                                              {"_allgather_base_", Kind::AllGather, 0},
                                              {"allgather_", Kind::AllGather, 0},
                                              {"allgather_into_tensor_coalesced_", Kind::AllGather, 0},
                                              {"_reduce_scatter_base_", Kind::ReduceScatter, 1},
                                              {"reduce_scatter_", Kind::ReduceScatter, 1},
                                              {"reduce_scatter_tensor_coalesced_", Kind::ReduceScatter, 1},
                                              {"broadcast_", Kind::Broadcast, 0},
                                              {"send", Kind::Send, 0},
                                              {"recv_", Kind::Recv, 0},
                                              {"recv_any_source_", Kind::Recv, 0}}};

const C10dOp* c10dOp(std::string_view name) {
  if (!startsWith(name, "c10d::")) return nullptr;
  name.remove_prefix(6);
  for (const auto& op : kC10dOps)
    if (op.name == name) return &op;
  return nullptr;
}

// record_param_comms' and NCCL kernels' "Collective name".
std::optional<Kind> collectiveNamed(std::string n) {
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  n.erase(std::remove(n.begin(), n.end(), '_'), n.end());
  if (n.find("allgather") != std::string::npos) return Kind::AllGather;
  if (n.find("reducescatter") != std::string::npos) return Kind::ReduceScatter;
  if (n.find("allreduce") != std::string::npos) return Kind::AllReduce;
  if (n.find("broadcast") != std::string::npos) return Kind::Broadcast;
  if (n == "send") return Kind::Send;
  if (n == "recv") return Kind::Recv;
  return std::nullopt;
}

// An NCCL kernel's kind from its name: ncclDevKernel_AllGather_RING_LL, ncclKernel_AllReduce_...
std::optional<Kind> ncclKernelKind(std::string_view name) {
  if (!startsWith(name, "ncclDevKernel_") && !startsWith(name, "ncclKernel_")) return std::nullopt;
  if (name.find("SendRecv") != std::string_view::npos) return Kind::None; // send or receive: the args tell
  return collectiveNamed(std::string(name.substr(name.find('_') + 1)));
}

// Bytes, participants and kind from record_param_comms-style arguments (also on NCCL
// kernels): "Collective name", "In msg nelems", "Out msg nelems", "dtype", "Process Group Ranks".
struct CommArgs {
  std::optional<Kind> kind;
  std::int64_t bytes = -1;
  RankMask participants = 0;
};

RankMask maskOf(const nlohmann::json& ranks) {
  nlohmann::json list = ranks;
  if (ranks.is_string()) list = nlohmann::json::parse(ranks.get<std::string>(), nullptr, false);
  RankMask m = 0;
  if (list.is_array())
    for (const auto& r : list)
      if (r.is_number_integer() && r.get<int>() >= 0 && r.get<int>() < 64) m |= RankMask{1} << r.get<int>();
  return m;
}

CommArgs commArgs(const nlohmann::json& a) {
  CommArgs c;
  if (!a.is_object()) return c;
  if (a.contains("Collective name") && a["Collective name"].is_string())
    c.kind = collectiveNamed(a["Collective name"].get<std::string>());
  const std::int64_t size = a.contains("dtype") && a["dtype"].is_string() ? dtypeBytes(a["dtype"].get<std::string>()) : 0;
  const std::int64_t in = a.contains("In msg nelems") ? count(a["In msg nelems"]) : 0;
  const std::int64_t out = a.contains("Out msg nelems") ? count(a["Out msg nelems"]) : 0;
  if (c.kind && size > 0) {
    const std::int64_t n = *c.kind == Kind::AllGather ? out : *c.kind == Kind::Recv ? std::max(in, out) : in;
    c.bytes = n * size;
  }
  if (a.contains("Process Group Ranks")) c.participants = maskOf(a["Process Group Ranks"]);
  return c;
}

// The FSDP unit a record_function name names: "FSDP::pre_forward (layers.0)",
// "FSDP::backward_prefetch for layers.1".
std::optional<std::string> fsdpUnit(std::string_view name) {
  if (!startsWith(name, "FSDP::")) return std::nullopt;
  const auto open = name.rfind(" (");
  if (open != std::string_view::npos && name.back() == ')') return std::string(name.substr(open + 2, name.size() - open - 3));
  const auto forPos = name.find(" for ");
  if (forPos != std::string_view::npos) return std::string(name.substr(forPos + 5));
  return std::nullopt;
}

bool backwardMarker(std::string_view name) {
  return startsWith(name, "autograd::engine::evaluate_function") ||
         (startsWith(name, "FSDP::") && name.find("backward") != std::string_view::npos);
}

struct Piece {
  Kind kind = Kind::Forward;
  std::string unit;
  int step = -1;
  double t0 = 0, t1 = 0;                  // microseconds
  std::vector<std::pair<double, double>> holes; // collectives issued inside it
};

struct Coll {
  Kind kind = Kind::None;
  std::string unit;
  int step = -1;
  double t0 = 0, t1 = 0;
  std::int64_t bytes = 0;
  RankMask participants = 0;
};

struct Mem {
  double t = 0;
  std::int64_t delta = 0, total = 0;
};

struct RankResult {
  std::vector<Piece> ops;
  std::vector<Coll> colls;
  std::vector<Mem> mem;
  std::vector<std::pair<double, double>> steps; // ProfilerStep intervals, in order
  std::vector<std::string> unitOrder;
  double first = INFINITY, last = -INFINITY;
};

class RankMapper {
public:
  RankMapper(const RankFile& f, ImportReport& report) : f_(f), report_(report) {}

  RankResult map() {
    const RankMask world = f_.worldSize >= 64 ? ~RankMask{0} : (RankMask{1} << f_.worldSize) - 1;
    world_ = world;
    findMainThread();
    gpu_ = std::any_of(f_.events.begin(), f_.events.end(), [](const RawEvent& e) { return e.cat == "kernel"; });
    if (gpu_) report_.gpu = true;
    for (const auto& e : f_.events)
      if (e.ph == 'X' && e.tid == mainTid_ && name(e).rfind("ProfilerStep#", 0) == 0) r_.steps.emplace_back(e.ts, e.ts + e.dur);
    std::sort(r_.steps.begin(), r_.steps.end());
    mapMainThread();
    mapOtherEvents();
    return std::move(r_);
  }

private:
  const std::string& name(const RawEvent& e) const { return f_.names[static_cast<std::size_t>(e.name)]; }
  void mapped() { ++report_.mapped; }
  void notMapped(const std::string& what, const std::string& why) { ++report_.notMapped[what + ": " + why]; }
  void seen(double t0, double t1) {
    r_.first = std::min(r_.first, t0);
    r_.last = std::max(r_.last, t1);
  }
  int stepAt(double t) const {
    for (std::size_t i = 0; i < r_.steps.size(); ++i)
      if (t >= r_.steps[i].first && t <= r_.steps[i].second) return static_cast<int>(i);
    return -1;
  }
  void noteUnit(const std::string& unit) {
    if (!unit.empty() && std::find(r_.unitOrder.begin(), r_.unitOrder.end(), unit) == r_.unitOrder.end())
      r_.unitOrder.push_back(unit);
  }

  // The thread that ran the profiled steps; without ProfilerStep ranges, the one with the most ops.
  void findMainThread() {
    std::map<std::string, long> ops;
    for (const auto& e : f_.events) {
      if (e.ph == 'X' && name(e).rfind("ProfilerStep#", 0) == 0) {
        mainTid_ = e.tid;
        return;
      }
      if (e.ph == 'X' && e.cat == "cpu_op") ++ops[e.tid];
    }
    long best = -1;
    for (const auto& [tid, n] : ops)
      if (n > best) best = n, mainTid_ = tid;
  }

  // Nesting on the main thread: ranges sorted by start (outer first), each under the
  // stack of those still open.
  void mapMainThread() {
    std::vector<const RawEvent*> ranges;
    for (const auto& e : f_.events)
      if (e.ph == 'X' && e.tid == mainTid_ && (e.cat == "cpu_op" || e.cat == "user_annotation" ||
                                               e.cat == "python_function" || e.cat == "gpu_user_annotation"))
        ranges.push_back(&e);
    std::stable_sort(ranges.begin(), ranges.end(), [](const RawEvent* a, const RawEvent* b) {
      return a->ts != b->ts ? a->ts < b->ts : a->dur > b->dur;
    });
    struct Open {
      const RawEvent* e;
      int piece = -1; // the op this range is, or is inside
      int coll = -1;  // the collective this range is, or is inside
    };
    std::vector<Open> stack;
    std::string currentUnit; // the unit FSDP last announced (pre_forward / pre_backward)
    int currentStep = -2;
    for (const RawEvent* e : ranges) {
      while (!stack.empty() && stack.back().e->ts + stack.back().e->dur <= e->ts) stack.pop_back();
      const std::string& n = name(*e);
      const int step = stepAt(e->ts);
      if (step != currentStep) currentStep = step, currentUnit.clear();
      int insidePiece = -1, insideColl = -1;
      std::string annotatedUnit;
      bool backward = backwardMarker(n), optimizer = false;
      for (const auto& o : stack) {
        if (o.piece >= 0) insidePiece = o.piece;
        if (o.coll >= 0) insideColl = o.coll;
        const std::string& on = name(*o.e);
        if (auto u = fsdpUnit(on)) annotatedUnit = *u;
        backward = backward || backwardMarker(on);
        optimizer = optimizer || startsWith(on, "Optimizer.step#");
      }
      Open open{e};
      if (startsWith(n, "ProfilerStep#")) {
        mapped();
      } else if (startsWith(n, "FSDP::")) {
        report_.strategy = "fsdp";
        if (auto u = fsdpUnit(n)) {
          noteUnit(*u);
          if (startsWith(n, "FSDP::pre_forward") || startsWith(n, "FSDP::pre_backward")) currentUnit = *u;
        }
        mapped();
      } else if (n == "DistributedDataParallel.forward") {
        if (report_.strategy.empty()) report_.strategy = "ddp";
        mapped();
      } else if (startsWith(n, "Optimizer.step#") || startsWith(n, "Optimizer.zero_grad#")) {
        mapped();
      } else if (insideColl >= 0) {
        // Inside a collective: the backend's own range, or record_param_comms with its sizes.
        if (n == "record_param_comms") refine(r_.colls[static_cast<std::size_t>(insideColl)], e->args);
        open.coll = insideColl;
        mapped();
      } else if (const C10dOp* op = c10dOp(n); op || n == "record_param_comms") {
        if (step < 0) {
          notMapped(n, "outside the profiled steps (no ProfilerStep range around it)");
        } else if (gpu_) {
          mapped(); // on a GPU trace the NCCL kernel is the collective; this is its launch
        } else {
          Coll c;
          c.kind = op ? op->kind : Kind::None;
          c.unit = annotatedUnit;
          c.step = step;
          c.t0 = e->ts;
          c.t1 = e->ts + e->dur;
          c.participants = world_;
          if (op && e->args.is_object() && e->args.contains("Input Dims") && e->args.contains("Input type")) {
            const auto& dims = e->args["Input Dims"];
            const auto& types = e->args["Input type"];
            const auto i = static_cast<std::size_t>(op->bufferArg);
            if (dims.is_array() && types.is_array() && i < dims.size() && i < types.size()) {
              std::int64_t size = types[i].is_string() ? dtypeBytes(types[i].get<std::string>()) : 0;
              if (size == 0 && types[i] == "TensorList") size = 4; // a list's element type is not written
              c.bytes = elements(dims[i]) * size;
            }
          }
          if (!op) refine(c, e->args);
          if (c.kind == Kind::None) {
            notMapped(n, "a collective whose kind is not written");
          } else {
            r_.colls.push_back(c);
            open.coll = static_cast<int>(r_.colls.size()) - 1;
            if (insidePiece >= 0) r_.ops[static_cast<std::size_t>(insidePiece)].holes.emplace_back(c.t0, c.t1);
            noteUnit(c.unit);
            seen(c.t0, c.t1);
            mapped();
          }
        }
      } else if (startsWith(n, "c10d::") && insidePiece < 0) {
        notMapped(n, "a process-group call ShardLab has no record for");
      } else if (insidePiece >= 0) {
        open.piece = insidePiece;
        mapped(); // part of the op around it
      } else if (e->cat == "cpu_op") {
        if (step < 0) {
          notMapped(n, "outside the profiled steps (no ProfilerStep range around it)");
        } else if (gpu_) {
          mapped(); // the kernels it launched are the compute
        } else {
          Piece p;
          p.kind = optimizer ? Kind::Optimizer : backward ? Kind::Backward : Kind::Forward;
          p.unit = annotatedUnit.empty() ? currentUnit : annotatedUnit;
          p.step = step;
          p.t0 = e->ts;
          p.t1 = e->ts + e->dur;
          r_.ops.push_back(p);
          open.piece = static_cast<int>(r_.ops.size()) - 1;
          seen(p.t0, p.t1);
          mapped();
        }
      } else {
        notMapped(n, "a record_function range (the ops inside it are mapped, the range is not)");
      }
      stack.push_back(open);
    }
  }

  void refine(Coll& c, const nlohmann::json& args) {
    const CommArgs a = commArgs(args);
    if (c.kind == Kind::None && a.kind) c.kind = *a.kind;
    if (a.bytes >= 0) c.bytes = a.bytes;
    if (a.participants) c.participants = a.participants;
  }

  // Everything not on the main thread's range tree: backend work threads, memory,
  // GPU kernels, metadata.
  void mapOtherEvents() {
    // Launches by correlation id: kernels take their step and phase from them.
    std::unordered_map<std::int64_t, const RawEvent*> launches;
    if (gpu_)
      for (const auto& e : f_.events)
        if ((e.cat == "cuda_runtime" || e.cat == "cuda_driver") && e.args.is_object() && e.args.contains("correlation"))
          launches[count(e.args["correlation"])] = &e;
    std::vector<const RawEvent*> backendWork;
    for (const auto& e : f_.events) {
      const std::string& n = name(e);
      if (e.ph == 'X' && e.tid == mainTid_ &&
          (e.cat == "cpu_op" || e.cat == "user_annotation" || e.cat == "python_function" || e.cat == "gpu_user_annotation"))
        continue; // mapped above
      if (n == "[memory]") {
        mapMemory(e);
      } else if (e.ph == 'X' && e.cat == "kernel") {
        mapKernel(e, launches);
      } else if ((e.cat == "cuda_runtime" || e.cat == "cuda_driver") && gpu_) {
        mapped(); // a launch: its kernel is the record
      } else if (e.ph == 'X' && (startsWith(n, "gloo:") || startsWith(n, "nccl:")) && !gpu_) {
        backendWork.push_back(&e);
      } else if (e.ph == 'M') {
        if (n == "thread_name" || n == "process_name") mapped();
        else notMapped(n, "profiler metadata");
      } else if (e.ph == 's' || e.ph == 'f' || e.ph == 't') {
        notMapped(n, "a flow arrow (forward op to its backward, or a launch to its kernel)");
      } else if (e.ph == 'X' && e.tid != mainTid_ && !e.cat.empty() && e.cat != "Trace") {
        notMapped(n, "on a thread that is not the one that ran ProfilerStep");
      } else {
        notMapped(n, "a profiler marker (" + std::string(e.cat.empty() ? "no category" : e.cat) + ")");
      }
    }
    matchBackendWork(backendWork);
  }

  // gloo runs a collective on its own worker threads after the c10d call returns: the
  // k-th gloo range is the k-th collective issued (one process group, issue order),
  // and the collective lasts until that work ended.
  void matchBackendWork(std::vector<const RawEvent*>& work) {
    std::sort(work.begin(), work.end(), [](const RawEvent* a, const RawEvent* b) { return a->ts < b->ts; });
    std::vector<Coll*> issued;
    for (auto& c : r_.colls) issued.push_back(&c);
    std::sort(issued.begin(), issued.end(), [](const Coll* a, const Coll* b) { return a->t0 < b->t0; });
    if (work.size() != issued.size()) {
      for (const RawEvent* w : work)
        notMapped(name(*w), "backend work that does not pair with the c10d calls one to one (" +
                                std::to_string(work.size()) + " ranges for " + std::to_string(issued.size()) +
                                " calls)");
      return;
    }
    for (std::size_t i = 0; i < work.size(); ++i) {
      issued[i]->t1 = std::max(issued[i]->t1, work[i]->ts + work[i]->dur);
      seen(issued[i]->t0, issued[i]->t1);
      mapped();
    }
  }

  void mapMemory(const RawEvent& e) {
    const auto& a = e.args;
    if (!a.is_object() || !a.contains("Bytes") || !a.contains("Total Allocated")) {
      notMapped("[memory]", "without Bytes and Total Allocated");
      return;
    }
    // Device Type 0 is the host (CPU), 1 CUDA: a GPU rank's memory is its device's.
    const std::int64_t device = a.contains("Device Type") ? count(a["Device Type"]) : 0;
    if (device != (gpu_ ? 1 : 0)) {
      notMapped("[memory]", gpu_ ? "host memory of a GPU rank" : "device memory of a CPU trace");
      return;
    }
    r_.mem.push_back({e.ts, count(a["Bytes"]), count(a["Total Allocated"])});
    seen(e.ts, e.ts);
    mapped();
  }

  void mapKernel(const RawEvent& e, const std::unordered_map<std::int64_t, const RawEvent*>& launches) {
    const std::string& n = name(e);
    const RawEvent* launch = nullptr;
    if (e.args.is_object() && e.args.contains("correlation"))
      if (auto it = launches.find(count(e.args["correlation"])); it != launches.end()) launch = it->second;
    const double issuedAt = launch ? launch->ts : e.ts;
    const int step = stepAt(issuedAt) >= 0 ? stepAt(issuedAt) : stepAt(e.ts);
    if (step < 0) {
      notMapped(n, "outside the profiled steps (launched outside every ProfilerStep range)");
      return;
    }
    if (auto kind = ncclKernelKind(n)) {
      Coll c;
      c.kind = *kind;
      c.step = step;
      c.t0 = e.ts;
      c.t1 = e.ts + e.dur;
      c.participants = world_;
      refine(c, e.args);
      if (c.kind == Kind::None) {
        notMapped(n, "an NCCL send/receive kernel without its Collective name (send or recv)");
        return;
      }
      if (c.bytes <= 0) {
        notMapped(n, "an NCCL kernel without its message size (In/Out msg nelems and dtype)");
        return;
      }
      r_.colls.push_back(c);
      seen(c.t0, c.t1);
      mapped();
      return;
    }
    Piece p;
    p.step = step;
    p.t0 = e.ts;
    p.t1 = e.ts + e.dur;
    // CPU backward runs on the calling thread; CUDA backward on autograd's device threads.
    p.kind = launch && launch->tid != mainTid_ ? Kind::Backward : Kind::Forward;
    if (launch && launch->tid == mainTid_) p.kind = phaseAt(launch->ts);
    r_.ops.push_back(p);
    seen(p.t0, p.t1);
    mapped();
  }

  // The phase of the main thread at time t: inside Optimizer.step, a backward marker, or forward.
  Kind phaseAt(double t) const {
    Kind k = Kind::Forward;
    for (const auto& e : f_.events) {
      if (e.ph != 'X' || e.tid != mainTid_ || t < e.ts || t > e.ts + e.dur) continue;
      const std::string& n = name(e);
      if (startsWith(n, "Optimizer.step#")) return Kind::Optimizer;
      if (backwardMarker(n)) k = Kind::Backward;
    }
    return k;
  }

  const RankFile& f_;
  ImportReport& report_;
  RankResult r_;
  std::string mainTid_;
  RankMask world_ = 1;
  bool gpu_ = false;
};

std::vector<std::string> rankFilesIn(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string n = entry.path().filename().string();
    const auto ends = [&](std::string_view s) { return n.size() >= s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0; };
    if (entry.is_regular_file() && (ends(".json") || ends(".json.gz")) && !startsWith(n, "issued")) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

long ImportReport::notMappedCount() const {
  long n = 0;
  for (const auto& [what, c] : notMapped) n += c;
  return n;
}

std::string ImportReport::describe() const {
  std::string s = std::to_string(notMappedCount()) + " of " + std::to_string(eventsRead) + " profiler events not mapped";
  bool first = true;
  for (const auto& [what, c] : notMapped) {
    s += first ? ": " : "; ";
    s += std::to_string(c) + " x " + what;
    first = false;
  }
  return s;
}

bool looksLikePytorchTrace(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return true;
  // Only a regular file is sniffed: opening a FIFO would block, a device never end; the
  // trace reader names them (readBoundedFile).
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  while (in.get(c))
    if (!std::isspace(static_cast<unsigned char>(c))) break;
  if (!in) return false;
  if (c == '{') return true;
  char next = 0;
  return static_cast<unsigned char>(c) == 0x1f && in.get(next) && static_cast<unsigned char>(next) == 0x8b;
}

PytorchImport importPytorchTrace(const std::string& path) {
  PytorchImport result;
  auto fail = [&](std::string message) {
    result.trace = Trace{};
    result.error = std::move(message);
    return std::move(result);
  };
  std::error_code ec;
  std::vector<std::string> paths;
  if (fs::is_directory(path, ec)) {
    paths = rankFilesIn(path);
    if (paths.empty()) return fail(path + ": a folder without *.json or *.json.gz trace files");
  } else {
    paths.push_back(path);
  }

  std::vector<RankFile> files(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (auto error = readRankFile(paths[i], files[i])) return fail(*error);
    result.report.eventsRead += static_cast<long>(files[i].events.size());
  }
  // Every file must agree on the job: one world, one file per rank.
  const RankFile& first = files.front();
  std::vector<const RankFile*> byRank(static_cast<std::size_t>(first.worldSize), nullptr);
  for (const auto& f : files) {
    if (files.size() > 1 && !f.hasDistributedInfo)
      return fail(f.file + ": no distributedInfo, so its rank is unknown (a folder needs one file per rank)");
    if (f.worldSize != first.worldSize)
      return fail(f.file + " (rank " + std::to_string(f.rank) + "): world_size " + std::to_string(f.worldSize) +
                  ", but " + first.file + " (rank " + std::to_string(first.rank) + ") says " +
                  std::to_string(first.worldSize));
    auto& slot = byRank[static_cast<std::size_t>(f.rank)];
    if (slot) return fail(f.file + ": rank " + std::to_string(f.rank) + " again (also " + slot->file + ")");
    slot = &f;
  }
  if (files.size() > 1)
    for (std::size_t r = 0; r < byRank.size(); ++r)
      if (!byRank[r])
        return fail(path + ": no file for rank " + std::to_string(r) + " of " + std::to_string(first.worldSize));

  std::vector<RankResult> ranks(byRank.size());
  for (std::size_t r = 0; r < byRank.size(); ++r) {
    if (!byRank[r]) continue;
    ranks[r] = RankMapper(*byRank[r], result.report).map();
    result.report.files.push_back(byRank[r]->file);
  }
  if (first.top.contains("distributedInfo") && first.top["distributedInfo"].contains("backend") &&
      first.top["distributedInfo"]["backend"].is_string())
    result.report.backend = first.top["distributedInfo"]["backend"].get<std::string>();

  // One clock: Kineto writes every rank's times on the host's clock (microseconds);
  // t = 0 at the earliest mapped instant of any rank.
  double epoch = INFINITY;
  std::size_t steps = 0;
  std::vector<std::string> units;
  for (const auto& r : ranks) {
    epoch = std::min(epoch, r.first);
    steps = std::max(steps, r.steps.size());
    for (const auto& u : r.unitOrder)
      if (std::find(units.begin(), units.end(), u) == units.end()) units.push_back(u);
  }
  if (!std::isfinite(epoch)) return fail(path + ": no event inside a ProfilerStep range to map (profiled no step?)");
  const auto ns = [&](double us) { return static_cast<std::int64_t>(std::llround((us - epoch) * 1000.0)); };

  Trace& t = result.trace;
  nlohmann::json imported = {
      {"source", "pytorch-profiler"},
      {"files", result.report.files},
      {"backend", result.report.backend},
      {"schema_version", first.top.value("schemaVersion", nlohmann::json())},
      {"distributed_info", first.top.contains("distributedInfo")},
      {"gpu", result.report.gpu},
      {"events", result.report.eventsRead},
      {"mapped", result.report.mapped},
      {"not_mapped", result.report.notMapped},
  };
  const bool fsdp = result.report.strategy == "fsdp";
  nlohmann::json job = {
      {"strategy", fsdp ? "fsdp" : "ddp"},
      {"ranks", first.worldSize},
      {"layers", std::max<std::size_t>(1, units.size())},
      {"steps", std::max<std::size_t>(1, steps)},
      {"device", result.report.gpu ? "cuda" : "cpu"},
      {"model", {{"units", units}}},
      {"imported", imported},
  };
  if (auto error = t.setJob(job)) return fail(path + ": the job record made from it is refused: " + *error);

  t.version = kFormatVersion;
  t.ranks.resize(byRank.size());
  for (std::size_t r = 0; r < byRank.size(); ++r) {
    t.ranks[r].rank = static_cast<int>(r);
    if (!byRank[r]) continue;
    const auto& top = byRank[r]->top;
    t.ranks[r].meta = {{"device", result.report.gpu ? "cuda" : "cpu"},
                       {"device_name", result.report.gpu ? "GPU rank (imported from a PyTorch profiler trace)"
                                                         : "CPU rank (imported from a PyTorch profiler trace)"},
                       {"host", top.value("host_name", "")},
                       {"file", byRank[r]->file}};
  }
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (!byRank[r]) continue;
    auto& rr = ranks[r];
    const int rank = static_cast<int>(r);
    std::vector<Event> events;
    for (const auto& p : rr.ops) {
      // An op never encloses a collective it waited for: split it around the calls.
      auto holes = p.holes;
      std::sort(holes.begin(), holes.end());
      double from = p.t0;
      const auto piece = [&](double a, double b) {
        if (b <= a) return;
        Event e;
        e.record = Record::Op;
        e.kind = p.kind;
        e.rank = rank;
        e.unit = p.unit.empty() ? -1 : t.unitIndex(p.unit);
        e.step = p.step;
        e.t0 = ns(a);
        e.t1 = std::max(e.t0, ns(b));
        events.push_back(e);
      };
      for (const auto& [h0, h1] : holes) {
        piece(from, h0);
        from = std::max(from, h1);
      }
      piece(from, p.t1);
    }
    for (const auto& c : rr.colls) {
      Event e;
      e.record = Record::Collective;
      e.kind = c.kind;
      e.rank = rank;
      e.unit = c.unit.empty() ? -1 : t.unitIndex(c.unit);
      e.step = c.step;
      e.t0 = ns(c.t0);
      e.t1 = std::max(e.t0, ns(c.t1));
      e.bytes = c.bytes;
      e.participants = c.participants;
      events.push_back(e);
    }
    for (const auto& m : rr.mem) {
      Event e;
      e.record = Record::Memory;
      e.category = Category::Unknown; // the profiler does not say what a buffer holds
      e.rank = rank;
      e.t0 = e.t1 = ns(m.t);
      e.bytes = m.delta;
      e.value = m.total;
      e.total = m.total;
      events.push_back(e);
    }
    for (std::size_t s = 0; s < rr.steps.size(); ++s) {
      Event e;
      e.record = Record::Step;
      e.rank = rank;
      e.step = static_cast<int>(s);
      e.t0 = e.t1 = ns(rr.steps[s].second);
      events.push_back(e); // the loss is not in the trace: loss 0 over 0 tokens
    }
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.t0 < b.t0; });
    Event end;
    end.record = Record::End;
    end.rank = rank;
    end.t0 = end.t1 = events.empty() ? 0 : std::max(events.back().t1, ns(rr.last));
    events.push_back(end);
    t.events.insert(t.events.end(), events.begin(), events.end());
  }
  return result;
}

} // namespace shardlab::trace
