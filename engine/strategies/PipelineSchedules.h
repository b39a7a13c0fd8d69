// The pipeline schedules: for one rank, the order in which it runs the forward (F)
// and backward of each micro-batch on each of its chunks; the zero-bubble schedules
// run the backward as two ops, the input gradient (B) and the weight gradients (W). A schedule is only an
// order; Pipeline.cpp runs it, receiving what each op needs from the neighbouring
// stage and sending what it produces. Each schedule is one function that reads like
// the diagram in its paper (p stages, m micro-batches, rank r, V chunks per rank).
#pragma once

#include "job/JobConfig.h"

#include <vector>

namespace shardlab {

struct PipeOp {
  // Backward: the whole backward. BackwardInput (B) and BackwardWeight (W): its two
  // halves, in that order (UnitRunner::backwardInput, backwardWeight).
  enum Kind { Forward, Backward, BackwardInput, BackwardWeight } kind;
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

// Zero Bubble Pipeline Parallelism (Qi, Wan, Huang, Lin, ICLR 2024), its handcrafted
// schedules. Both run `warmup` forwards, then for each micro-batch k in turn: B(k),
// the W that has waited `lag` micro-batches, the next F; then the W's still waiting.
// ZB-H1: warmup p - r, lag r. Every rank holds at most p micro-batches (F run, W not
// yet): 1F1B's peak (its rank 0). The W's that rank r lets wait fill the time it would
// otherwise wait for gradients; with T_F = T_B = T_W the bubble is (p - 1) T_W per
// rank, a third of 1F1B's (p - 1)(T_F + T_B + T_W).
PipeSchedule zbH1Schedule(int p, int rank, int m);
// ZB-H2: warmup 2(p - r) - 1, lag 2r: at most 2p - 1 micro-batches on every rank. The
// extra forwards fill the wait for the first gradient, the waiting W's the drain: with
// T_F = T_B = T_W and m >= 2p - 1 no rank waits between its first op and its last.
PipeSchedule zbH2Schedule(int p, int rank, int m);

PipeSchedule scheduleFor(Schedule schedule, int p, int rank, int m, int V);

} // namespace shardlab
