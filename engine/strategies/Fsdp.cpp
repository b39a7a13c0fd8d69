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
#include "core/Bf16.h"
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
        reshardAfterForward_(sharding_ == Sharding::Full || sharding_ == Sharding::Hybrid),
        bf16Params_(ctx.job.paramDtype == Dtype::Bf16), bf16Reduce_(ctx.job.reduceDtype == Dtype::Bf16) {}

  void setup() override {
    if ((bf16Params_ || bf16Reduce_) && ctx_.device.kind() != "cpu")
      throw std::runtime_error("FSDP mixed precision (bf16) runs on CPU ranks only in this version: its conversions "
                               "and its bf16 sum are host code on Open MPI");
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
    fullGrads_.resize(static_cast<std::size_t>(U));
    gradSlices_.resize(static_cast<std::size_t>(U));
    microSlices_.resize(static_cast<std::size_t>(U));
    reductions_.resize(static_cast<std::size_t>(U));
    sent16_.resize(static_cast<std::size_t>(U));
    gathered16_.resize(static_cast<std::size_t>(U));
    grad16_.resize(static_cast<std::size_t>(U));
    slice16_.resize(static_cast<std::size_t>(U));
  }

  StepResult step(int step, const TokenBatch& global) override {
    const int U = ctx_.shape.unitCount();
    const int K = ctx_.job.accumulate;
    const bool reduceEach = K > 1 && !ctx_.job.noSync; // every micro-step reduces its gradients
    const int local = ctx_.job.batch / ctx_.size, rows = local / K;
    const BackwardPrefetch backwardPrefetch = ctx_.job.backwardPrefetch;
    double lossSum = 0.0;

    for (int k = 0; k < K; ++k) {
      const bool last = k == K - 1;
      micro_ = K > 1 ? k : -1;
      const auto batch = SyntheticLanguage::slice(global, ctx_.rank * local + k * rows, rows);
      UnitRunner runner(ctx_, batch.inputs.data(), batch.targets.data(), rows,
                        1.0f / static_cast<float>(ctx_.job.batch), step, micro_);

      for (int u = 0; u < U; ++u) {
        if (!replicatedParams_) {
          allGather(u, step, false);
          if (ctx_.job.forwardPrefetch && u + 1 < U) allGather(u + 1, step, true);
          waitGathered(u, step);
        }
        runner.forward(u, fullParams(u));
        if (reshardAfterForward_) gathered_[static_cast<std::size_t>(u)].reset();
      }

      for (int u = U - 1; u >= 0; --u) {
        const auto i = static_cast<std::size_t>(u);
        const std::size_t shard = shardSize_[i], padded = shard * static_cast<std::size_t>(degree_);
        if (!replicatedParams_) {
          allGather(u, step, false);
          if (backwardPrefetch == BackwardPrefetch::Pre && u > 0) allGather(u - 1, step, true);
          waitGathered(u, step);
        }
        // A micro-step after the first that reduces its own gradient needs a fresh
        // result buffer: the reductions sum over ranks, so a gradient that already
        // holds the reduced sum of earlier micro-steps cannot be reduced again.
        const bool fresh = reduceEach && k > 0;
        float* grad = nullptr;
        if (replicatedParams_) {
          if (sharding_ == Sharding::NoShard && fresh) {
            fullGrads_[i] = ctx_.memory.allocate(Category::Grads, u, padded); // all-reduced in place, then added
            grad = fullGrads_[i].data();
          } else {
            if (k == 0 || reduceEach) ctx_.device.zero(grads_[i].data(), grads_[i].bytes()); // backward accumulates
            grad = grads_[i].data();
          }
        } else {
          // no_sync: the full gradient is kept over the micro-steps and accumulates.
          if (fullGrads_[i].empty()) fullGrads_[i] = ctx_.memory.allocate(Category::Grads, u, padded);
          grad = fullGrads_[i].data();
        }
        runner.backward(u, fullParams(u), grad);
        gathered_[i].reset();
        if (backwardPrefetch == BackwardPrefetch::Post && u > 0 && !replicatedParams_) allGather(u - 1, step, true);
        if (!reduceEach && !last) continue; // no_sync: no reduction before the last micro-step

        const CollectiveTag tag{u, step, micro_};
        switch (sharding_) {
        case Sharding::NoShard: reductions_[i] = ctx_.comm.allReduce(grad, padded, tag); break;
        case Sharding::Optimizer: {
          Buffer& slice = fresh ? microSlices_[i] : gradSlices_[i];
          slice = ctx_.memory.allocate(Category::GradShard, u, shard);
          reductions_[i] = ctx_.comm.reduceScatter(grad, slice.data(), shard, tag);
          break;
        }
        case Sharding::GradOp:
        case Sharding::Full:
        case Sharding::Hybrid: {
          float* slice = grads_[i].data();
          if (fresh) {
            microSlices_[i] = ctx_.memory.allocate(Category::GradShard, u, shard);
            slice = microSlices_[i].data();
          }
          if (bf16Reduce_) {
            // The full gradient in bf16, slice by slice; the fp32 one is no longer needed.
            const std::size_t w = words(shard);
            grad16_[i] = ctx_.memory.allocate(Category::CommBuffers, u, w * static_cast<std::size_t>(degree_));
            for (int r = 0; r < degree_; ++r)
              packBf16(grad + static_cast<std::size_t>(r) * shard, grad16_[i].data() + static_cast<std::size_t>(r) * w,
                       shard);
            fullGrads_[i].reset();
            slice16_[i] = ctx_.memory.allocate(Category::CommBuffers, u, w); // upcast into `slice` when reduced
            reductions_[i] = ctx_.comm.reduceScatter(grad16_[i].data(), slice16_[i].data(), w, tag, shardComm_, true);
            if (replicaComm_) reductions_[i] = ctx_.comm.allReduce(slice16_[i].data(), w, tag, replicaComm_, true);
            break;
          }
          reductions_[i] = ctx_.comm.reduceScatter(grad, slice, shard, tag, shardComm_);
          // Issued after the reduce-scatter on the same in-order stream, so it sums slices already reduced.
          if (replicaComm_) reductions_[i] = ctx_.comm.allReduce(slice, shard, tag, replicaComm_);
          break;
        }
        }
        // Free the full gradients whose reduction has already finished.
        for (int j = U - 1; j > u && !replicatedParams_; --j) {
          const auto q = static_cast<std::size_t>(j);
          if (reductions_[q] && ctx_.comm.done(reductions_[q])) {
            fullGrads_[q].reset();
            grad16_[q].reset();
          }
        }
      }
      lossSum += runner.lossSum();
      // A micro-step that reduced: its reduced gradients join the sum before the next one.
      if (!last && reduceEach)
        for (int u = U - 1; u >= 0; --u) finishReduction(u, step);
    }

    const AdamWParams p = adamwParams(ctx_.job);
    std::vector<CommStream::Ticket> paramGathers(static_cast<std::size_t>(U));
    for (int u = U - 1; u >= 0; --u) {
      const auto i = static_cast<std::size_t>(u);
      const std::size_t shard = shardSize_[i];
      finishReduction(u, step);
      {
        ScopedOp op(ctx_.recorder, Kind::Optimizer, u, step);
        if (sharding_ == Sharding::NoShard)
          ctx_.device.adamw(params_[i].data(), grads_[i].data(), m_[i].data(), v_[i].data(), shard, p, step + 1);
        else if (sharding_ == Sharding::Optimizer)
          ctx_.device.adamw(params_[i].data() + static_cast<std::size_t>(slice_) * shard, gradSlices_[i].data(),
                            m_[i].data(), v_[i].data(), shard, p, step + 1);
        else
          ctx_.device.adamw(params_[i].data(), grads_[i].data(), m_[i].data(), v_[i].data(), shard, p, step + 1);
      }
      if (sharding_ == Sharding::Optimizer) {
        gradSlices_[i].reset();
        // Every rank updated its slice in place: gather the others' into the full parameters.
        float* full = params_[i].data();
        paramGathers[i] = ctx_.comm.allGather(full + static_cast<std::size_t>(slice_) * shard, full, shard,
                                              {u, step, -1});
      }
    }
    for (auto& t : paramGathers)
      if (t) ctx_.comm.wait(t, step);
    return {lossSum, local};
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
    if (bf16Params_) {
      // The slice in bf16, gathered as packed words; upcast into gathered_ by waitGathered.
      const std::size_t w = words(shardSize_[i]);
      sent16_[i] = ctx_.memory.allocate(Category::CommBuffers, u, w);
      gathered16_[i] = ctx_.memory.allocate(Category::CommBuffers, u, w * static_cast<std::size_t>(degree_));
      packBf16(params_[i].data(), sent16_[i].data(), shardSize_[i]);
      gatherTickets_[i] =
          ctx_.comm.allGather(sent16_[i].data(), gathered16_[i].data(), w, {u, step, micro_}, shardComm_);
      return;
    }
    gatherTickets_[i] = ctx_.comm.allGather(params_[i].data(), gathered_[i].data(), shardSize_[i], {u, step, micro_},
                                            shardComm_);
  }

  // Waits for unit u's reduction and frees its full gradient. A micro-step's own
  // reduced gradient (fresh, see step) is then added to the sum of the earlier ones.
  void finishReduction(int u, int step) {
    const auto i = static_cast<std::size_t>(u);
    if (reductions_[i]) ctx_.comm.wait(reductions_[i], step, micro_);
    reductions_[i].reset();
    grad16_[i].reset();
    if (!slice16_[i].empty()) { // reduce_dtype bf16: the reduced slice, upcast
      float* slice = microSlices_[i].empty() ? grads_[i].data() : microSlices_[i].data();
      unpackBf16(slice16_[i].data(), slice, shardSize_[i]);
      slice16_[i].reset();
    }
    if (sharding_ == Sharding::NoShard && !fullGrads_[i].empty())
      ctx_.device.add(grads_[i].data(), fullGrads_[i].data(), grads_[i].size());
    fullGrads_[i].reset();
    if (!microSlices_[i].empty()) {
      Buffer& sum = sharding_ == Sharding::Optimizer ? gradSlices_[i] : grads_[i];
      ctx_.device.add(sum.data(), microSlices_[i].data(), sum.size());
      microSlices_[i].reset();
    }
  }

  void waitGathered(int u, int step) {
    auto& t = gatherTickets_[static_cast<std::size_t>(u)];
    if (t) ctx_.comm.wait(t, step, micro_);
    t.reset();
    const auto i = static_cast<std::size_t>(u);
    if (gathered16_[i].empty()) return;
    // param_dtype bf16: each rank's slice, upcast to fp32 for the compute.
    const std::size_t shard = shardSize_[i], w = words(shard);
    for (int r = 0; r < degree_; ++r)
      unpackBf16(gathered16_[i].data() + static_cast<std::size_t>(r) * w,
                 gathered_[i].data() + static_cast<std::size_t>(r) * shard, shard);
    gathered16_[i].reset();
    sent16_[i].reset();
  }

  // bf16 values are packed two to a float word: n values take (n + 1) / 2 words.
  static std::size_t words(std::size_t n) { return (n + 1) / 2; }

  // n fp32 values at `from` -> bf16 (round to nearest even), packed into words(n) words at
  // `to`; both device memory. Converted on the host (CPU ranks: the same memory).
  void packBf16(const float* from, float* to, std::size_t n) {
    std::vector<float> values(n);
    ctx_.device.copyToHost(values.data(), from, n * sizeof(float));
    std::vector<std::uint16_t> packed(2 * words(n), 0);
    for (std::size_t k = 0; k < n; ++k) packed[k] = toBf16(values[k]);
    ctx_.device.copyToDevice(to, packed.data(), words(n) * sizeof(float));
  }

  // The reverse: n packed bf16 values at `from` -> n fp32 values at `to`.
  void unpackBf16(const float* from, float* to, std::size_t n) {
    std::vector<std::uint16_t> packed(2 * words(n));
    ctx_.device.copyToHost(packed.data(), from, words(n) * sizeof(float));
    std::vector<float> values(n);
    for (std::size_t k = 0; k < n; ++k) values[k] = fromBf16(packed[k]);
    ctx_.device.copyToDevice(to, values.data(), n * sizeof(float));
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
  // Inside a step. fullGrads_: a unit's full gradient while it is reduced (sharded
  // stages; under no_sync from the first micro-step's backward to the last one's
  // reduction), or under no-shard a later micro-step's gradient until it is added;
  // gradSlices_: optimizer, the reduced slice until the update; microSlices_: a later
  // micro-step's reduced slice until it is added; reductions_: each unit's last one.
  std::vector<Buffer> fullGrads_, gradSlices_, microSlices_;
  std::vector<CommStream::Ticket> reductions_;
  int micro_ = -1; // the micro-step running (-1 without accumulation), for the records
  bool bf16Params_, bf16Reduce_; // param_dtype, reduce_dtype bf16
  // param_dtype bf16, while a unit is gathered: this rank's slice and the gathered unit,
  // packed bf16 (comm buffers). reduce_dtype bf16, while a unit is reduced: its full
  // gradient and its reduced slice, packed bf16.
  std::vector<Buffer> sent16_, gathered16_, grad16_, slice16_;
};

} // namespace

std::unique_ptr<Strategy> makeFsdp(StrategyContext ctx) { return std::make_unique<Fsdp>(ctx); }

} // namespace shardlab
