// A real one-rank job on the GPU through shardlab-run (and mpirun): --device cuda
// gives NCCL on one rank; its trace must carry devmem records and a rank record
// naming the GPU. Skipped without a GPU.
#include "cuda/CudaDevice.h"
#include "RunShardlab.h"
#include "trace/TraceReader.h"

#include "RequireGpu.h"

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

namespace shardlab {
namespace {

using testing::freshDir;
using testing::runShardlab;

TEST(GpuJob, OneRankCudaJobRecordsDeviceMemoryAndTheGpu) {
  SHARDLAB_NEED_GPU();
  const std::string gpuName = cudaDeviceInfo(0).name;
  // The query made this process's primary context: give it back (as the launcher does
  // after its own query), so a GPU in EXCLUSIVE_PROCESS mode is free for the job's rank.
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  for (const std::string strategy : {"ddp", "fsdp"}) {
    const auto dir = freshDir("gpu-" + strategy);
    const std::string traceFile = dir + "/run.trace";
    auto r = runShardlab({"--strategy", strategy, "--ranks", "1", "--device", "cuda", "--layers", "2", "--hidden", "32",
                          "--vocab", "32", "--batch", "24", "--steps", "3", "--trace", traceFile, "-q"},
                         {}, 180);
    ASSERT_EQ(r.status, 0) << r.err;
    auto read = trace::readTraceFile(traceFile);
    ASSERT_TRUE(read.ok()) << read.error->describe(traceFile);
    const auto& tr = read.trace;
    const auto* rank0 = tr.rankInfo(0);
    ASSERT_NE(rank0, nullptr);
    EXPECT_EQ(rank0->meta.value("device_name", ""), gpuName);
    EXPECT_EQ(rank0->meta.value("communication", ""), "NCCL");
    ASSERT_TRUE(rank0->meta.contains("gpu"));
    for (const char* key : {"driver", "cuda_runtime", "nccl", "pci_bus_id"})
      EXPECT_TRUE(rank0->meta["gpu"].contains(key)) << key;
    int devmem = 0, ops = 0;
    for (const auto& e : tr.events) {
      if (e.record == trace::Record::DeviceMemory) {
        ++devmem;
        EXPECT_GT(e.total, 0);
        EXPECT_LE(e.value, e.total);
      }
      if (e.record == trace::Record::Op) {
        ++ops;
        EXPECT_LE(e.t0, e.t1);
      }
    }
    EXPECT_GE(devmem, 1 + 3) << "one at start, one per step";
    EXPECT_GT(ops, 0);
  }
}

} // namespace
} // namespace shardlab
