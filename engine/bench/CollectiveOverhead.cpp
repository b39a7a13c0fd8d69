// Benchmark: what the communication stream adds over a direct MPI call of the same
// size. Alternates CommStream::allGather/reduceScatter/allReduce (enqueue, run on the
// communication thread, record, wait) with MPI_Allgather/MPI_Reduce_scatter_block/
// MPI_Allreduce called directly, and prints the medians and their ratio.
//   mpirun -np 2 shardlab-bench-collectives
#include "comm/CommStream.h"
#include "comm/MpiCheck.h"
#include "core/Recorder.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>
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
  cli.add_option("--repeats", repeats);
  cli.add_option("--sizes-kib", sizesKiB, "full buffer sizes in KiB");
  CLI11_PARSE(cli, argc, argv);
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
    CommStream comm(MPI_COMM_WORLD, recorder);
    if (rank == 0) std::printf("%-15s %10s %14s %14s %10s\n", "collective", "size", "direct (us)", "stream (us)", "overhead");
    for (int kib : sizesKiB) {
      const std::size_t full = static_cast<std::size_t>(kib) * 1024 / sizeof(float);
      const std::size_t shard = full / static_cast<std::size_t>(size);
      std::vector<float> a(full, 1.0f), b(full, 0.0f);
      struct Case {
        const char* name;
        std::function<void()> direct, stream;
      };
      std::vector<Case> cases{
          {"all_gather",
           [&] { MPI_CHECK(MPI_Allgather(a.data(), static_cast<int>(shard), MPI_FLOAT, b.data(), static_cast<int>(shard), MPI_FLOAT, MPI_COMM_WORLD)); },
           [&] { comm.wait(comm.allGather(a.data(), b.data(), shard, {0, 0, -1}), 0); }},
          {"reduce_scatter",
           [&] { MPI_CHECK(MPI_Reduce_scatter_block(a.data(), b.data(), static_cast<int>(shard), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD)); },
           [&] { comm.wait(comm.reduceScatter(a.data(), b.data(), shard, {0, 0, -1}), 0); }},
          {"all_reduce",
           [&] { MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, a.data(), static_cast<int>(full), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD)); },
           [&] { comm.wait(comm.allReduce(a.data(), full, {0, 0, -1}), 0); }},
      };
      for (auto& c : cases) {
        // Alternate the two in rounds so drift on a shared machine hits both alike.
        std::vector<double> direct, stream;
        for (int round = 0; round < 5; ++round) {
          direct.push_back(timeIt(c.direct, repeats / 5));
          stream.push_back(timeIt(c.stream, repeats / 5));
        }
        const double d = medianOf(direct), s = medianOf(stream);
        if (rank == 0)
          std::printf("%-15s %7d KiB %14.1f %14.1f %+9.1f%%\n", c.name, kib, d * 1e6, s * 1e6, (s / d - 1.0) * 100.0);
      }
    }
  }
  std::fclose(sink);
  MPI_Finalize();
  return 0;
}
