// One unit's state on this rank as flat buffers, shared by the strategies: its
// parameters, gradient and AdamW moments, and inside a step what a data-parallel
// strategy holds while it gathers the parameters and reduces the gradient (the
// gathered unit, the full gradient, the reduced slices, their tickets and the bf16
// wire). A FlatUnit is what PyTorch's FSDP calls a flat parameter and DDP a bucket
// (one bucket per unit); its operations issue the collectives on the communication
// stream and finish them, in the order the strategy calls them.
#pragma once

#include "strategies/Strategy.h"

#include <cstddef>
#include <vector>

namespace shardlab {

// How a unit's slices lie on the ranks: `degree` ranks share them (1: each rank holds
// the unit whole) over `shards`; under hybrid sharding `replicas` is the group of
// ranks holding the same slice, whose reduced slices are all-reduced. Which values
// travel as bf16: the gathered parameters, the reduced gradients.
struct ShardGroup {
  int degree = 1;
  int position = 0;                       // this rank's slice among the `degree`
  const Communicator* shards = nullptr;   // null: the job's communicator
  const Communicator* replicas = nullptr; // hybrid only
  bool bf16Params = false, bf16Reduce = false;
};

struct FlatUnit {
  int unit = -1;
  // The values this rank updates: the whole unit, or its slice of the unit padded to
  // a multiple of the shard degree. The moments have this size.
  std::size_t shard = 0;
  // The parameters and gradient this rank keeps between steps: the whole unit, or
  // (sharded, `sliced`) its slice of the parameters and the reduced slice of the gradient.
  Buffer param, grad, m, v;
  bool sliced = false;

  // Inside a step.
  Buffer gathered;   // sliced: the full parameters, from their all-gather until freed
  Buffer fullGrad;   // sliced: the full gradient, from its backward until reduced
  Buffer gradSlice;  // whole parameters, reduce-scattered gradient (ZeRO-1): the slice until the update
  Buffer microGrad;  // whole gradient: a later micro-step's, all-reduced in place, until added to `grad`
  Buffer microSlice; // a later micro-step's reduced slice, until added to the slice's sum
  // The last all-gather issued (into `gathered`; under ZeRO-1, the updated slices into
  // `param`) and the last reduction.
  CommStream::Ticket gathering, reduction;
  // bf16 on the wire, packed two values a float word (comm buffers): while the unit is
  // gathered, this rank's slice and the gathered unit; while its gradient is reduced,
  // the full gradient and the reduced slice.
  struct Bf16Wire {
    Buffer sent, gathered, grad, slice;
  } wire;

  // The full parameters the forward and backward read.
  const float* fullParams() const { return sliced ? gathered.data() : param.data(); }

  // Allocates `gathered` and issues the all-gather of the slices into it (bf16: packs
  // this rank's slice and gathers the packed words; waitGathered upcasts them).
  void gather(StrategyContext& ctx, const ShardGroup& group, CollectiveTag tag);
  void waitGathered(StrategyContext& ctx, const ShardGroup& group, int step, int micro);

  // Where a micro-step's backward accumulates a whole gradient that is all-reduced in
  // place: `grad`, zeroed at the first micro-step, or for a fresh reduction (MicroStep)
  // a new `microGrad`.
  float* allReducedGradient(StrategyContext& ctx, const MicroStep& micro);

  // The reductions of the full gradient `full` this micro-step computed. allReduce
  // sums it in place (DDP, no-shard). reduceScatter leaves this rank's slice of the
  // sum in `grad` (sliced) or a new `gradSlice` (whole parameters), in bf16 when the
  // group says so, then all-reduces it across the replicas (hybrid). `fresh`: a later
  // micro-step's, whose result goes to `microSlice` until finishReduction adds it.
  void allReduce(StrategyContext& ctx, float* full, CollectiveTag tag);
  void reduceScatter(StrategyContext& ctx, const ShardGroup& group, const float* full, bool fresh, CollectiveTag tag);
  // Frees the full gradient (and its bf16 copy) once its reduction is done, without waiting.
  void freeGradientIfReduced(StrategyContext& ctx);
  // Waits for the reduction and frees the full gradient; a bf16 result is upcast into
  // its slice, and a later micro-step's own result is added to the sum.
  void finishReduction(StrategyContext& ctx, int step, int micro);

  // One AdamW step on the `shard` values at `values` with `gradient` (by default the
  // unit's parameters and gradient), recorded as the unit's optimizer op.
  void adamw(StrategyContext& ctx, int step) { adamw(ctx, step, param.data(), grad.data()); }
  void adamw(StrategyContext& ctx, int step, float* values, const float* gradient);

  // The parameters this rank holds, on the host.
  std::vector<float> paramsOnHost(Device& device) const;
};

// The state of a unit this rank holds whole (DDP, a tensor-parallel slice, a pipeline
// stage's unit, FSDP's no-shard and optimizer stages), allocated in this order:
// parameters (set to `init`), gradient, AdamW's m and v (`moments` values each).
FlatUnit replicatedState(StrategyContext& ctx, int unit, const std::vector<float>& init, std::size_t moments);
inline FlatUnit replicatedState(StrategyContext& ctx, int unit, const std::vector<float>& init) {
  return replicatedState(ctx, unit, init, init.size());
}
// FSDP's sliced state (grad-op, full, hybrid): this rank's slice of the parameters
// (set to `init`), of the gradient and of the moments, in the same order.
FlatUnit slicedState(StrategyContext& ctx, int unit, const std::vector<float>& init);

} // namespace shardlab
