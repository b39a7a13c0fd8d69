// DDP: every rank holds the whole model, its gradients and its optimizer state, and
// computes on its own slice of the global batch. Each unit's gradient is all-reduced
// as soon as that unit's backward is done, on the communication thread, so the
// all-reduce of block k overlaps the backward of block k-1 (PyTorch DDP's buckets,
// one bucket per unit).
#include "comm/MpiCheck.h"
#include "strategies/Strategy.h"
#include "strategies/UnitRunner.h"

namespace shardlab {
namespace {

using trace::Category;

class Ddp final : public Strategy {
public:
  explicit Ddp(StrategyContext ctx) : ctx_(ctx) {}

  void setup() override {
    const int U = ctx_.shape.unitCount();
    for (int u = 0; u < U; ++u) {
      const auto n = ctx_.shape.unitSize(u);
      params_.push_back(ctx_.memory.allocate(Category::ParamReplica, u, n));
      auto init = initialUnit(ctx_.shape, ctx_.job.seed, u);
      ctx_.device.copyToDevice(params_.back().data(), init.data(), n * sizeof(float));
      grads_.push_back(ctx_.memory.allocate(Category::Grads, u, n));
      m_.push_back(ctx_.memory.allocate(Category::OptimizerState, u, n));
      v_.push_back(ctx_.memory.allocate(Category::OptimizerState, u, n));
    }
  }

  StepResult step(int step, const TokenBatch& global) override {
    const int U = ctx_.shape.unitCount();
    const int local = ctx_.job.batch / ctx_.size;
    const auto batch = SyntheticLanguage::slice(global, ctx_.rank * local, local);
    UnitRunner runner(ctx_, batch.inputs.data(), batch.targets.data(), local,
                      1.0f / static_cast<float>(ctx_.job.batch), step);

    for (int u = 0; u < U; ++u) runner.forward(u, params_[static_cast<std::size_t>(u)].data());

    std::vector<CommStream::Ticket> reductions(static_cast<std::size_t>(U));
    for (int u = U - 1; u >= 0; --u) {
      auto& g = grads_[static_cast<std::size_t>(u)];
      ctx_.device.zero(g.data(), g.bytes());
      runner.backward(u, params_[static_cast<std::size_t>(u)].data(), g.data());
      reductions[static_cast<std::size_t>(u)] = ctx_.comm.allReduce(g.data(), g.size(), {u, step, -1});
    }

    const AdamWParams p = adamwParams(ctx_.job);
    for (int u = U - 1; u >= 0; --u) {
      const auto i = static_cast<std::size_t>(u);
      ctx_.comm.wait(reductions[i], step);
      ScopedOp op(ctx_.recorder, Kind::Optimizer, u, step);
      ctx_.device.adamw(params_[i].data(), grads_[i].data(), m_[i].data(), v_[i].data(), params_[i].size(), p,
                        step + 1);
    }
    return {runner.lossSum(), local};
  }

  std::vector<float> fullParameters() override {
    std::vector<float> all;
    for (auto& p : params_) {
      std::vector<float> host(p.size());
      ctx_.device.copyToHost(host.data(), p.data(), p.bytes());
      all.insert(all.end(), host.begin(), host.end());
    }
    return all;
  }

private:
  StrategyContext ctx_;
  std::vector<Buffer> params_, grads_, m_, v_;
};

} // namespace

std::unique_ptr<Strategy> makeDdp(StrategyContext ctx) { return std::make_unique<Ddp>(ctx); }

} // namespace shardlab
