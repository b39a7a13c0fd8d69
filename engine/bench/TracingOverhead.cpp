// Benchmark: what tracing costs. Runs the same job (default: the FSDP lesson model)
// in alternating rounds with tracing on (written to a file) and off, and prints the
// median step time of each and their ratio. Run under mpirun, e.g.
//   mpirun -np 4 shardlab-bench-tracing --strategy fsdp --rounds 7
#include "comm/CommStream.h"
#include "core/Data.h"
#include "job/JobConfig.h"
#include "core/Memory.h"
#include "comm/MpiCheck.h"
#include "core/Recorder.h"
#include "strategies/Strategy.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace shardlab;

namespace {

// Median step time (seconds) of `steps` steps after one warm-up step.
double timeRound(const JobConfig& job, bool tracing, int rank, int size) {
  std::FILE* out = tracing ? std::tmpfile() : nullptr;
  Recorder recorder(out, rank, job.unitNames());
  auto device = makeCpuDevice();
  MemoryTracker memory(*device, recorder, 0, job.unitNames());
  CommStream comm(MPI_COMM_WORLD, recorder);
  StrategyContext ctx{job, ModelShape{job.vocab, job.hidden, job.layers}, *device, memory, recorder, comm, rank, size};
  auto strategy = makeStrategy(ctx);
  strategy->setup();
  SyntheticLanguage data(job.vocab, job.seed);
  std::vector<double> times;
  for (int step = 0; step <= job.steps; ++step) {
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    const auto t0 = monotonicNs();
    auto result = strategy->step(step, data.globalBatch(step, job.batch));
    recorder.stepEnd(step, result.lossSum, result.tokens);
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (step > 0) times.push_back(static_cast<double>(monotonicNs() - t0) * 1e-9);
  }
  recorder.flush();
  if (out) std::fclose(out);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  CLI::App cli{"shardlab-bench-tracing: step time with tracing on and off"};
  JobConfig job;
  int rounds = 7;
  std::string strategy = "fsdp";
  cli.add_option("--strategy", strategy, nameList<StrategyKind>());
  cli.add_option("--layers", job.layers);
  cli.add_option("--hidden", job.hidden);
  cli.add_option("--batch", job.batch);
  cli.add_option("--steps", job.steps, "timed steps per round");
  cli.add_option("--rounds", rounds, "alternating rounds of each (odd: a clean median)");
  CLI11_PARSE(cli, argc, argv);
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  job.ranks = size;
  std::vector<JobIssue> errors;
  job = JobConfig::fromJson({{"strategy", strategy}}, errors, job);
  if (errors.empty()) errors = job.validate();
  if (!errors.empty()) {
    if (rank == 0) std::fprintf(stderr, "%s\n", errors.front().message().c_str());
    MPI_Finalize();
    return 2;
  }
  std::vector<double> on, off;
  for (int r = 0; r < rounds; ++r) {
    off.push_back(timeRound(job, false, rank, size));
    on.push_back(timeRound(job, true, rank, size));
  }
  std::sort(on.begin(), on.end());
  std::sort(off.begin(), off.end());
  if (rank == 0) {
    const double a = on[on.size() / 2], b = off[off.size() / 2];
    std::printf("job: %s, %d ranks, layers %d, hidden %d, batch %d; %d rounds x %d steps\n", std::string(name(job.strategy)).c_str(), size,
                job.layers, job.hidden, job.batch, rounds, job.steps);
    std::printf("median step time, tracing off: %.3f ms\n", b * 1e3);
    std::printf("median step time, tracing on:  %.3f ms\n", a * 1e3);
    std::printf("tracing overhead: %+.2f %%\n", (a / b - 1.0) * 100.0);
  }
  MPI_Finalize();
  return 0;
}
