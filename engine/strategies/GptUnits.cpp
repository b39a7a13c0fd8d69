// The GPT's units inside UnitRunner: the same life as the MLP's (inputs_ holds each
// unit's input, grad_ the gradient flowing back, every buffer a tracked activation),
// with core/Gpt.h's math. A row of the batch is a sequence: n_ sequences of seqLen
// tokens, T = n_ x seqLen rows of activations. The strategies' gradScale is 1 / rows
// of the global batch; the loss is a mean over tokens, so the output divides it by seqLen.
#include "core/Gpt.h"
#include "strategies/UnitRunner.h"

namespace shardlab {

namespace {
std::size_t sz(int v) { return static_cast<std::size_t>(v); }

// Tensor parallelism: the block's f and g (core/Gpt.h, GptTpSums) are each one
// all-reduce of a [T x H] buffer over the TP ranks, through the strategy's hook; the
// unit's op is paused while the compute thread waits for it, as for the MLP's block.
GptTpSums tpSums(const std::function<void(float*, std::size_t, int)>& allReduce, int unit, ScopedOp& op) {
  auto sum = [&allReduce, unit, &op](float* partial, std::size_t count) {
    op.around([&] { allReduce(partial, count, unit); });
  };
  return {sum, sum};
}
} // namespace

// The TP degree follows from the inner width the strategy set: F = 4H / tp.
void UnitRunner::gptForward(int unit, const float* params, bool recompute, ScopedOp& op) {
  Device& d = ctx_.device;
  const GptDims dims = GptDims::of(ctx_.shape, n_, 4 * ctx_.shape.hidden / innerWidth());
  const std::size_t TH = sz(dims.T()) * sz(dims.H);
  // What the backward needs is kept unless checkpointing drops it (then the recompute keeps it).
  const bool keep = !checkpoint_ || recompute;
  switch (ctx_.shape.kindOf(unit)) {
  case UnitKind::Embedding: {
    Buffer out = act(unit, TH);
    gptEmbeddingForward(d, params, onDevice(tokens_, deviceTokens_, unit), out.data(), dims);
    if (!recompute) inputs_[unit + 1] = std::move(out);
    break;
  }
  case UnitKind::Block: {
    Buffer saved = act(unit, GptBlockSaved::floats(dims)), y = act(unit, TH);
    const GptTpSums sums = tpAllReduce_ ? tpSums(tpAllReduce_, unit, op) : GptTpSums{};
    gptBlockForward(d, params, inputs_.at(unit).data(), y.data(), GptBlockSaved::carve(saved.data(), dims), dims,
                    tpAllReduce_ ? &sums : nullptr);
    if (keep) gptSaved_[unit] = std::move(saved);
    if (!recompute) inputs_[unit + 1] = std::move(y);
    break;
  }
  case UnitKind::Output: {
    const std::size_t T = sz(dims.T()), TV = T * sz(dims.V);
    Buffer saved = act(unit, TH + 2 * T), logits = act(unit, TV);
    dlogits_ = act(unit, TV);
    float* xn = saved.data();
    const double loss = gptOutputForward(d, params, inputs_.at(unit).data(), onDevice(targets_, deviceTargets_, unit),
                                         xn, xn + TH, xn + TH + T, logits.data(), dlogits_.data(), dims,
                                         gradScale_ / static_cast<float>(dims.S));
    if (!recompute) lossSum_ += loss;
    deviceTargets_.reset();
    if (keep) gptSaved_[unit] = std::move(saved);
    else dlogits_.reset();
    break;
  }
  }
}

void UnitRunner::gptBackward(int unit, const float* params, float* dparams, ScopedOp& op) {
  Device& d = ctx_.device;
  const GptDims dims = GptDims::of(ctx_.shape, n_, 4 * ctx_.shape.hidden / innerWidth());
  const std::size_t T = sz(dims.T()), TH = T * sz(dims.H);
  switch (ctx_.shape.kindOf(unit)) {
  case UnitKind::Output: {
    Buffer dx = act(unit, TH), dxn = act(unit, TH);
    const float* xn = gptSaved_.at(unit).data();
    gptOutputBackward(d, params, inputs_.at(unit).data(), xn, xn + TH, xn + TH + T, dlogits_.data(), dparams,
                      dx.data(), dxn.data(), dims);
    dlogits_.reset();
    gptSaved_.erase(unit);
    grad_ = std::move(dx);
    break;
  }
  case UnitKind::Block: {
    Buffer scratch = act(unit, gptBlockScratchFloats(dims)), dx = act(unit, TH);
    const GptTpSums sums = tpAllReduce_ ? tpSums(tpAllReduce_, unit, op) : GptTpSums{};
    gptBlockBackward(d, params, inputs_.at(unit).data(), GptBlockSaved::carve(gptSaved_.at(unit).data(), dims),
                     grad_.data(), dparams, dx.data(), scratch.data(), dims, tpAllReduce_ ? &sums : nullptr);
    gptSaved_.erase(unit);
    grad_ = std::move(dx);
    break;
  }
  case UnitKind::Embedding:
    gptEmbeddingBackward(d, onDevice(tokens_, deviceTokens_, unit), grad_.data(), dparams, dims);
    grad_.reset();
    deviceTokens_.reset();
    break;
  }
}

} // namespace shardlab
