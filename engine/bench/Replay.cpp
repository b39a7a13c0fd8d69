// Benchmark: how fast a trace is replayed (the summary replays every trace it reads,
// so opening a trace pays this). Prints events, and seconds for the summary's three
// replays and for writing one mode's replayed trace in memory.
//   shardlab-bench-replay big.trace
#include "trace/Replay.h"
#include "trace/TraceReader.h"

#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: shardlab-bench-replay TRACE\n");
    return 2;
  }
  using clock = std::chrono::steady_clock;
  const auto read = shardlab::trace::readTraceFile(argv[1]);
  const auto t0 = clock::now();
  const auto report = shardlab::trace::replayReport(read.trace);
  const auto t1 = clock::now();
  const auto replayed = shardlab::trace::replayedTrace(read.trace, shardlab::trace::ReplayMode::Fitted);
  const auto t2 = clock::now();
  const double three = std::chrono::duration<double>(t1 - t0).count();
  const double one = std::chrono::duration<double>(t2 - t1).count();
  const auto n = static_cast<double>(read.trace.events.size());
  std::printf("events: %zu%s\n", read.trace.events.size(), read.ok() ? "" : " (read up to damage)");
  std::printf("replay, three modes:        %.3f s  (%.2f M events/s)\n", three, n / three / 1e6);
  std::printf("replayed trace, one mode:   %.3f s  (%zu events)\n", one, replayed.events.size());
  for (const auto& r : report.results)
    std::printf("  %-15s step %.6f s  exposed %.6f s\n", std::string(shardlab::trace::toString(r.mode)).c_str(),
                r.stepS, r.exposedCommS);
  if (report.stoppedAt) std::printf("stopped: %s\n", report.stoppedAt->c_str());
  return read.ok() ? 0 : 1;
}
