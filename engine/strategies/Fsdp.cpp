// FSDP, with PyTorch's semantics and names. Each unit is one flat parameter, padded
// to a multiple of the rank count; rank r persistently owns the contiguous slice
// [r*S, (r+1)*S) of it, of its gradient and of its AdamW state.
//
//   forward   all-gather unit u's full parameters, compute, free them (FULL_SHARD)
//             or keep them for the backward (SHARD_GRAD_OP);
//   backward  all-gather again if freed, compute the full gradient, free the
//             parameters, reduce-scatter the gradient so each rank keeps its slice's sum;
//   optimizer AdamW on the local slice only.
//
// Prefetch issues the next unit's all-gather before the current unit computes, so
// the communication thread gathers while the compute thread works.
#include "comm/MpiCheck.h"
#include "strategies/Strategy.h"
#include "strategies/UnitRunner.h"

namespace shardlab {
namespace {

using trace::Category;

class Fsdp final : public Strategy {
public:
  explicit Fsdp(StrategyContext ctx) : ctx_(ctx) {}

  void setup() override {
    const int U = ctx_.shape.unitCount();
    for (int u = 0; u < U; ++u) {
      const std::size_t n = ctx_.shape.unitSize(u);
      const std::size_t shard = ctx_.shape.shardSize(u, ctx_.size); // padded size is shard * size
      shardSize_.push_back(shard);
      shards_.push_back(ctx_.memory.allocate(Category::ParamShard, u, shard));
      std::vector<float> init(shard, 0.0f);
      const std::size_t first = static_cast<std::size_t>(ctx_.rank) * shard;
      for (std::size_t i = 0; i < shard && first + i < n; ++i)
        init[i] = initialValue(ctx_.shape, ctx_.job.seed, u, first + i);
      ctx_.device.copyToDevice(shards_.back().data(), init.data(), shard * sizeof(float));
      gradShards_.push_back(ctx_.memory.allocate(Category::GradShard, u, shard));
      m_.push_back(ctx_.memory.allocate(Category::OptimizerState, u, shard));
      v_.push_back(ctx_.memory.allocate(Category::OptimizerState, u, shard));
    }
    gathered_.resize(static_cast<std::size_t>(U));
    gatherTickets_.resize(static_cast<std::size_t>(U));
  }

  StepResult step(int step, const TokenBatch& global) override {
    const int U = ctx_.shape.unitCount();
    const int local = ctx_.job.batch / ctx_.size;
    const bool reshardAfterForward = ctx_.job.sharding == Sharding::Full;
    const bool prefetch = ctx_.job.prefetch;
    const auto batch = SyntheticLanguage::slice(global, ctx_.rank * local, local);
    UnitRunner runner(ctx_, batch.inputs.data(), batch.targets.data(), local,
                      1.0f / static_cast<float>(ctx_.job.batch), step);

    for (int u = 0; u < U; ++u) {
      allGather(u, step);
      if (prefetch && u + 1 < U) allGather(u + 1, step);
      waitGathered(u, step);
      runner.forward(u, gathered_[static_cast<std::size_t>(u)].data());
      if (reshardAfterForward) gathered_[static_cast<std::size_t>(u)].reset();
    }

    std::vector<Buffer> fullGrads(static_cast<std::size_t>(U));
    std::vector<CommStream::Ticket> scatters(static_cast<std::size_t>(U));
    for (int u = U - 1; u >= 0; --u) {
      const auto i = static_cast<std::size_t>(u);
      allGather(u, step);
      if (prefetch && u > 0) allGather(u - 1, step);
      waitGathered(u, step);
      fullGrads[i] = ctx_.memory.allocate(Category::Grads, u, shardSize_[i] * static_cast<std::size_t>(ctx_.size));
      runner.backward(u, gathered_[i].data(), fullGrads[i].data());
      gathered_[i].reset();
      scatters[i] = ctx_.comm.reduceScatter(fullGrads[i].data(), gradShards_[i].data(), shardSize_[i], {u, step, -1});
      // Free the full gradients whose reduce-scatter has already finished.
      for (int k = U - 1; k > u; --k)
        if (!fullGrads[static_cast<std::size_t>(k)].empty() && ctx_.comm.done(scatters[static_cast<std::size_t>(k)]))
          fullGrads[static_cast<std::size_t>(k)].reset();
    }

    const AdamWParams p = adamwParams(ctx_.job);
    for (int u = U - 1; u >= 0; --u) {
      const auto i = static_cast<std::size_t>(u);
      ctx_.comm.wait(scatters[i], step);
      fullGrads[i].reset();
      ScopedOp op(ctx_.recorder, Kind::Optimizer, u, step);
      ctx_.device.adamw(shards_[i].data(), gradShards_[i].data(), m_[i].data(), v_[i].data(), shardSize_[i], p,
                        step + 1);
    }
    return {runner.lossSum(), local};
  }

  std::vector<float> fullParameters() override {
    std::vector<float> all;
    for (std::size_t u = 0; u < shards_.size(); ++u) {
      const std::size_t shard = shardSize_[u];
      std::vector<float> mine(shard), full(shard * static_cast<std::size_t>(ctx_.size));
      ctx_.device.copyToHost(mine.data(), shards_[u].data(), shard * sizeof(float));
      MPI_CHECK(MPI_Allgather(mine.data(), static_cast<int>(shard), MPI_FLOAT, full.data(), static_cast<int>(shard),
                              MPI_FLOAT, ctx_.comm.comm()));
      full.resize(ctx_.shape.unitSize(static_cast<int>(u))); // drop the padding
      all.insert(all.end(), full.begin(), full.end());
    }
    return all;
  }

private:
  // Issues unit u's all-gather unless its full parameters are held or on their way.
  void allGather(int u, int step) {
    const auto i = static_cast<std::size_t>(u);
    if (!gathered_[i].empty()) return;
    gathered_[i] = ctx_.memory.allocate(Category::GatheredParams, u, shardSize_[i] * static_cast<std::size_t>(ctx_.size));
    gatherTickets_[i] = ctx_.comm.allGather(shards_[i].data(), gathered_[i].data(), shardSize_[i], {u, step, -1});
  }

  void waitGathered(int u, int step) {
    auto& t = gatherTickets_[static_cast<std::size_t>(u)];
    if (t) ctx_.comm.wait(t, step);
    t.reset();
  }

  StrategyContext ctx_;
  std::vector<std::size_t> shardSize_;
  std::vector<Buffer> shards_, gradShards_, m_, v_, gathered_;
  std::vector<CommStream::Ticket> gatherTickets_;
};

} // namespace

std::unique_ptr<Strategy> makeFsdp(StrategyContext ctx) { return std::make_unique<Fsdp>(ctx); }

} // namespace shardlab
