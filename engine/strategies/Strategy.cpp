#include "strategies/Strategy.h"

#include "comm/MpiCheck.h"
#include "strategies/UnitRunner.h"

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

StepResult runMicroSteps(StrategyContext& ctx, int step, const TokenBatch& global,
                         const std::function<void(UnitRunner&, const MicroStep&)>& computeAndReduce,
                         const std::function<void()>& finishReductions) {
  const int K = ctx.job.accumulate;
  const bool reduceEach = K > 1 && !ctx.job.noSync; // every micro-step reduces its gradients
  const int local = ctx.job.batch / ctx.size, rows = local / K;
  double lossSum = 0.0;
  for (int k = 0; k < K; ++k) {
    const MicroStep micro{k, K > 1 ? k : -1, k == K - 1, reduceEach || k == K - 1, reduceEach && k > 0};
    const auto batch = SyntheticLanguage::slice(global, ctx.rank * local + k * rows, rows);
    UnitRunner runner(ctx, batch.inputs.data(), batch.targets.data(), rows, 1.0f / static_cast<float>(ctx.job.batch),
                      step, micro.micro);
    computeAndReduce(runner, micro);
    lossSum += runner.lossSum();
    if (!micro.last && reduceEach) finishReductions();
  }
  return {lossSum, local};
}

namespace {
trace::CommGroup commGroupOf(MeshDim d) {
  switch (d) {
  case MeshDim::Dp: return trace::CommGroup::Dp;
  case MeshDim::Pp: return trace::CommGroup::Pp;
  case MeshDim::Tp: return trace::CommGroup::Tp;
  }
  return trace::CommGroup::World;
}
} // namespace

std::unique_ptr<Strategy> makeStrategy(StrategyContext ctx) {
  // One communicator per dimension of the mesh: the ranks whose coordinates differ
  // along it alone (MPI_Comm_split, ordered by rank, so a rank's place in it is its
  // coordinate). Every rank splits the same dimensions in the same order. A dimension
  // of every rank stays on the job's communicator, so a one-dimensional mesh runs and
  // records exactly as the job without one.
  for (const auto& [d, n] : ctx.job.mesh.dims) {
    if (n == ctx.size) continue;
    const Communicator& c = ctx.comm.split(ctx.job.mesh.groupColor(ctx.rank, d), commGroupOf(d));
    (d == MeshDim::Dp ? ctx.dpGroup : d == MeshDim::Pp ? ctx.ppGroup : ctx.tpGroup) = &c;
  }
  switch (ctx.job.strategy) {
  case StrategyKind::Ddp: return makeDdp(ctx);
  case StrategyKind::Fsdp: return makeFsdp(ctx);
  case StrategyKind::Pipeline: return makePipeline(ctx);
  case StrategyKind::Tp: return makeTensorParallel(ctx);
  }
  throw std::invalid_argument("strategy: unknown");
}

} // namespace shardlab
