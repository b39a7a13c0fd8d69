#include "trace/TraceReader.h"

#include <cstdio>

#include "job/BoundedFile.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace shardlab::trace {
namespace {

// Splits a line into at most N space-separated fields; the last field keeps the rest.
template <std::size_t N>
std::size_t split(std::string_view line, std::array<std::string_view, N>& out) {
  std::size_t n = 0;
  while (!line.empty() && n < N) {
    if (n == N - 1) {
      out[n++] = line;
      break;
    }
    auto sp = line.find(' ');
    out[n++] = line.substr(0, sp);
    if (sp == std::string_view::npos) break;
    line.remove_prefix(sp + 1);
  }
  return n;
}

template <typename T>
bool num(std::string_view s, T& v, int base = 10) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool real(std::string_view s, double& v) {
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// At most 40 bytes of a damaged value, as text a terminal shows: a control or non-ASCII
// byte as \xNN (a binary file's bytes would otherwise reach the message raw).
std::string shown(std::string_view value) {
  std::string out;
  for (const char c : value.substr(0, 40)) {
    const auto b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7f) {
      out += c;
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", b);
      out += hex;
    }
  }
  return out;
}

std::string bad(std::string_view field, std::string_view value) {
  return "invalid " + std::string(field) + " '" + shown(value) + "'";
}

} // namespace

std::string ReadError::describe(std::string_view source) const {
  return std::string(source) + ":" + std::to_string(line) + ": " + message;
}

std::optional<std::string> TraceParser::parseLine(std::string_view line) {
  ++line_;
  unknown_ = false;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (!sawHeader_) {
    if (line.substr(0, kMagic.size()) != kMagic)
      return "not a ShardLab trace (the first line must be '" + std::string(kMagic) + " VERSION')";
    int version = 0;
    auto rest = line.substr(kMagic.size());
    if (rest.empty() || rest[0] != ' ' || !num(rest.substr(1), version))
      return "invalid trace header '" + std::string(line.substr(0, 60)) + "'";
    if (version > kFormatVersion || version < 1)
      return "trace format version " + std::to_string(version) +
             " is not supported: this ShardLab reads versions 1 to " + std::to_string(kFormatVersion);
    trace_.version = version;
    sawHeader_ = true;
    return std::nullopt;
  }
  if (line.empty()) return std::nullopt;
  // The launcher concatenates rank files, which repeat the header: skip it.
  if (line.substr(0, kMagic.size()) == kMagic) return std::nullopt;
  return parseRecord(line);
}

// A record of a rank the job record does not have (rank 5 of a 2-rank job): read, it
// would add ranks the job never ran (the app drew 6, as groups of a strategy it was not).
std::optional<std::string> TraceParser::outsideTheJob(int rank) const {
  if (!trace_.job || rank < trace_.job->config.ranks) return std::nullopt;
  return "rank " + std::to_string(rank) + " is outside the job record's " + std::to_string(trace_.job->config.ranks) +
         (trace_.job->config.ranks == 1 ? " rank" : " ranks");
}

std::optional<std::string> TraceParser::parseRecord(std::string_view line) {
  std::array<std::string_view, 14> f{};
  const std::size_t n = split(line, f);
  const std::string_view tag = f[0];

  if (tag == "job") {
    // A second job record is two traces in one file (a body pasted twice): every count
    // would be doubled under the first record's job.
    if (trace_.job) return "a second job record: a trace has one, at its start";
    if (auto deep = jsonNestingProblem(line.substr(3))) return "job record: " + *deep;
    auto j = nlohmann::json::parse(line.substr(3), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return "job record: malformed JSON";
    // Checked here, once: every reader sizes its views and tables from the record.
    if (auto error = trace_.setJob(std::move(j))) return "job record: " + *error;
    return std::nullopt;
  }
  if (tag == "rank") {
    std::array<std::string_view, 3> g{};
    if (split(line, g) != 3) return "rank record: expected 'rank R {json}'";
    int r = 0;
    if (!num(g[1], r) || r < 0 || r >= 64) return bad("rank", g[1]);
    if (auto outside = outsideTheJob(r)) return outside;
    if (static_cast<std::size_t>(r) < trace_.ranks.size() && !trace_.ranks[static_cast<std::size_t>(r)].meta.is_null())
      return "a second rank record for rank " + std::to_string(r);
    if (auto deep = jsonNestingProblem(g[2])) return "rank record: " + *deep;
    auto j = nlohmann::json::parse(g[2], nullptr, false);
    if (j.is_discarded() || !j.is_object()) return "rank record: malformed JSON";
    if (trace_.ranks.size() <= static_cast<std::size_t>(r)) trace_.ranks.resize(static_cast<std::size_t>(r) + 1);
    trace_.ranks[static_cast<std::size_t>(r)].rank = r;
    trace_.ranks[static_cast<std::size_t>(r)].meta = std::move(j);
    return std::nullopt;
  }

  auto record = recordFromString(tag);
  if (!record) {
    unknown_ = true;
    return "unknown record '" + shown(tag) + "'";
  }
  Event e;
  e.record = *record;
  if (n < 3) return std::string(tag) + " record: too few fields";
  if (!num(f[1], e.rank) || e.rank < 0 || e.rank >= 64) return bad("rank", f[1]);
  if (auto outside = outsideTheJob(e.rank)) return outside;
  if (!num(f[2], e.t0)) return bad("time", f[2]);
  e.t1 = e.t0;

  auto need = [&](std::size_t k) -> std::optional<std::string> {
    if (n < k) return std::string(tag) + " record: expected " + std::to_string(k) + " fields, found " + std::to_string(n);
    return std::nullopt;
  };
  auto kind = [&](std::string_view s) -> bool {
    auto k = kindFromString(s);
    if (k) e.kind = *k;
    return k.has_value();
  };
  // An event of a unit the job record's model does not have (block999 of a 4-layer job)
  // is no event of that job: the views would grow a unit it never had.
  auto unit = [&](std::string_view name) -> std::optional<std::string> {
    if (const auto known = trace_.findUnit(name)) {
      e.unit = *known;
      return std::nullopt;
    }
    if (trace_.job && !trace_.job->model.units.empty())
      return "unit '" + shown(name) + "' is not one of the job record's " +
             std::to_string(trace_.job->model.units.size()) + " units";
    e.unit = trace_.unitIndex(name); // a trace without a model names its units as it goes
    return std::nullopt;
  };
  auto category = [&](std::string_view s) -> bool {
    auto c = categoryFromString(s);
    if (c) e.category = *c;
    return c.has_value();
  };

  switch (e.record) {
  case Record::Op:
  case Record::Collective: {
    if (auto err = need(e.record == Record::Op ? 8 : 12)) return err;
    if (!num(f[3], e.t1) || e.t1 < e.t0) return bad("end time", f[3]);
    if (!kind(f[4])) return bad("kind", f[4]);
    if (auto err = unit(f[5])) return err;
    if (!num(f[6], e.step)) return bad("step", f[6]);
    if (!num(f[7], e.micro)) return bad("micro-batch", f[7]);
    // An op's CPU time is a trailing field: traces written before it have none (-1);
    // fields after it, from a newer writer, are ignored.
    if (e.record == Record::Op && n > 8) {
      const auto cpu = f[8].substr(0, f[8].find(' '));
      if (!num(cpu, e.cpuNs) || e.cpuNs < -1) return bad("CPU time", cpu);
    }
    // Then the op's flag: `recompute` for a forward run again inside the backward
    // (activation checkpointing), `-` otherwise; absent from traces written before it.
    if (e.record == Record::Op && n > 9) {
      const auto flag = f[9].substr(0, f[9].find(' '));
      if (flag == "recompute") e.recompute = true;
      else if (flag != "-") return bad("op flag", flag);
    }
    if (e.record == Record::Collective) {
      if (!num(f[8], e.bytes) || e.bytes < 0) return bad("bytes", f[8]);
      if (!num(f[9], e.participants, 16)) return bad("participants", f[9]);
      if (!num(f[10], e.peer)) return bad("peer", f[10]);
      auto shape = f[11];
      auto x = shape.find('x');
      if (x == std::string_view::npos || !num(shape.substr(0, x), e.rows) || !num(shape.substr(x + 1), e.cols))
        return bad("shape", shape);
      // Trailing fields, each absent from traces written before it: the measured wire
      // bytes (-1 when absent or not measured), then the communicator (absent: world).
      if (n > 12) {
        const auto wire = f[12].substr(0, f[12].find(' '));
        if (!num(wire, e.wireBytes) || e.wireBytes < -1) return bad("wire bytes", wire);
      }
      if (n > 13) {
        const auto group = f[13].substr(0, f[13].find(' '));
        auto g = commGroupFromString(group);
        if (!g) return bad("communicator", group);
        e.group = *g;
      }
    }
    break;
  }
  case Record::Memory:
  case Record::OutOfMemory:
    if (auto err = need(8)) return err;
    if (!category(f[3])) return bad("category", f[3]);
    if (auto err = unit(f[4])) return err;
    if (!num(f[5], e.bytes)) return bad("bytes", f[5]);
    if (!num(f[6], e.value)) return bad("bytes", f[6]);
    if (!num(f[7], e.total)) return bad("bytes", f[7]);
    break;
  case Record::DeviceMemory:
    if (auto err = need(5)) return err;
    if (!num(f[3], e.value)) return bad("free bytes", f[3]);
    if (!num(f[4], e.total)) return bad("total bytes", f[4]);
    break;
  case Record::Step:
    if (auto err = need(6)) return err;
    if (!num(f[3], e.step)) return bad("step", f[3]);
    if (!real(f[4], e.loss)) return bad("loss", f[4]);
    if (!num(f[5], e.value)) return bad("tokens", f[5]);
    break;
  case Record::Idle:
    if (auto err = need(7)) return err;
    if (!num(f[3], e.t1) || e.t1 < e.t0) return bad("end time", f[3]);
    if (!kind(f[4])) return bad("kind", f[4]);
    if (!num(f[5], e.step)) return bad("step", f[5]);
    if (!num(f[6], e.micro)) return bad("micro-batch", f[6]);
    break;
  case Record::Failure: {
    std::array<std::string_view, 4> g{};
    if (split(line, g) != 4) return "fail record: expected 'fail R T \"message\"'";
    auto j = nlohmann::json::parse(g[3], nullptr, false);
    if (j.is_discarded() || !j.is_string()) return "fail record: message is not a JSON string";
    trace_.texts.push_back(j.get<std::string>());
    e.text = static_cast<std::uint32_t>(trace_.texts.size() - 1);
    break;
  }
  case Record::End: break;
  case Record::Flight: {
    // flight R t SEQ KIND UNIT STEP MICRO BYTES PARTICIPANTS PEER COMMUNICATOR START END
    std::array<std::string_view, 15> g{};
    const std::size_t m = split(line, g);
    if (m < 14) return "flight record: expected 14 fields, found " + std::to_string(m);
    if (!num(g[3], e.seq) || e.seq < -1) return bad("sequence number", g[3]);
    if (!kind(g[4]) || !isCollective(e.kind)) return bad("kind", g[4]);
    if (auto err = unit(g[5])) return err;
    if (!num(g[6], e.step)) return bad("step", g[6]);
    if (!num(g[7], e.micro)) return bad("micro-batch", g[7]);
    if (!num(g[8], e.bytes) || e.bytes < 0) return bad("bytes", g[8]);
    if (!num(g[9], e.participants, 16)) return bad("participants", g[9]);
    if (!num(g[10], e.peer)) return bad("peer", g[10]);
    auto group = commGroupFromString(g[11]);
    if (!group) return bad("communicator", g[11]);
    e.group = *group;
    if (!num(g[12], e.value)) return bad("start time", g[12]);
    const auto end = g[13].substr(0, g[13].find(' ')); // later trailing fields are ignored
    if (!num(end, e.total) || (e.total != -1 && e.total < e.value)) return bad("end time", end);
    break;
  }
  }
  trace_.events.push_back(e);
  return std::nullopt;
}

ReadResult readTrace(std::string_view text) {
  ReadResult result;
  result.trace.events.reserve(text.size() / 48); // records average 50-60 bytes
  TraceParser parser(result.trace);
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    const bool complete = nl != std::string_view::npos;
    auto line = text.substr(pos, complete ? nl - pos : std::string_view::npos);
    pos = complete ? nl + 1 : text.size();
    const std::size_t before = result.trace.events.size();
    if (auto err = parser.parseLine(line)) {
      // A line that is no record at all is skipped, so one damaged line does not drop
      // the rest of the run; a damaged record of a known kind stops the reading there.
      if (parser.lastWasUnknownRecord() && complete) {
        if (!result.skipped) result.skipped = SkippedLines{0, ReadError{parser.linesRead(), *err}, 0};
        ++result.skipped->count;
        continue;
      }
      result.error = ReadError{parser.linesRead(), *err};
      if (result.skipped) result.skipped->linesAfter = parser.linesRead() - 1 - result.skipped->first.line;
      return result;
    }
    if (!complete && !line.empty()) {
      // A final line without its newline was cut while being written.
      result.trace.events.resize(before);
      result.error = ReadError{parser.linesRead(), "the trace ends in the middle of a record (cut short?)"};
      return result;
    }
  }
  if (!parser.sawHeader()) result.error = ReadError{1, "empty file: not a ShardLab trace"};
  if (result.skipped) result.skipped->linesAfter = parser.linesRead() - result.skipped->first.line;
  return result;
}

ReadResult readTraceFile(const std::string& path) {
  // A regular file of at most kTraceFileCap: a directory, a FIFO or /dev/zero is said to
  // be one, never read without end.
  FileProblem problem;
  const auto text = readBoundedFile(path, kTraceFileCap, problem);
  if (!text) {
    ReadResult r;
    r.error = ReadError{0, "the file " + problem.text};
    return r;
  }
  return readTrace(*text);
}

} // namespace shardlab::trace
