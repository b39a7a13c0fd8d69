// Which units each pipeline stage owns. The model's units (embedding, block0..L-1,
// output) are cut into C = p * V contiguous model chunks; model chunk c lives on rank
// c % p as that rank's local chunk c / p. Without interleaving (V = 1) chunk c is
// simply stage c on rank c; with the interleaved schedule rank r holds the V
// non-adjacent chunks r, p + r, 2p + r, ... (Megatron-LM's virtual pipeline stages).
#pragma once

#include "job/JobConfig.h"
#include "core/Model.h"

#include <vector>

namespace shardlab {

struct StagePlan {
  int ranks = 1;         // p
  int virtualStages = 1; // V: chunks per rank
  std::vector<int> firstUnit; // C + 1 entries: chunk c holds units [firstUnit[c], firstUnit[c + 1])

  int chunkCount() const { return static_cast<int>(firstUnit.size()) - 1; }
  int modelChunk(int rank, int local) const { return local * ranks + rank; }
  int rankOf(int chunk) const { return chunk % ranks; }
  int firstOf(int chunk) const { return firstUnit[static_cast<std::size_t>(chunk)]; }
  int lastOf(int chunk) const { return firstUnit[static_cast<std::size_t>(chunk) + 1] - 1; }
  int chunkOfUnit(int unit) const;
  int rankOfUnit(int unit) const { return rankOf(chunkOfUnit(unit)); }
};

// What a unit weighs when stages are balanced: its parameters (the memory a stage
// holds: parameters, gradients and AdamW state all scale with them) plus its GEMM
// parameters (each multiplies every token: the compute). The embedding is a table
// lookup, so it weighs its memory only.
double unitCost(const ModelShape& shape, int unit);

// The stage plan of a pipeline job: `job.stages` when given (unit counts per model
// chunk), otherwise the contiguous split that minimises the heaviest chunk's cost.
StagePlan planStages(const ModelShape& shape, const JobConfig& job);

} // namespace shardlab
