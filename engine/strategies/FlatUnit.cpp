#include "strategies/FlatUnit.h"

#include "core/Bf16.h"

namespace shardlab {

using trace::Category;

namespace {

Buffer withValues(StrategyContext& ctx, Category category, int unit, const std::vector<float>& values) {
  Buffer b = ctx.memory.allocate(category, unit, values.size());
  ctx.device.copyToDevice(b.data(), values.data(), values.size() * sizeof(float));
  return b;
}

} // namespace

FlatUnit replicatedState(StrategyContext& ctx, int unit, const std::vector<float>& init, std::size_t moments) {
  FlatUnit s;
  s.unit = unit;
  s.shard = moments;
  s.param = withValues(ctx, Category::ParamReplica, unit, init);
  s.grad = ctx.memory.allocate(Category::Grads, unit, init.size());
  s.m = ctx.memory.allocate(Category::OptimizerState, unit, moments);
  s.v = ctx.memory.allocate(Category::OptimizerState, unit, moments);
  return s;
}

FlatUnit slicedState(StrategyContext& ctx, int unit, const std::vector<float>& init) {
  FlatUnit s;
  s.unit = unit;
  s.shard = init.size();
  s.sliced = true;
  s.param = withValues(ctx, Category::ParamShard, unit, init);
  s.grad = ctx.memory.allocate(Category::GradShard, unit, s.shard);
  s.m = ctx.memory.allocate(Category::OptimizerState, unit, s.shard);
  s.v = ctx.memory.allocate(Category::OptimizerState, unit, s.shard);
  return s;
}

void FlatUnit::gather(StrategyContext& ctx, const ShardGroup& group, CollectiveTag tag) {
  const auto degree = static_cast<std::size_t>(group.degree);
  gathered = ctx.memory.allocate(Category::GatheredParams, unit, shard * degree);
  if (!group.bf16Params) {
    gathering = ctx.comm.allGather(param.data(), gathered.data(), shard, tag, group.shards);
    return;
  }
  const std::size_t words = bf16Words(shard);
  wire.sent = ctx.memory.allocate(Category::CommBuffers, unit, words);
  wire.gathered = ctx.memory.allocate(Category::CommBuffers, unit, words * degree);
  packBf16(ctx.device, param.data(), wire.sent.data(), shard);
  gathering = ctx.comm.allGather(wire.sent.data(), wire.gathered.data(), words, tag, group.shards);
}

void FlatUnit::waitGathered(StrategyContext& ctx, const ShardGroup& group, int step, int micro) {
  if (gathering) ctx.comm.wait(gathering, step, micro);
  gathering.reset();
  if (wire.gathered.empty()) return;
  // param_dtype bf16: each rank's slice, upcast to fp32 for the compute.
  unpackBf16Slices(ctx.device, wire.gathered.data(), gathered.data(), shard, group.degree);
  wire.gathered.reset();
  wire.sent.reset();
}

float* FlatUnit::allReducedGradient(StrategyContext& ctx, const MicroStep& micro) {
  if (micro.fresh) {
    microGrad = ctx.memory.allocate(Category::Grads, unit, grad.size()); // zeroed
    return microGrad.data();
  }
  if (micro.first()) ctx.device.zero(grad.data(), grad.bytes()); // backward accumulates
  return grad.data();
}

void FlatUnit::allReduce(StrategyContext& ctx, float* full, CollectiveTag tag) {
  reduction = ctx.comm.allReduce(full, grad.size(), tag);
}

void FlatUnit::reduceScatter(StrategyContext& ctx, const ShardGroup& group, const float* full, bool fresh,
                             CollectiveTag tag) {
  float* slice = grad.data();
  if (fresh) {
    microSlice = ctx.memory.allocate(Category::GradShard, unit, shard);
    slice = microSlice.data();
  } else if (!sliced) {
    gradSlice = ctx.memory.allocate(Category::GradShard, unit, shard);
    slice = gradSlice.data();
  }
  if (group.bf16Reduce) {
    // The full gradient in bf16, slice by slice; the fp32 one is no longer needed.
    const std::size_t words = bf16Words(shard);
    wire.grad = ctx.memory.allocate(Category::CommBuffers, unit, words * static_cast<std::size_t>(group.degree));
    packBf16Slices(ctx.device, full, wire.grad.data(), shard, group.degree);
    fullGrad.reset();
    wire.slice = ctx.memory.allocate(Category::CommBuffers, unit, words); // upcast into `slice` when reduced
    reduction = ctx.comm.reduceScatter(wire.grad.data(), wire.slice.data(), words, tag, group.shards, true);
    if (group.replicas) reduction = ctx.comm.allReduce(wire.slice.data(), words, tag, group.replicas, true);
    return;
  }
  reduction = ctx.comm.reduceScatter(full, slice, shard, tag, group.shards);
  // Issued after the reduce-scatter on the same in-order stream, so it sums slices already reduced.
  if (group.replicas) reduction = ctx.comm.allReduce(slice, shard, tag, group.replicas);
}

void FlatUnit::freeGradientIfReduced(StrategyContext& ctx) {
  if (!reduction || !ctx.comm.done(reduction)) return;
  fullGrad.reset();
  wire.grad.reset();
}

void FlatUnit::finishReduction(StrategyContext& ctx, int step, int micro) {
  if (reduction) ctx.comm.wait(reduction, step, micro);
  reduction.reset();
  wire.grad.reset();
  if (!wire.slice.empty()) { // reduce_dtype bf16: the reduced slice, upcast
    unpackBf16(ctx.device, wire.slice.data(), microSlice.empty() ? grad.data() : microSlice.data(), shard);
    wire.slice.reset();
  }
  if (!microGrad.empty()) ctx.device.add(grad.data(), microGrad.data(), grad.size());
  microGrad.reset();
  fullGrad.reset();
  if (!microSlice.empty()) {
    Buffer& sum = gradSlice.empty() ? grad : gradSlice;
    ctx.device.add(sum.data(), microSlice.data(), sum.size());
    microSlice.reset();
  }
}

void FlatUnit::adamw(StrategyContext& ctx, int step, float* values, const float* gradient) {
  ScopedOp op(ctx.recorder, trace::Kind::Optimizer, unit, step);
  ctx.device.adamw(values, gradient, m.data(), v.data(), shard, adamwParams(ctx.job), step + 1);
}

std::vector<float> FlatUnit::paramsOnHost(Device& device) const {
  std::vector<float> host(param.size());
  device.copyToHost(host.data(), param.data(), param.bytes());
  return host;
}

} // namespace shardlab
