#include "trace/TraceWriter.h"

#include <charconv>
#include <cerrno>
#include <cinttypes>
#include <cstdio>

namespace shardlab::trace {
namespace {

void put(std::string& s, std::int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}

void putHex(std::string& s, std::uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  s.append(buf, r.ptr);
}

void putDouble(std::string& s, double v) {
  char buf[40];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 9);
  s.append(buf, r.ptr);
}

std::string_view unitOf(const std::vector<std::string>& units, int u) {
  if (u < 0 || u >= static_cast<int>(units.size())) return "-";
  return units[static_cast<std::size_t>(u)];
}

} // namespace

std::string formatEvent(const Event& e, const std::vector<std::string>& units,
                        std::string_view failureText) {
  std::string s;
  s.reserve(96);
  s.append(toString(e.record));
  s += ' ';
  put(s, e.rank);
  s += ' ';
  switch (e.record) {
  case Record::Op:
    put(s, e.t0); s += ' '; put(s, e.t1); s += ' ';
    s.append(toString(e.kind)); s += ' ';
    s.append(unitOf(units, e.unit)); s += ' ';
    put(s, e.step); s += ' '; put(s, e.micro); s += ' '; put(s, e.cpuNs); s += ' ';
    s.append(e.recompute ? "recompute" : "-");
    break;
  case Record::Collective:
    put(s, e.t0); s += ' '; put(s, e.t1); s += ' ';
    s.append(toString(e.kind)); s += ' ';
    s.append(unitOf(units, e.unit)); s += ' ';
    put(s, e.step); s += ' '; put(s, e.micro); s += ' ';
    put(s, e.bytes); s += ' '; putHex(s, e.participants); s += ' ';
    put(s, e.peer); s += ' '; put(s, e.rows); s += 'x'; put(s, e.cols); s += ' '; put(s, e.wireBytes); s += ' ';
    s.append(toString(e.group));
    break;
  case Record::Memory:
    put(s, e.t0); s += ' ';
    s.append(toString(e.category)); s += ' ';
    s.append(unitOf(units, e.unit)); s += ' ';
    put(s, e.bytes); s += ' '; put(s, e.value); s += ' '; put(s, e.total);
    break;
  case Record::DeviceMemory:
    put(s, e.t0); s += ' '; put(s, e.value); s += ' '; put(s, e.total);
    break;
  case Record::Step:
    put(s, e.t0); s += ' '; put(s, e.step); s += ' '; putDouble(s, e.loss); s += ' ';
    put(s, e.value);
    break;
  case Record::Idle:
    put(s, e.t0); s += ' '; put(s, e.t1); s += ' ';
    s.append(toString(e.kind)); s += ' ';
    put(s, e.step); s += ' '; put(s, e.micro);
    break;
  case Record::OutOfMemory:
    put(s, e.t0); s += ' ';
    s.append(toString(e.category)); s += ' ';
    s.append(unitOf(units, e.unit)); s += ' ';
    put(s, e.bytes); s += ' '; put(s, e.value); s += ' '; put(s, e.total);
    break;
  case Record::Failure:
    put(s, e.t0); s += ' ';
    s += nlohmann::json(std::string(failureText)).dump();
    break;
  case Record::End:
    put(s, e.t0);
    break;
  case Record::Flight:
    put(s, e.t0); s += ' '; put(s, e.seq); s += ' ';
    s.append(toString(e.kind)); s += ' ';
    s.append(unitOf(units, e.unit)); s += ' ';
    put(s, e.step); s += ' '; put(s, e.micro); s += ' ';
    put(s, e.bytes); s += ' '; putHex(s, e.participants); s += ' '; put(s, e.peer); s += ' ';
    s.append(toString(e.group)); s += ' ';
    put(s, e.value); s += ' '; put(s, e.total);
    break;
  }
  return s;
}

TraceWriter::TraceWriter(std::FILE* out, std::vector<std::string> unitNames)
    : out_(out), units_(std::move(unitNames)) {
  buffer_.reserve(1 << 16);
}

void TraceWriter::writeHeader() {
  std::string line(kMagic);
  line += ' ';
  line += std::to_string(kFormatVersion);
  writeLine(line);
}

void TraceWriter::writeJob(const nlohmann::json& job) { writeLine("job " + job.dump()); }

void TraceWriter::writeRank(int rank, const nlohmann::json& meta) {
  writeLine("rank " + std::to_string(rank) + " " + meta.dump());
}

void TraceWriter::write(const Event& e, std::string_view failureText) {
  writeLine(formatEvent(e, units_, failureText));
}

void TraceWriter::writeLine(std::string_view line) {
  append(line);
  buffer_ += '\n';
  if (buffer_.size() > (1u << 16)) flush();
}

void TraceWriter::append(std::string_view s) { buffer_.append(s); }

void TraceWriter::flush() {
  if (!buffer_.empty()) {
    if (std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size() && !error_) error_ = errno ? errno : EIO;
    buffer_.clear();
  }
  if (std::fflush(out_) != 0 && !error_) error_ = errno ? errno : EIO;
}

std::string_view TraceWriter::unit(int u) const { return unitOf(units_, u); }

} // namespace shardlab::trace
