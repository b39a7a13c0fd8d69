#include "strategies/Strategy.h"

#include "comm/MpiCheck.h"

#include <stdexcept>

namespace shardlab {

std::vector<float> initialUnit(const ModelShape& shape, std::uint64_t seed, int unit) {
  std::vector<float> v(shape.unitSize(unit));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = initialValue(shape, seed, unit, i);
  return v;
}

AdamWParams adamwParams(const JobConfig& job) {
  return {static_cast<float>(job.lr), 0.9f, 0.999f, 1e-8f, static_cast<float>(job.weightDecay)};
}

std::unique_ptr<Strategy> makeStrategy(StrategyContext ctx) {
  switch (ctx.job.strategy) {
  case StrategyKind::Ddp: return makeDdp(ctx);
  case StrategyKind::Fsdp: return makeFsdp(ctx);
  case StrategyKind::Pipeline: return makePipeline(ctx);
  case StrategyKind::Tp: return makeTensorParallel(ctx);
  }
  throw std::invalid_argument("strategy: unknown");
}

} // namespace shardlab
