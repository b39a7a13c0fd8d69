#include "strategies/UnitRunner.h"

#include <stdexcept>

namespace shardlab {

using trace::Category;

static_assert(sizeof(std::int32_t) == sizeof(float), "token ids are stored in float buffers");

const std::int32_t* UnitRunner::onDevice(const std::int32_t* host, Buffer& held, int unit) {
  if (ctx_.device.kind() == "cpu") return host; // host memory is the CPU device's memory
  if (held.empty()) {
    const auto count = static_cast<std::size_t>(n_) * static_cast<std::size_t>(ctx_.shape.tokensPerRow());
    held = act(unit, count);
    ctx_.device.copyToDevice(held.data(), host, count * sizeof(std::int32_t));
  }
  return reinterpret_cast<const std::int32_t*>(held.data());
}

UnitRunner::UnitRunner(StrategyContext& ctx, const std::int32_t* tokens, const std::int32_t* targets, int rows,
                       float gradScale, int step, int micro)
    : ctx_(ctx), tokens_(tokens), targets_(targets), n_(rows), gradScale_(gradScale), step_(step), micro_(micro),
      checkpoint_(ctx.job.checkpointActivations) {}

void UnitRunner::setTensorParallel(int innerWidth, std::function<void(float*, std::size_t, int)> allReduce) {
  tpInner_ = innerWidth;
  tpAllReduce_ = std::move(allReduce);
}

void UnitRunner::forward(int unit, const float* params) {
  ScopedOp op(ctx_.recorder, Kind::Forward, unit, step_, micro_);
  if (ctx_.shape.gpt) return gptForward(unit, params, false, op);
  Device& d = ctx_.device;
  const int H = ctx_.shape.hidden, V = ctx_.shape.vocab;
  const auto nH = static_cast<std::size_t>(n_) * static_cast<std::size_t>(H);
  switch (ctx_.shape.kindOf(unit)) {
  case UnitKind::Embedding: {
    Buffer out = act(unit, nH);
    embeddingForward(d, params, onDevice(tokens_, deviceTokens_, unit), out.data(), n_, H);
    inputs_[unit + 1] = std::move(out);
    break;
  }
  case UnitKind::Block: {
    const int F = innerWidth();
    const auto nF = static_cast<std::size_t>(n_) * static_cast<std::size_t>(F);
    const float* x = inputs_.at(unit).data();
    Buffer a = act(unit, nF), h = act(unit, nF), y = act(unit, nH);
    mlpForward(d, params, x, a.data(), h.data(), y.data(), n_, H, F);
    if (tpAllReduce_) op.around([&] { tpAllReduce_(y.data(), nH, unit); }); // the g operator: sum the partial outputs
    d.addBias(y.data(), BlockView::of(params, H, F).b2, n_, H);
    d.add(y.data(), x, nH);
    if (!checkpoint_) { // else a and h are freed here and recomputed in the backward
      preAct_[unit] = std::move(a);
      postAct_[unit] = std::move(h);
    }
    inputs_[unit + 1] = std::move(y);
    break;
  }
  case UnitKind::Output: {
    const auto nV = static_cast<std::size_t>(n_) * static_cast<std::size_t>(V);
    Buffer logits = act(unit, nV);
    dlogits_ = act(unit, nV);
    lossSum_ += outputForward(d, params, inputs_.at(unit).data(), onDevice(targets_, deviceTargets_, unit),
                              logits.data(), dlogits_.data(), n_, H, V, gradScale_);
    deviceTargets_.reset();
    if (checkpoint_) dlogits_.reset(); // recomputed in the backward
    break; // logits (and the targets) freed here: the backward needs only dlogits
  }
  }
}

// What PyTorch's checkpoint wrapper around each unit does: run the unit's forward again
// from its kept input and keep, this time, what its backward needs (a block's pre- and
// post-activations, the output's dlogits). The recomputed output is dropped (the next
// unit's input was kept); the loss is not counted twice. The embedding's recompute is
// work its backward does not use (it needs only the tokens), as with the wrapper.
void UnitRunner::recompute(int unit, const float* params) {
  ScopedOp op(ctx_.recorder, Kind::Forward, unit, step_, micro_, /*recompute=*/true);
  if (ctx_.shape.gpt) return gptForward(unit, params, true, op);
  Device& d = ctx_.device;
  const int H = ctx_.shape.hidden, V = ctx_.shape.vocab;
  const auto nH = static_cast<std::size_t>(n_) * static_cast<std::size_t>(H);
  switch (ctx_.shape.kindOf(unit)) {
  case UnitKind::Embedding: {
    Buffer out = act(unit, nH);
    embeddingForward(d, params, onDevice(tokens_, deviceTokens_, unit), out.data(), n_, H);
    break;
  }
  case UnitKind::Block: {
    const int F = innerWidth();
    const auto nF = static_cast<std::size_t>(n_) * static_cast<std::size_t>(F);
    Buffer a = act(unit, nF), h = act(unit, nF), y = act(unit, nH);
    mlpForward(d, params, inputs_.at(unit).data(), a.data(), h.data(), y.data(), n_, H, F);
    preAct_[unit] = std::move(a);
    postAct_[unit] = std::move(h);
    break;
  }
  case UnitKind::Output: {
    const auto nV = static_cast<std::size_t>(n_) * static_cast<std::size_t>(V);
    Buffer logits = act(unit, nV);
    dlogits_ = act(unit, nV);
    outputForward(d, params, inputs_.at(unit).data(), onDevice(targets_, deviceTargets_, unit), logits.data(),
                  dlogits_.data(), n_, H, V, gradScale_);
    deviceTargets_.reset();
    break;
  }
  }
}

void UnitRunner::backward(int unit, const float* params, float* dparams) {
  if (checkpoint_) recompute(unit, params); // its own op, before the backward's
  ScopedOp op(ctx_.recorder, Kind::Backward, unit, step_, micro_);
  if (ctx_.shape.gpt) {
    gptBackward(unit, params, dparams, op);
    inputs_.erase(unit + 1);
    return;
  }
  Device& d = ctx_.device;
  const int H = ctx_.shape.hidden, V = ctx_.shape.vocab;
  const auto nH = static_cast<std::size_t>(n_) * static_cast<std::size_t>(H);
  switch (ctx_.shape.kindOf(unit)) {
  case UnitKind::Output: {
    Buffer dx = act(unit, nH);
    outputBackward(d, params, inputs_.at(unit).data(), dlogits_.data(), dparams, dx.data(), n_, H, V);
    dlogits_.reset();
    grad_ = std::move(dx);
    break;
  }
  case UnitKind::Block: {
    const int F = innerWidth();
    const auto nF = static_cast<std::size_t>(n_) * static_cast<std::size_t>(F);
    Buffer da = act(unit, nF), dx = act(unit, nH);
    mlpBackward(d, params, inputs_.at(unit).data(), preAct_.at(unit).data(), postAct_.at(unit).data(), grad_.data(),
                dparams, dx.data(), da.data(), n_, H, F);
    d.biasGrad(grad_.data(), blockB2(dparams, H, F), n_, H, true);
    if (tpAllReduce_) op.around([&] { tpAllReduce_(dx.data(), nH, unit); }); // the f operator's backward: sum input gradients
    d.add(dx.data(), grad_.data(), nH);                   // the residual path
    preAct_.erase(unit);
    postAct_.erase(unit);
    grad_ = std::move(dx);
    break;
  }
  case UnitKind::Embedding:
    embeddingBackward(d, onDevice(tokens_, deviceTokens_, unit), grad_.data(), dparams, n_, H);
    grad_.reset();
    deviceTokens_.reset();
    break;
  }
  inputs_.erase(unit + 1); // the unit's output is no longer needed by anyone
}

void UnitRunner::backwardInput(int unit, const float* params) {
  if (ctx_.shape.gpt) throw std::logic_error("backwardInput: the GPT's backward is not split");
  if (ctx_.shape.kindOf(unit) == UnitKind::Embedding) {
    weightDy_[unit] = std::move(grad_); // no input gradient to compute: all of it is W's
    return;
  }
  if (checkpoint_) recompute(unit, params);
  ScopedOp op(ctx_.recorder, Kind::BackwardInput, unit, step_, micro_);
  Device& d = ctx_.device;
  const int H = ctx_.shape.hidden, V = ctx_.shape.vocab;
  const auto nH = static_cast<std::size_t>(n_) * static_cast<std::size_t>(H);
  Buffer dx = act(unit, nH);
  if (ctx_.shape.kindOf(unit) == UnitKind::Output) {
    outputBackwardInput(d, params, dlogits_.data(), dx.data(), n_, H, V); // dlogits stays for W
  } else {
    const int F = innerWidth();
    const auto nF = static_cast<std::size_t>(n_) * static_cast<std::size_t>(F);
    Buffer da = act(unit, nF);
    mlpBackwardInput(d, params, preAct_.at(unit).data(), grad_.data(), dx.data(), da.data(), n_, H, F);
    if (tpAllReduce_) op.around([&] { tpAllReduce_(dx.data(), nH, unit); });
    d.add(dx.data(), grad_.data(), nH); // the residual path
    preAct_.erase(unit);
    weightDa_[unit] = std::move(da);
    weightDy_[unit] = std::move(grad_);
  }
  grad_ = std::move(dx);
}

void UnitRunner::backwardWeight(int unit, float* dparams) {
  ScopedOp op(ctx_.recorder, Kind::BackwardWeight, unit, step_, micro_);
  Device& d = ctx_.device;
  const int H = ctx_.shape.hidden, V = ctx_.shape.vocab;
  switch (ctx_.shape.kindOf(unit)) {
  case UnitKind::Output:
    outputBackwardWeight(d, inputs_.at(unit).data(), dlogits_.data(), dparams, n_, H, V);
    dlogits_.reset();
    break;
  case UnitKind::Block: {
    const int F = innerWidth();
    const float* dy = weightDy_.at(unit).data();
    mlpBackwardWeight(d, inputs_.at(unit).data(), postAct_.at(unit).data(), dy, weightDa_.at(unit).data(), dparams,
                      n_, H, F);
    d.biasGrad(dy, blockB2(dparams, H, F), n_, H, true);
    postAct_.erase(unit);
    weightDa_.erase(unit);
    weightDy_.erase(unit);
    break;
  }
  case UnitKind::Embedding:
    embeddingBackward(d, onDevice(tokens_, deviceTokens_, unit), weightDy_.at(unit).data(), dparams, n_, H);
    weightDy_.erase(unit);
    deviceTokens_.reset();
    break;
  }
  inputs_.erase(unit + 1);
}

} // namespace shardlab
