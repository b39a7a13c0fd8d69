// DDP: every rank holds the whole model, its gradients and its optimizer state, and
// computes on its own slice of the global batch. Each unit's gradient is all-reduced
// as soon as that unit's backward is done, on the communication thread, so the
// all-reduce of block k overlaps the backward of block k-1 (PyTorch DDP's buckets,
// one bucket per unit).
//
// Gradient accumulation (--accumulate K) splits the rank's slice of the batch into K
// micro-batches, one forward and backward each, and steps the optimizer once. Without
// no_sync every micro-step all-reduces its own gradient (the first in the gradient
// buffer, later ones in a fresh buffer added to it once reduced: the reduction is a
// sum, so an accumulated gradient cannot be reduced again); with no_sync the micro-
// steps accumulate into the gradient buffer and only the last one all-reduces it.
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
    const int K = ctx_.job.accumulate;
    const bool reduceEach = K > 1 && !ctx_.job.noSync; // every micro-step all-reduces
    const int local = ctx_.job.batch / ctx_.size, rows = local / K;
    double lossSum = 0.0;
    std::vector<CommStream::Ticket> reductions(static_cast<std::size_t>(U));
    std::vector<Buffer> microGrads(static_cast<std::size_t>(U)); // reduceEach, micro-steps after the first

    for (int k = 0; k < K; ++k) {
      const bool last = k == K - 1;
      const int micro = K > 1 ? k : -1;
      const auto batch = SyntheticLanguage::slice(global, ctx_.rank * local + k * rows, rows);
      UnitRunner runner(ctx_, batch.inputs.data(), batch.targets.data(), rows,
                        1.0f / static_cast<float>(ctx_.job.batch), step, micro);

      for (int u = 0; u < U; ++u) runner.forward(u, params_[static_cast<std::size_t>(u)].data());

      for (int u = U - 1; u >= 0; --u) {
        const auto i = static_cast<std::size_t>(u);
        auto& g = grads_[i];
        float* grad = g.data();
        if (reduceEach && k > 0) {
          microGrads[i] = ctx_.memory.allocate(Category::Grads, u, g.size()); // zeroed
          grad = microGrads[i].data();
        } else if (k == 0) {
          ctx_.device.zero(g.data(), g.bytes()); // backward accumulates
        }
        runner.backward(u, params_[i].data(), grad);
        if (reduceEach || last) reductions[i] = ctx_.comm.allReduce(grad, g.size(), {u, step, micro});
      }
      lossSum += runner.lossSum();
      if (last) break;
      // A micro-step that reduced: its reduced gradients join the sum before the next one.
      for (int u = U - 1; u >= 0 && reduceEach; --u) finishReduction(u, step, reductions, microGrads);
    }

    const AdamWParams p = adamwParams(ctx_.job);
    for (int u = U - 1; u >= 0; --u) {
      const auto i = static_cast<std::size_t>(u);
      finishReduction(u, step, reductions, microGrads);
      ScopedOp op(ctx_.recorder, Kind::Optimizer, u, step);
      ctx_.device.adamw(params_[i].data(), grads_[i].data(), m_[i].data(), v_[i].data(), params_[i].size(), p,
                        step + 1);
    }
    return {lossSum, local};
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
  // Waits for unit u's all-reduce; a micro-step's own gradient is then added to the sum.
  void finishReduction(int u, int step, std::vector<CommStream::Ticket>& reductions, std::vector<Buffer>& microGrads) {
    const auto i = static_cast<std::size_t>(u);
    if (reductions[i]) ctx_.comm.wait(reductions[i], step);
    reductions[i].reset();
    if (microGrads[i].empty()) return;
    ctx_.device.add(grads_[i].data(), microGrads[i].data(), grads_[i].size());
    microGrads[i].reset();
  }

  StrategyContext ctx_;
  std::vector<Buffer> params_, grads_, m_, v_;
};

} // namespace

std::unique_ptr<Strategy> makeDdp(StrategyContext ctx) { return std::make_unique<Ddp>(ctx); }

} // namespace shardlab
