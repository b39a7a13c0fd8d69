#include "strategies/PipelineSchedules.h"

#include <algorithm>
#include <stdexcept>

namespace shardlab {

PipeSchedule naiveSchedule() { return {{PipeOp::Forward, 0, 0}, {PipeOp::Backward, 0, 0}}; }

PipeSchedule gpipeSchedule(int m) {
  PipeSchedule s;
  for (int i = 0; i < m; ++i) s.push_back({PipeOp::Forward, 0, i});      // fill: F0 F1 ... F(m-1)
  for (int i = m - 1; i >= 0; --i) s.push_back({PipeOp::Backward, 0, i}); // drain: newest first
  return s;
}

PipeSchedule oneFOneBSchedule(int p, int rank, int m) {
  PipeSchedule s;
  const int warmup = std::min(p - rank - 1, m);
  for (int i = 0; i < warmup; ++i) s.push_back({PipeOp::Forward, 0, i}); // warm-up
  for (int i = 0; i < m - warmup; ++i) {                                  // steady state
    s.push_back({PipeOp::Forward, 0, warmup + i});
    s.push_back({PipeOp::Backward, 0, i});
  }
  for (int i = m - warmup; i < m; ++i) s.push_back({PipeOp::Backward, 0, i}); // cool-down
  return s;
}

PipeSchedule interleavedSchedule(int p, int rank, int m, int V) {
  // The rank's k-th forward (or backward): micro-batches go in groups of p, each group
  // through chunk 0, 1, ..., V-1 (backwards: V-1, ..., 0) before the next group.
  auto micro = [&](int k) { return (k / (p * V)) * p + k % p; };
  auto forward = [&](int k) { return PipeOp{PipeOp::Forward, (k / p) % V, micro(k)}; };
  auto backward = [&](int k) { return PipeOp{PipeOp::Backward, V - 1 - (k / p) % V, micro(k)}; };
  const int total = m * V;
  const int warmup = std::min((p - rank - 1) * 2 + (V - 1) * p, total);
  PipeSchedule s;
  for (int k = 0; k < warmup; ++k) s.push_back(forward(k)); // warm-up
  for (int k = 0; k < total - warmup; ++k) {                // steady state
    s.push_back(forward(warmup + k));
    s.push_back(backward(k));
  }
  for (int k = total - warmup; k < total; ++k) s.push_back(backward(k)); // cool-down
  return s;
}

namespace {

// The zero-bubble schedules' shape (see zbH1Schedule): `warmup` forwards, then per
// micro-batch B, the W `lag` micro-batches behind it, the next F; then the rest of the W's.
PipeSchedule splitBackwardSchedule(int m, int warmup, int lag) {
  PipeSchedule s;
  int forwards = std::min(warmup, m), weights = 0;
  for (int i = 0; i < forwards; ++i) s.push_back({PipeOp::Forward, 0, i}); // warm-up
  for (int k = 0; k < m; ++k) {
    s.push_back({PipeOp::BackwardInput, 0, k});
    if (k - lag >= 0) s.push_back({PipeOp::BackwardWeight, 0, weights++});
    if (forwards < m) s.push_back({PipeOp::Forward, 0, forwards++});
  }
  while (weights < m) s.push_back({PipeOp::BackwardWeight, 0, weights++}); // the W's that waited
  return s;
}

} // namespace

PipeSchedule zbH1Schedule(int p, int rank, int m) { return splitBackwardSchedule(m, p - rank, rank); }

PipeSchedule zbH2Schedule(int p, int rank, int m) { return splitBackwardSchedule(m, 2 * (p - rank) - 1, 2 * rank); }

PipeSchedule scheduleFor(Schedule schedule, int p, int rank, int m, int V) {
  switch (schedule) {
  case Schedule::Naive: return naiveSchedule();
  case Schedule::GPipe: return gpipeSchedule(m);
  case Schedule::OneFOneB: return oneFOneBSchedule(p, rank, m);
  case Schedule::Interleaved: return interleavedSchedule(p, rank, m, V);
  case Schedule::ZbH1: return zbH1Schedule(p, rank, m);
  case Schedule::ZbH2: return zbH2Schedule(p, rank, m);
  }
  throw std::invalid_argument("schedule: unknown");
}

} // namespace shardlab
