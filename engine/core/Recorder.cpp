#include "core/Recorder.h"

namespace shardlab {

Recorder::Recorder(std::FILE* out, int rank, std::vector<std::string> unitNames) : rank_(rank) {
  if (out) writer_ = std::make_unique<trace::TraceWriter>(out, std::move(unitNames));
}

void Recorder::header(const nlohmann::json& rankMeta) {
  if (!writer_) return;
  std::lock_guard lock(mutex_);
  writer_->writeHeader();
  writer_->writeRank(rank_, rankMeta);
  writer_->flush();
}

trace::Event Recorder::event(trace::Record record, std::int64_t t0, std::int64_t t1) const {
  trace::Event e;
  e.record = record;
  e.rank = rank_;
  e.t0 = t0;
  e.t1 = t1;
  return e;
}

void Recorder::write(const trace::Event& e, std::string_view text) {
  if (!writer_) return;
  std::lock_guard lock(mutex_);
  if (stopped_) return;
  writer_->write(e, text);
}

void Recorder::op(Kind kind, int unit, int step, int micro, std::int64_t t0, std::int64_t t1, std::int64_t cpuNs,
                  bool recompute) {
  if (!writer_) return;
  auto e = event(trace::Record::Op, t0, t1);
  e.cpuNs = cpuNs;
  e.recompute = recompute;
  e.kind = kind;
  e.unit = unit;
  e.step = step;
  e.micro = micro;
  write(e);
}

void Recorder::collective(Kind kind, int unit, int step, int micro, std::int64_t t0, std::int64_t t1,
                          std::int64_t bytes, trace::RankMask participants, int peer, int rows, int cols,
                          std::int64_t wireBytes, trace::CommGroup group) {
  if (!writer_) return;
  auto e = event(trace::Record::Collective, t0, t1);
  e.kind = kind;
  e.unit = unit;
  e.step = step;
  e.micro = micro;
  e.bytes = bytes;
  e.participants = participants;
  e.peer = peer;
  e.rows = rows;
  e.cols = cols;
  e.wireBytes = wireBytes;
  e.group = group;
  write(e);
}

void Recorder::memory(Category c, int unit, std::int64_t delta, std::int64_t categoryNow, std::int64_t totalNow) {
  if (!writer_) return;
  const auto t = now();
  auto e = event(trace::Record::Memory, t, t);
  e.category = c;
  e.unit = unit;
  e.bytes = delta;
  e.value = categoryNow;
  e.total = totalNow;
  write(e);
}

void Recorder::deviceMemory(std::int64_t freeBytes, std::int64_t totalBytes) {
  if (!writer_) return;
  const auto t = now();
  auto e = event(trace::Record::DeviceMemory, t, t);
  e.value = freeBytes;
  e.total = totalBytes;
  write(e);
}

void Recorder::idle(Kind why, int step, int micro, std::int64_t t0, std::int64_t t1) {
  if (!writer_) return;
  auto e = event(trace::Record::Idle, t0, t1);
  e.kind = why;
  e.step = step;
  e.micro = micro;
  write(e);
}

void Recorder::stepEnd(int step, double lossSum, std::int64_t tokens) {
  if (!writer_) return;
  const auto t = now();
  auto e = event(trace::Record::Step, t, t);
  e.step = step;
  e.loss = lossSum;
  e.value = tokens;
  write(e);
  flush(); // a step is the unit the app's progress bar counts: make it visible now
}

void Recorder::outOfMemory(Category c, int unit, std::int64_t needed, std::int64_t budget, std::int64_t holding) {
  if (!writer_) return;
  const auto t = now();
  auto e = event(trace::Record::OutOfMemory, t, t);
  e.category = c;
  e.unit = unit;
  e.bytes = needed;
  e.value = budget;
  e.total = holding;
  write(e);
  flush();
  // The rank is stopping: the frees of its unwinding are not part of the run, and the
  // trace should end showing what it held when the allocation failed.
  std::lock_guard lock(mutex_);
  stopped_ = true;
}

void Recorder::failure(const std::string& message) {
  if (!writer_) return;
  const auto t = now();
  auto e = event(trace::Record::Failure, t, t);
  write(e, message);
  flush();
}

void Recorder::flight(std::int64_t t, const trace::Event& call) {
  if (!writer_) return;
  auto e = call;
  e.record = trace::Record::Flight;
  e.rank = rank_;
  e.t0 = e.t1 = t;
  write(e);
}

void Recorder::end() {
  if (!writer_) return;
  const auto t = now();
  auto e = event(trace::Record::End, t, t);
  write(e);
  flush();
}

void Recorder::flush() {
  if (!writer_) return;
  std::lock_guard lock(mutex_);
  writer_->flush();
}

} // namespace shardlab
