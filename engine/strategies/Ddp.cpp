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
#include "strategies/FlatUnit.h"
#include "strategies/Strategy.h"
#include "strategies/UnitRunner.h"

namespace shardlab {
namespace {

class Ddp final : public Strategy {
public:
  explicit Ddp(StrategyContext ctx) : ctx_(ctx) {}

  void setup() override {
    for (int u = 0; u < ctx_.shape.unitCount(); ++u)
      units_.push_back(replicatedState(ctx_, u, initialUnit(ctx_.shape, ctx_.job.seed, u)));
  }

  StepResult step(int step, const TokenBatch& global) override {
    const StepResult result = runMicroSteps(
        ctx_, step, global,
        [&](UnitRunner& runner, const MicroStep& micro) {
          for (auto& unit : units_) runner.forward(unit.unit, unit.param.data());
          for (auto unit = units_.rbegin(); unit != units_.rend(); ++unit) {
            float* grad = unit->allReducedGradient(ctx_, micro);
            runner.backward(unit->unit, unit->param.data(), grad);
            if (micro.reduces) unit->allReduce(ctx_, grad, {unit->unit, step, micro.micro});
          }
        },
        [&] {
          for (auto unit = units_.rbegin(); unit != units_.rend(); ++unit) unit->finishReduction(ctx_, step, -1);
        });
    for (auto unit = units_.rbegin(); unit != units_.rend(); ++unit) {
      unit->finishReduction(ctx_, step, -1);
      unit->adamw(ctx_, step);
    }
    return result;
  }

  std::vector<float> fullParameters() override {
    std::vector<float> all;
    for (const auto& unit : units_) {
      const auto host = unit.paramsOnHost(ctx_.device);
      all.insert(all.end(), host.begin(), host.end());
    }
    return all;
  }

private:
  StrategyContext ctx_;
  std::vector<FlatUnit> units_;
};

} // namespace

std::unique_ptr<Strategy> makeDdp(StrategyContext ctx) { return std::make_unique<Ddp>(ctx); }

} // namespace shardlab
