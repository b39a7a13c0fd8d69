// Benchmark: how fast a trace is read and summarised (the app opens traces with the
// same reader). Prints events, seconds and events per second for each phase.
//   shardlab-bench-trace-read big.trace
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: shardlab-bench-trace-read TRACE\n");
    return 2;
  }
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto result = shardlab::trace::readTraceFile(argv[1]);
  const auto t1 = clock::now();
  const auto summary = shardlab::trace::summarize(result.trace);
  const auto t2 = clock::now();
  const double read = std::chrono::duration<double>(t1 - t0).count();
  const double sum = std::chrono::duration<double>(t2 - t1).count();
  const auto n = static_cast<double>(result.trace.events.size());
  std::printf("events: %zu%s\n", result.trace.events.size(), result.ok() ? "" : " (read up to damage)");
  std::printf("read:      %.3f s  (%.2f M events/s)\n", read, n / read / 1e6);
  std::printf("summarize: %.3f s  (%.2f M events/s)\n", sum, n / sum / 1e6);
  std::printf("steps completed: %d, ranks: %d\n", summary.stepsCompleted, summary.ranks);
  return result.ok() ? 0 : 1;
}
