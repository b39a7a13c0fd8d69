#include "comm/FlightRecorder.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

namespace shardlab {

FlightRecorder::FlightRecorder(Recorder& recorder, double timeoutSeconds, HangHandler onHang)
    // Beyond 1e18 ns (about 30 years) a timeout means never: the nanoseconds of 1e10 s and
    // more do not fit 64 bits, and a wrapped value would declare a healthy job hung.
    : recorder_(recorder), timeoutNs_(static_cast<std::int64_t>(std::llround(std::min(timeoutSeconds * 1e9, 1e18)))),
      onHang_(std::move(onHang)) {
  for (auto& s : inFlightStart_) s.store(kIdle);
  for (auto& i : inFlightId_) i.store(0);
  thread_ = std::thread([this] { monitor(); });
}

FlightRecorder::~FlightRecorder() {
  {
    std::lock_guard lock(stopMutex_);
    stopping_ = true;
  }
  stopCv_.notify_all();
  thread_.join();
}

std::uint64_t FlightRecorder::begin(Lane lane, trace::Event call) {
  const auto t = recorder_.now();
  std::uint64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = nextId_++;
    const bool p2p = call.kind == trace::Kind::Send || call.kind == trace::Kind::Recv;
    call.seq = p2p ? peerSeq_[{static_cast<int>(call.kind), call.peer}]++
                   : groupSeq_[static_cast<std::size_t>(call.group)]++;
    call.value = t;
    call.total = -1;
    ring_[static_cast<std::size_t>(id % kEntries)] = {id, call};
  }
  const auto l = static_cast<std::size_t>(lane);
  inFlightId_[l].store(id, std::memory_order_relaxed);
  inFlightStart_[l].store(t, std::memory_order_release);
  return id;
}

void FlightRecorder::end(Lane lane, std::uint64_t id) {
  const auto t = recorder_.now();
  inFlightStart_[static_cast<std::size_t>(lane)].store(kIdle, std::memory_order_release);
  std::lock_guard lock(mutex_);
  Entry& e = ring_[static_cast<std::size_t>(id % kEntries)];
  if (e.id == id) e.call.total = t;
}

void FlightRecorder::dump() {
  std::vector<Entry> entries;
  {
    std::lock_guard lock(mutex_);
    for (const auto& e : ring_)
      if (e.id != 0) entries.push_back(e);
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.id < b.id; });
  const auto t = recorder_.now();
  for (const auto& e : entries) recorder_.flight(t, e.call);
  recorder_.flush();
}

void FlightRecorder::monitor() {
  // A few looks per timeout, at most one per second, at least one per 10 ms.
  const auto period = std::chrono::nanoseconds(std::clamp<std::int64_t>(timeoutNs_ / 10, 10'000'000, 1'000'000'000));
  std::unique_lock lock(stopMutex_);
  while (!stopCv_.wait_for(lock, period, [this] { return stopping_; })) {
    const auto now = recorder_.now();
    for (std::size_t l = 0; l < inFlightStart_.size(); ++l) {
      const auto start = inFlightStart_[l].load(std::memory_order_acquire);
      if (start == kIdle || now - start <= timeoutNs_) continue;
      trace::Event stuck;
      {
        std::lock_guard ring(mutex_);
        const auto id = inFlightId_[l].load(std::memory_order_relaxed);
        stuck = ring_[static_cast<std::size_t>(id % kEntries)].call;
      }
      dump();
      lock.unlock();
      if (onHang_) onHang_(stuck);
      return;
    }
  }
}

} // namespace shardlab
