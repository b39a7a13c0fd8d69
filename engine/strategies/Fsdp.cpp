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
#include "comm/MpiCheck.h"
#include "strategies/Strategy.h"
#include "strategies/UnitRunner.h"

namespace shardlab {
namespace {

using trace::Category;

class Fsdp final : public Strategy {
public:
  explicit Fsdp(StrategyContext ctx)
      : ctx_(ctx), sharding_(ctx.job.sharding), degree_(ctx.job.shardDegree()),
        replicatedParams_(sharding_ == Sharding::NoShard || sharding_ == Sharding::Optimizer),
        reshardAfterForward_(sharding_ == Sharding::Full || sharding_ == Sharding::Hybrid) {}

  void setup() override {
    shardComm_ = &ctx_.comm.world();
    if (sharding_ == Sharding::Hybrid && degree_ < ctx_.size) {
      // Shard groups are consecutive ranks (0..G-1, G..2G-1, ...); a replica group
      // takes the rank at the same position in every shard group.
      shardComm_ = &ctx_.comm.split(ctx_.rank / degree_, trace::CommGroup::Shard);
      replicaComm_ = &ctx_.comm.split(ctx_.rank % degree_, trace::CommGroup::Replicate);
    }
    slice_ = degree_ == 1 ? 0 : shardComm_->rank;

    const int U = ctx_.shape.unitCount();
    for (int u = 0; u < U; ++u) {
      const std::size_t n = ctx_.shape.unitSize(u);
      const std::size_t shard = ctx_.shape.shardSize(u, degree_); // padded size is shard * degree
      const std::size_t padded = shard * static_cast<std::size_t>(degree_);
      shardSize_.push_back(shard);
      const std::size_t first = static_cast<std::size_t>(slice_) * shard;
      if (replicatedParams_) {
        params_.push_back(ctx_.memory.allocate(Category::ParamReplica, u, padded));
        std::vector<float> init(padded, 0.0f);
        for (std::size_t i = 0; i < n; ++i) init[i] = initialValue(ctx_.shape, ctx_.job.seed, u, i);
        ctx_.device.copyToDevice(params_.back().data(), init.data(), padded * sizeof(float));
        grads_.push_back(ctx_.memory.allocate(Category::Grads, u, padded));
      } else {
        params_.push_back(ctx_.memory.allocate(Category::ParamShard, u, shard));
        std::vector<float> init(shard, 0.0f);
        for (std::size_t i = 0; i < shard && first + i < n; ++i)
          init[i] = initialValue(ctx_.shape, ctx_.job.seed, u, first + i);
        ctx_.device.copyToDevice(params_.back().data(), init.data(), shard * sizeof(float));
        grads_.push_back(ctx_.memory.allocate(Category::GradShard, u, shard));
      }
      m_.push_back(ctx_.memory.allocate(Category::OptimizerState, u, shard));
      v_.push_back(ctx_.memory.allocate(Category::OptimizerState, u, shard));
    }
    gathered_.resize(static_cast<std::size_t>(U));
    gatherTickets_.resize(static_cast<std::size_t>(U));
  }

  StepResult step(int step, const TokenBatch& global) override {
    const int U = ctx_.shape.unitCount();
    const int local = ctx_.job.batch / ctx_.size;
    const BackwardPrefetch backwardPrefetch = ctx_.job.backwardPrefetch;
    const auto batch = SyntheticLanguage::slice(global, ctx_.rank * local, local);
    UnitRunner runner(ctx_, batch.inputs.data(), batch.targets.data(), local,
                      1.0f / static_cast<float>(ctx_.job.batch), step);

    for (int u = 0; u < U; ++u) {
      if (!replicatedParams_) {
        allGather(u, step, false);
        if (ctx_.job.forwardPrefetch && u + 1 < U) allGather(u + 1, step, true);
        waitGathered(u, step);
      }
      runner.forward(u, fullParams(u));
      if (reshardAfterForward_) gathered_[static_cast<std::size_t>(u)].reset();
    }

    std::vector<Buffer> fullGrads(static_cast<std::size_t>(U));   // sharded stages: while reduce-scattered
    std::vector<Buffer> gradSlices(static_cast<std::size_t>(U));  // optimizer: the reduced slice, until the update
    std::vector<CommStream::Ticket> reductions(static_cast<std::size_t>(U));
    for (int u = U - 1; u >= 0; --u) {
      const auto i = static_cast<std::size_t>(u);
      const std::size_t shard = shardSize_[i], padded = shard * static_cast<std::size_t>(degree_);
      if (!replicatedParams_) {
        allGather(u, step, false);
        if (backwardPrefetch == BackwardPrefetch::Pre && u > 0) allGather(u - 1, step, true);
        waitGathered(u, step);
      }
      float* grad = nullptr;
      if (replicatedParams_) {
        ctx_.device.zero(grads_[i].data(), grads_[i].bytes()); // backward accumulates
        grad = grads_[i].data();
      } else {
        fullGrads[i] = ctx_.memory.allocate(Category::Grads, u, padded);
        grad = fullGrads[i].data();
      }
      runner.backward(u, fullParams(u), grad);
      gathered_[i].reset();
      if (backwardPrefetch == BackwardPrefetch::Post && u > 0 && !replicatedParams_) allGather(u - 1, step, true);

      const CollectiveTag tag{u, step, -1};
      switch (sharding_) {
      case Sharding::NoShard: reductions[i] = ctx_.comm.allReduce(grad, padded, tag); break;
      case Sharding::Optimizer:
        gradSlices[i] = ctx_.memory.allocate(Category::GradShard, u, shard);
        reductions[i] = ctx_.comm.reduceScatter(grad, gradSlices[i].data(), shard, tag);
        break;
      case Sharding::GradOp:
      case Sharding::Full:
      case Sharding::Hybrid:
        reductions[i] = ctx_.comm.reduceScatter(grad, grads_[i].data(), shard, tag, shardComm_);
        // Issued after the reduce-scatter on the same in-order stream, so it sums slices already reduced.
        if (replicaComm_) reductions[i] = ctx_.comm.allReduce(grads_[i].data(), shard, tag, replicaComm_);
        break;
      }
      // Free the full gradients whose reduction has already finished.
      for (int k = U - 1; k > u; --k)
        if (!fullGrads[static_cast<std::size_t>(k)].empty() && ctx_.comm.done(reductions[static_cast<std::size_t>(k)]))
          fullGrads[static_cast<std::size_t>(k)].reset();
    }

    const AdamWParams p = adamwParams(ctx_.job);
    std::vector<CommStream::Ticket> paramGathers(static_cast<std::size_t>(U));
    for (int u = U - 1; u >= 0; --u) {
      const auto i = static_cast<std::size_t>(u);
      const std::size_t shard = shardSize_[i];
      ctx_.comm.wait(reductions[i], step);
      fullGrads[i].reset();
      {
        ScopedOp op(ctx_.recorder, Kind::Optimizer, u, step);
        if (sharding_ == Sharding::NoShard)
          ctx_.device.adamw(params_[i].data(), grads_[i].data(), m_[i].data(), v_[i].data(), shard, p, step + 1);
        else if (sharding_ == Sharding::Optimizer)
          ctx_.device.adamw(params_[i].data() + static_cast<std::size_t>(slice_) * shard, gradSlices[i].data(),
                            m_[i].data(), v_[i].data(), shard, p, step + 1);
        else
          ctx_.device.adamw(params_[i].data(), grads_[i].data(), m_[i].data(), v_[i].data(), shard, p, step + 1);
      }
      if (sharding_ == Sharding::Optimizer) {
        gradSlices[i].reset();
        // Every rank updated its slice in place: gather the others' into the full parameters.
        float* full = params_[i].data();
        paramGathers[i] = ctx_.comm.allGather(full + static_cast<std::size_t>(slice_) * shard, full, shard,
                                              {u, step, -1});
      }
    }
    for (auto& t : paramGathers)
      if (t) ctx_.comm.wait(t, step);
    return {runner.lossSum(), local};
  }

  std::vector<float> fullParameters() override {
    std::vector<float> all;
    for (std::size_t u = 0; u < params_.size(); ++u) {
      const std::size_t shard = shardSize_[u], n = ctx_.shape.unitSize(static_cast<int>(u));
      std::vector<float> full(shard * static_cast<std::size_t>(degree_));
      if (replicatedParams_) {
        ctx_.device.copyToHost(full.data(), params_[u].data(), full.size() * sizeof(float));
      } else {
        std::vector<float> mine(shard);
        ctx_.device.copyToHost(mine.data(), params_[u].data(), shard * sizeof(float));
        MPI_CHECK(MPI_Allgather(mine.data(), static_cast<int>(shard), MPI_FLOAT, full.data(), static_cast<int>(shard),
                                MPI_FLOAT, shardComm_->comm));
      }
      full.resize(n); // drop the padding
      all.insert(all.end(), full.begin(), full.end());
    }
    return all;
  }

private:
  const float* fullParams(int u) const {
    const auto i = static_cast<std::size_t>(u);
    return replicatedParams_ ? params_[i].data() : gathered_[i].data();
  }

  int gatheredHeld() const {
    int held = 0;
    for (const auto& g : gathered_) held += g.empty() ? 0 : 1;
    return held;
  }

  // Issues unit u's all-gather unless its full parameters are held or on their way.
  // A prefetch waits (is not issued; the unit is gathered when needed) while
  // limit_all_gathers units' gathered parameters are held: the rate limiter.
  void allGather(int u, int step, bool prefetch) {
    const auto i = static_cast<std::size_t>(u);
    if (!gathered_[i].empty()) return;
    if (prefetch && ctx_.job.limitAllGathers && gatheredHeld() >= *ctx_.job.limitAllGathers) return;
    gathered_[i] = ctx_.memory.allocate(Category::GatheredParams, u, shardSize_[i] * static_cast<std::size_t>(degree_));
    gatherTickets_[i] = ctx_.comm.allGather(params_[i].data(), gathered_[i].data(), shardSize_[i], {u, step, -1},
                                            shardComm_);
  }

  void waitGathered(int u, int step) {
    auto& t = gatherTickets_[static_cast<std::size_t>(u)];
    if (t) ctx_.comm.wait(t, step);
    t.reset();
  }

  StrategyContext ctx_;
  Sharding sharding_;
  int degree_;                    // ranks sharing one unit's slices
  bool replicatedParams_;         // no-shard, optimizer: every rank holds the full parameters
  bool reshardAfterForward_;      // full, hybrid: free the gathered parameters after each forward
  const Communicator* shardComm_ = nullptr;   // the ranks sharing the slices (world unless hybrid)
  const Communicator* replicaComm_ = nullptr; // hybrid: the ranks holding the same slice
  int slice_ = 0;                 // this rank's position in its shard group
  std::vector<std::size_t> shardSize_;
  // params_: the full parameters (replicated stages) or this rank's slice; grads_: the
  // full gradients (replicated stages) or the reduced slice.
  std::vector<Buffer> params_, grads_, m_, v_, gathered_;
  std::vector<CommStream::Ticket> gatherTickets_;
};

} // namespace

std::unique_ptr<Strategy> makeFsdp(StrategyContext ctx) { return std::make_unique<Fsdp>(ctx); }

} // namespace shardlab
