// Placeholder until issue 3 lands: refuses the job instead of pretending to run it.
#include "Strategy.h"

#include <stdexcept>

namespace shardlab {

std::unique_ptr<Strategy> makePipeline(StrategyContext) {
  throw std::runtime_error("strategy: Pipeline is not built yet in this version of ShardLab");
}

} // namespace shardlab
