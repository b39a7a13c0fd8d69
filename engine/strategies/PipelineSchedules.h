// The pipeline schedules: for one rank, the order in which it runs the forward (F)
// and backward (B) of each micro-batch on each of its chunks. A schedule is only an
// order; Pipeline.cpp runs it, receiving what each op needs from the neighbouring
// stage and sending what it produces. Each schedule is one function that reads like
// the diagram in its paper (p stages, m micro-batches, rank r, V chunks per rank).
#pragma once

#include "job/JobConfig.h"

#include <vector>

namespace shardlab {

struct PipeOp {
  enum Kind { Forward, Backward } kind;
  int chunk; // this rank's local chunk (0 unless interleaved)
  int micro; // micro-batch
};
using PipeSchedule = std::vector<PipeOp>;

// The whole batch as one micro-batch: F then B; every other stage waits.
PipeSchedule naiveSchedule();
// GPipe (Huang et al., 2019): all m forwards, then all m backwards.
PipeSchedule gpipeSchedule(int m);
// 1F1B, PipeDream-Flush (Narayanan et al., 2021): p - r - 1 warm-up forwards, then one
// forward and one backward in turn, then the remaining backwards.
PipeSchedule oneFOneBSchedule(int p, int rank, int m);
// Megatron-LM's interleaved 1F1B (Narayanan et al., SC'21): 1F1B over the rank's V
// chunks, switching chunk every p micro-batches.
PipeSchedule interleavedSchedule(int p, int rank, int m, int V);

PipeSchedule scheduleFor(Schedule schedule, int p, int rank, int m, int V);

} // namespace shardlab
