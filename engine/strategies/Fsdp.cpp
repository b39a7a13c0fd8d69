// FSDP, with PyTorch's semantics and names, and the ZeRO stages (docs/sharding.md).
// Each unit is one flat parameter, padded to a multiple of the shard degree D (all
// ranks; 1 under no-shard; the shard group under hybrid); the rank at position s of
// its shard group owns the slice [s*S, (s+1)*S) of it, of its gradient and of its
// AdamW state.
//
//   sharding   params held       gradients                         optimizer
//   no-shard   in full           full, all-reduced                 AdamW on everything
//   optimizer  in full           full, reduce-scattered to slices  AdamW on the slice, then
//                                                                  all-gather the parameters
//   grad-op    slice; gathered   full while computed, then         AdamW on the slice
//              in the forward,   reduce-scattered to slices
//              kept to backward
//   full       slice; gathered   as grad-op                        as grad-op
//              per unit, freed
//              after each use
//   hybrid     as full, inside   reduce-scattered in the shard     as grad-op
//              the shard group   group, then all-reduced across
//                                groups (the replicas)
//
// Prefetch issues an all-gather before its unit needs it, so the communication
// thread gathers while the compute thread works: the next unit's in the forward
// (forward_prefetch), the previous unit's in the backward, before this unit's
// gradient computation (backward_prefetch pre) or after it (post). A limit on all-
// gathers holds back a prefetch while that many units' gathered parameters are held.
//
// Gradient accumulation (accumulate K) runs K micro-steps, each a forward and backward
// of 1/K of the rank's rows, then one optimizer step. Without no_sync each micro-step
// reduces its gradients (a later one into a fresh slice, added to the sum once
// reduced); with no_sync (PyTorch's) the sharded stages keep each unit's full gradient
// over the micro-steps, accumulating, and reduce it once, at the last: one reduction
// per unit per step instead of K, for full-size gradients held the whole step.
// Activation checkpointing is UnitRunner's: its recompute uses the parameters the
// backward has just gathered.
//
// Mixed precision (param_dtype, reduce_dtype bf16; grad-op, full, hybrid): the master
// slices and AdamW stay fp32. A gather packs this rank's slice into bf16 (two values a
// float word, rounded to nearest even) and all-gathers the packed words: half the
// bytes. The compute thread then upcasts the gathered unit to fp32 and computes in
// fp32 (CPU ranks have no bf16 arithmetic). A bf16 reduction packs the full gradient
// the same way and reduce-scatters it with a bf16 sum (Transport: a user-defined
// MPI_Op that adds in fp32 and rounds each partial sum to bf16); the reduced slice is
// upcast into the fp32 gradient slice the optimizer reads.
#include "comm/MpiCheck.h"
#include "strategies/FlatUnit.h"
#include "strategies/Strategy.h"
#include "strategies/UnitRunner.h"

#include <algorithm>
#include <utility>

namespace shardlab {
namespace {

using trace::Category;

class Fsdp final : public Strategy {
public:
  explicit Fsdp(StrategyContext ctx)
      : ctx_(ctx), sharding_(ctx.job.sharding),
        sliced_(sharding_ != Sharding::NoShard && sharding_ != Sharding::Optimizer),
        reshardAfterForward_(sharding_ == Sharding::Full || sharding_ == Sharding::Hybrid) {}

  void setup() override {
    group_.bf16Params = ctx_.job.paramDtype == Dtype::Bf16;
    group_.bf16Reduce = ctx_.job.reduceDtype == Dtype::Bf16;
    if ((group_.bf16Params || group_.bf16Reduce) && ctx_.device.kind() != "cpu")
      throw std::runtime_error("FSDP mixed precision (bf16) runs on CPU ranks only in this version: its conversions "
                               "and its bf16 sum are host code on Open MPI");
    group_.degree = ctx_.job.shardDegree();
    group_.shards = &ctx_.comm.world();
    if (sharding_ == Sharding::Hybrid && group_.degree < ctx_.size) {
      // Shard groups are consecutive ranks (0..G-1, G..2G-1, ...); a replica group
      // takes the rank at the same position in every shard group.
      group_.shards = &ctx_.comm.split(ctx_.rank / group_.degree, trace::CommGroup::Shard);
      group_.replicas = &ctx_.comm.split(ctx_.rank % group_.degree, trace::CommGroup::Replicate);
    }
    group_.position = group_.degree == 1 ? 0 : group_.shards->rank;

    for (int u = 0; u < ctx_.shape.unitCount(); ++u) {
      const std::size_t n = ctx_.shape.unitSize(u);
      const std::size_t shard = ctx_.shape.shardSize(u, group_.degree); // padded size is shard * degree
      // Padding past the unit's n values is zero; a sliced rank initialises only its slice.
      const std::size_t first = sliced_ ? static_cast<std::size_t>(group_.position) * shard : 0;
      std::vector<float> init(sliced_ ? shard : shard * static_cast<std::size_t>(group_.degree), 0.0f);
      for (std::size_t i = 0; i < init.size() && first + i < n; ++i)
        init[i] = initialValue(ctx_.shape, ctx_.job.seed, u, first + i);
      units_.push_back(sliced_ ? slicedState(ctx_, u, init) : replicatedState(ctx_, u, init, shard));
    }
  }

  StepResult step(int step, const TokenBatch& global) override {
    const int U = ctx_.shape.unitCount();
    const BackwardPrefetch backwardPrefetch = ctx_.job.backwardPrefetch;
    const StepResult result = runMicroSteps(
        ctx_, step, global,
        [&](UnitRunner& runner, const MicroStep& micro) {
          micro_ = micro.micro;
          // Parameters held: a sliced unit is gathered (forward_prefetch: the next one with it), and
          // under full and hybrid freed after its forward.
          for (int u = 0; u < U; ++u) {
            if (sliced_) gatherFor(u, step, ctx_.job.forwardPrefetch ? u + 1 : -1);
            runner.forward(u, units_[index(u)].fullParams());
            if (reshardAfterForward_) units_[index(u)].gathered.reset();
          }
          // Gradients: computed with the unit gathered again where freed (backward_prefetch pre:
          // the previous unit's all-gather issued before, post: after), then reduced.
          for (int u = U - 1; u >= 0; --u) {
            FlatUnit& unit = units_[index(u)];
            if (sliced_) gatherFor(u, step, backwardPrefetch == BackwardPrefetch::Pre ? u - 1 : -1);
            float* grad = gradientBuffer(unit, micro);
            runner.backward(u, unit.fullParams(), grad);
            unit.gathered.reset();
            if (sliced_ && backwardPrefetch == BackwardPrefetch::Post && u > 0) gather(u - 1, step, true);
            if (!micro.reduces) continue; // no_sync: no reduction before the last micro-step
            const CollectiveTag tag{u, step, micro_};
            if (sharding_ == Sharding::NoShard) unit.allReduce(ctx_, grad, tag);
            else unit.reduceScatter(ctx_, group_, grad, micro.fresh, tag);
            // Free the full gradients of the later units whose reduction has already finished.
            for (int j = U - 1; j > u && sliced_; --j) units_[index(j)].freeGradientIfReduced(ctx_);
          }
        },
        [&] {
          for (int u = U - 1; u >= 0; --u) units_[index(u)].finishReduction(ctx_, step, micro_);
        });

    // Optimizer: AdamW on this rank's slice (no-shard: on everything); under the optimizer
    // stage every rank then all-gathers the others' updated slices into its full parameters.
    for (int u = U - 1; u >= 0; --u) {
      FlatUnit& unit = units_[index(u)];
      unit.finishReduction(ctx_, step, micro_);
      if (sharding_ != Sharding::Optimizer) {
        unit.adamw(ctx_, step);
        continue;
      }
      float* full = unit.param.data();
      float* mine = full + static_cast<std::size_t>(group_.position) * unit.shard;
      unit.adamw(ctx_, step, mine, unit.gradSlice.data());
      unit.gradSlice.reset();
      unit.gathering = ctx_.comm.allGather(mine, full, unit.shard, {u, step, -1});
    }
    for (FlatUnit& unit : units_)
      if (unit.gathering) ctx_.comm.wait(std::exchange(unit.gathering, {}), step);
    return result;
  }

  std::vector<float> fullParameters() override {
    std::vector<float> all;
    for (const FlatUnit& unit : units_) {
      std::vector<float> full = unit.paramsOnHost(ctx_.device);
      if (unit.sliced) {
        std::vector<float> slices(unit.shard * static_cast<std::size_t>(group_.degree));
        MPI_CHECK(MPI_Allgather(full.data(), static_cast<int>(unit.shard), MPI_FLOAT, slices.data(),
                                static_cast<int>(unit.shard), MPI_FLOAT, group_.shards->comm));
        full = std::move(slices);
      }
      full.resize(ctx_.shape.unitSize(unit.unit)); // drop the padding
      all.insert(all.end(), full.begin(), full.end());
    }
    return all;
  }

private:
  static std::size_t index(int u) { return static_cast<std::size_t>(u); }

  // Gathers unit u (and issues `prefetch`'s all-gather after it, when it is a unit)
  // and waits until u's full parameters are here.
  void gatherFor(int u, int step, int prefetch) {
    gather(u, step, false);
    if (prefetch >= 0 && prefetch < ctx_.shape.unitCount()) gather(prefetch, step, true);
    units_[index(u)].waitGathered(ctx_, group_, step, micro_);
  }

  // Issues unit u's all-gather unless its full parameters are held or on their way.
  // A prefetch waits (is not issued; the unit is gathered when needed) while
  // limit_all_gathers units' gathered parameters are held: the rate limiter.
  void gather(int u, int step, bool prefetch) {
    FlatUnit& unit = units_[index(u)];
    if (!unit.gathered.empty()) return;
    if (prefetch && ctx_.job.limitAllGathers) {
      const auto held = std::count_if(units_.begin(), units_.end(), [](const FlatUnit& f) { return !f.gathered.empty(); });
      if (held >= *ctx_.job.limitAllGathers) return;
    }
    unit.gather(ctx_, group_, {u, step, micro_});
  }

  // Where a micro-step's backward accumulates the unit's full gradient. No-shard: the
  // gradient, all-reduced in place (MicroStep's fresh buffer rule). Optimizer: the
  // full gradient, zeroed whenever it was reduce-scattered since. Sliced: a full
  // gradient allocated for the micro-step, or under no_sync kept over the micro-steps.
  float* gradientBuffer(FlatUnit& unit, const MicroStep& micro) {
    if (sharding_ == Sharding::NoShard) return unit.allReducedGradient(ctx_, micro);
    if (!sliced_) {
      if (micro.first() || micro.fresh) ctx_.device.zero(unit.grad.data(), unit.grad.bytes()); // backward accumulates
      return unit.grad.data();
    }
    if (unit.fullGrad.empty())
      unit.fullGrad = ctx_.memory.allocate(Category::Grads, unit.unit, unit.shard * static_cast<std::size_t>(group_.degree));
    return unit.fullGrad.data();
  }

  StrategyContext ctx_;
  Sharding sharding_;
  bool sliced_;              // grad-op, full, hybrid: each rank holds its slice of the parameters
  bool reshardAfterForward_; // full, hybrid: free the gathered parameters after each forward
  ShardGroup group_;
  std::vector<FlatUnit> units_;
  int micro_ = -1; // the micro-step running (-1 without accumulation), for the records
};

} // namespace

std::unique_ptr<Strategy> makeFsdp(StrategyContext ctx) { return std::make_unique<Fsdp>(ctx); }

} // namespace shardlab
