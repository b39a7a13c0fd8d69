#include "Recorder.h"

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

void Recorder::write(const trace::Event& e, std::string_view text) {
  if (!writer_) return;
  std::lock_guard lock(mutex_);
  writer_->write(e, text);
}

void Recorder::op(Kind kind, int unit, int step, int micro, std::int64_t t0, std::int64_t t1) {
  if (!writer_) return;
  trace::Event e;
  e.record = trace::Record::Op;
  e.rank = rank_;
  e.kind = kind;
  e.unit = unit;
  e.step = step;
  e.micro = micro;
  e.t0 = t0;
  e.t1 = t1;
  write(e);
}

void Recorder::collective(Kind kind, int unit, int step, int micro, std::int64_t t0, std::int64_t t1,
                          std::int64_t bytes, trace::RankMask participants, int peer, int rows, int cols) {
  if (!writer_) return;
  trace::Event e;
  e.record = trace::Record::Collective;
  e.rank = rank_;
  e.kind = kind;
  e.unit = unit;
  e.step = step;
  e.micro = micro;
  e.t0 = t0;
  e.t1 = t1;
  e.bytes = bytes;
  e.participants = participants;
  e.peer = peer;
  e.rows = rows;
  e.cols = cols;
  write(e);
}

void Recorder::memory(Category c, int unit, std::int64_t delta, std::int64_t categoryNow, std::int64_t totalNow) {
  if (!writer_) return;
  trace::Event e;
  e.record = trace::Record::Memory;
  e.rank = rank_;
  e.category = c;
  e.unit = unit;
  e.t0 = e.t1 = now();
  e.bytes = delta;
  e.value = categoryNow;
  e.total = totalNow;
  write(e);
}

void Recorder::deviceMemory(std::int64_t freeBytes, std::int64_t totalBytes) {
  if (!writer_) return;
  trace::Event e;
  e.record = trace::Record::DeviceMemory;
  e.rank = rank_;
  e.t0 = e.t1 = now();
  e.value = freeBytes;
  e.total = totalBytes;
  write(e);
}

void Recorder::idle(Kind why, int step, int micro, std::int64_t t0, std::int64_t t1) {
  if (!writer_) return;
  trace::Event e;
  e.record = trace::Record::Idle;
  e.rank = rank_;
  e.kind = why;
  e.step = step;
  e.micro = micro;
  e.t0 = t0;
  e.t1 = t1;
  write(e);
}

void Recorder::stepEnd(int step, double lossSum, std::int64_t tokens) {
  if (!writer_) return;
  trace::Event e;
  e.record = trace::Record::Step;
  e.rank = rank_;
  e.step = step;
  e.t0 = e.t1 = now();
  e.loss = lossSum;
  e.value = tokens;
  write(e);
  flush(); // a step is the unit the app's progress bar counts: make it visible now
}

void Recorder::outOfMemory(Category c, int unit, std::int64_t needed, std::int64_t budget, std::int64_t holding) {
  if (!writer_) return;
  trace::Event e;
  e.record = trace::Record::OutOfMemory;
  e.rank = rank_;
  e.category = c;
  e.unit = unit;
  e.t0 = e.t1 = now();
  e.bytes = needed;
  e.value = budget;
  e.total = holding;
  write(e);
  flush();
}

void Recorder::failure(const std::string& message) {
  if (!writer_) return;
  trace::Event e;
  e.record = trace::Record::Failure;
  e.rank = rank_;
  e.t0 = e.t1 = now();
  write(e, message);
  flush();
}

void Recorder::end() {
  if (!writer_) return;
  trace::Event e;
  e.record = trace::Record::End;
  e.rank = rank_;
  e.t0 = e.t1 = now();
  write(e);
  flush();
}

void Recorder::flush() {
  if (!writer_) return;
  std::lock_guard lock(mutex_);
  writer_->flush();
}

} // namespace shardlab
