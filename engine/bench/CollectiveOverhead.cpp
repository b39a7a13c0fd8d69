// Benchmark: what the communication stream adds over a direct MPI call of the same
// size. Alternates CommStream::allGather/reduceScatter/allReduce (enqueue, run on the
// communication thread, record, wait) with MPI_Allgather/MPI_Reduce_scatter_block/
// MPI_Allreduce called directly, and prints the medians and what the stream adds.
// Two streams take turns: one whose hand-off sleeps at once (spin 0: the stream as it
// was before the polling hand-off) and one that polls first, with the bound the worker
// chooses on this node (handOffSpinOnThisNode; SHARDLAB_COMM_SPIN_US overrides it), so
// before and after are measured in the same run.
//   mpirun -np 2 shardlab-bench-collectives
#include "comm/CommStream.h"
#include "comm/MpiCheck.h"
#include "core/Recorder.h"
#include "job/EnvSettings.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

using namespace shardlab;

namespace {

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double timeIt(const std::function<void()>& f, int repeats) {
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    const auto t0 = monotonicNs();
    f();
    t.push_back(static_cast<double>(monotonicNs() - t0) * 1e-9);
  }
  return medianOf(t);
}

} // namespace

int main(int argc, char** argv) {
  CLI::App cli{"shardlab-bench-collectives: communication stream against direct MPI calls"};
  int repeats = 200;
  std::vector<int> sizesKiB{16, 256, 4096};
  // Five rounds of repeats / 5 each: fewer than 5 would time nothing.
  cli.add_option("--repeats", repeats, "calls per collective and size, over 5 rounds")->check(CLI::Range(5, 1000000));
  cli.add_option("--sizes-kib", sizesKiB, "full buffer sizes in KiB");
  CLI11_PARSE(cli, argc, argv);
  // The bench is its own launcher (plain mpirun): it reads the tuning once, as shardlab-run does.
  std::vector<std::string> envErrors;
  const Tuning tuning = readTuning(processEnvironment, envErrors);
  if (!envErrors.empty()) {
    for (const auto& e : envErrors) std::fprintf(stderr, "shardlab-bench-collectives: error: %s\n", e.c_str());
    return 2;
  }
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::FILE* sink = std::tmpfile();
  {
    // Scoped: the stream and the recorder (which flushes into `sink`) end before the
    // file is closed and MPI finalized (they used to outlive both: a crash at exit).
    Recorder recorder(sink, rank, {"unit"});
    const HandOffSpin spin = handOffSpinOnThisNode(MPI_COMM_WORLD, tuning.commSpin);
    CommStream sleeping(MPI_COMM_WORLD, recorder, nullptr, HandOffSpin{});
    CommStream polling(MPI_COMM_WORLD, recorder, nullptr, spin);
    if (rank == 0) {
      std::printf("%d ranks; polling stream: spin bound %lld us\n", size,
                  static_cast<long long>(std::chrono::duration_cast<std::chrono::microseconds>(spin.bound).count()));
      std::printf("%-15s %10s %12s %14s %14s %12s %12s\n", "collective", "size", "direct (us)", "sleeping (us)",
                  "polling (us)", "added, sleep", "added, poll");
    }
    for (int kib : sizesKiB) {
      const std::size_t full = static_cast<std::size_t>(kib) * 1024 / sizeof(float);
      const std::size_t shard = full / static_cast<std::size_t>(size);
      std::vector<float> a(full, 1.0f), b(full, 0.0f);
      struct Case {
        const char* name;
        std::function<void()> direct;
        std::function<void(CommStream&)> stream;
      };
      std::vector<Case> cases{
          {"all_gather",
           [&] { MPI_CHECK(MPI_Allgather(a.data(), static_cast<int>(shard), MPI_FLOAT, b.data(), static_cast<int>(shard), MPI_FLOAT, MPI_COMM_WORLD)); },
           [&](CommStream& comm) { comm.wait(comm.allGather(a.data(), b.data(), shard, {0, 0, -1}), 0); }},
          {"reduce_scatter",
           [&] { MPI_CHECK(MPI_Reduce_scatter_block(a.data(), b.data(), static_cast<int>(shard), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD)); },
           [&](CommStream& comm) { comm.wait(comm.reduceScatter(a.data(), b.data(), shard, {0, 0, -1}), 0); }},
          {"all_reduce",
           [&] { MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, a.data(), static_cast<int>(full), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD)); },
           [&](CommStream& comm) { comm.wait(comm.allReduce(a.data(), full, {0, 0, -1}), 0); }},
      };
      for (auto& c : cases) {
        // Alternate the three in rounds so drift on a shared machine hits them alike.
        std::vector<double> direct, slept, polled;
        for (int round = 0; round < 5; ++round) {
          direct.push_back(timeIt(c.direct, repeats / 5));
          slept.push_back(timeIt([&] { c.stream(sleeping); }, repeats / 5));
          polled.push_back(timeIt([&] { c.stream(polling); }, repeats / 5));
        }
        const double d = medianOf(direct), s = medianOf(slept), p = medianOf(polled);
        if (rank == 0)
          std::printf("%-15s %7d KiB %12.1f %14.1f %14.1f %+12.1f %+12.1f\n", c.name, kib, d * 1e6, s * 1e6, p * 1e6,
                      (s - d) * 1e6, (p - d) * 1e6);
      }
    }
  }
  std::fclose(sink);
  MPI_Finalize();
  return 0;
}
