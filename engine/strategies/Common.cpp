#include "MpiCheck.h"
#include "Strategy.h"

#include <stdexcept>

namespace shardlab {

std::vector<float> initialUnit(const ModelShape& shape, std::uint64_t seed, int unit) {
  std::vector<float> v(shape.unitSize(unit));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = initialValue(shape, seed, unit, i);
  return v;
}

std::unique_ptr<Strategy> makeStrategy(StrategyContext ctx) {
  const auto& s = ctx.job.strategy;
  if (s == "ddp") return makeDdp(ctx);
  if (s == "fsdp") return makeFsdp(ctx);
  if (s == "pipeline") return makePipeline(ctx);
  if (s == "tp") return makeTensorParallel(ctx);
  throw std::invalid_argument("strategy: unknown '" + s + "'");
}

} // namespace shardlab
