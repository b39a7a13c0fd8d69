// The forward and backward of the model's units on one batch (or micro-batch),
// holding the activations the backward needs. Strategies differ in where a unit's
// parameters and gradients come from; the arithmetic is this, shared by all.
#pragma once

#include "strategies/Strategy.h"

#include <functional>
#include <map>

namespace shardlab {

class UnitRunner {
public:
  // `gradScale` is 1 / global batch, so summing gradients over ranks (and
  // micro-batches) gives the gradient of the mean loss. `tokens` and `targets` are
  // HOST pointers (the batch slice) and must outlive the runner. On a GPU rank each is
  // copied into device memory the first time a unit needs it (tokens: the embedding's
  // forward, kept for its backward; targets: the output's forward, freed after it),
  // as tracked activations: 4-byte ints stored in a float Buffer (same size, copied
  // bytewise, read back through std::int32_t*). A CPU rank's device memory is host
  // memory: it reads the slice in place, as before, so CPU traces and arithmetic
  // are unchanged.
  UnitRunner(StrategyContext& ctx, const std::int32_t* tokens, const std::int32_t* targets, int rows, float gradScale,
             int step, int micro = -1);

  // Tensor parallelism splits each block's inner width and all-reduces the block's
  // partial output (forward) and partial input gradient (backward) through this hook.
  void setTensorParallel(int innerWidth, std::function<void(float*, std::size_t, int unit)> allReduce);

  // Input activation for a stage that does not start with the embedding.
  void setInput(int unit, Buffer x) { inputs_[unit] = std::move(x); }
  // Gradient of the last forwarded unit's output, for a stage that does not end with the output layer.
  void setOutputGrad(Buffer dy) { grad_ = std::move(dy); }

  // With the job's checkpoint_activations, forward keeps only the unit's output (the
  // next unit's input) and backward first recomputes the unit's forward from its kept
  // input with the same parameters (an op marked recompute), for what it needs.
  void forward(int unit, const float* params);
  // Accumulates into dparams (zero it first for a fresh gradient).
  void backward(int unit, const float* params, float* dparams);
  // The same backward in two parts, for the zero-bubble pipeline schedules (MLP units
  // only). backwardInput (B) leaves the gradient of the unit's input in inputGrad() and
  // keeps what the weight gradients need (a block's dy, gelu'(a) * dy W2^T and h; the
  // output's dlogits; the embedding's dout, whose B computes nothing: the tokens have no
  // gradient, so it records no op); backwardWeight (W) then accumulates the unit's
  // parameter gradients into dparams and frees what B kept. A chunk runs B for its units
  // last to first, then W for them last to first (W frees the unit's output, which the
  // next unit's W reads).
  void backwardInput(int unit, const float* params);
  void backwardWeight(int unit, float* dparams);

  // The output activation of `unit` (the input of unit + 1).
  Buffer& output(int unit) { return inputs_[unit + 1]; }
  // After backward(unit): the gradient of its input, for the previous stage.
  Buffer& inputGrad() { return grad_; }
  double lossSum() const { return lossSum_; }

private:
  int innerWidth() const { return tpInner_ > 0 ? tpInner_ : 4 * ctx_.shape.hidden; }
  Buffer act(int unit, std::size_t count) { return ctx_.memory.allocate(trace::Category::Activations, unit, count); }
  // The ints on the device (see the constructor): uploads once into `held`.
  const std::int32_t* onDevice(const std::int32_t* host, Buffer& held, int unit);
  // Activation checkpointing: the unit's forward again, inside its backward.
  void recompute(int unit, const float* params);
  // The GPT's units (core/Gpt.h; GptUnits.cpp): a row is a sequence of seqLen tokens.
  // recompute: checkpointing's second forward (keeps what the backward needs, not the
  // output, and does not count the loss again).
  // `op` is the unit's op, paused around each tensor-parallel sum (f, g) as the MLP's are.
  void gptForward(int unit, const float* params, bool recompute, ScopedOp& op);
  void gptBackward(int unit, const float* params, float* dparams, ScopedOp& op);

  StrategyContext& ctx_;
  const std::int32_t* tokens_;  // host
  const std::int32_t* targets_; // host
  Buffer deviceTokens_, deviceTargets_; // GPU ranks only
  int n_;
  float gradScale_;
  int step_, micro_;
  bool checkpoint_; // checkpoint_activations: keep each unit's input only
  int tpInner_ = 0;
  std::function<void(float*, std::size_t, int)> tpAllReduce_;

  std::map<int, Buffer> inputs_;     // inputs_[u]: input of unit u (output of u - 1)
  std::map<int, Buffer> preAct_;     // blocks: x W1 + b1
  std::map<int, Buffer> postAct_;    // blocks: gelu(x W1 + b1)
  std::map<int, Buffer> gptSaved_;  // GPT: what each unit's forward keeps for its backward
  std::map<int, Buffer> weightDy_;  // split backward: the gradient of the unit's output, for W
  std::map<int, Buffer> weightDa_;  // split backward, blocks: gelu'(a) * dy W2^T, for W
  Buffer dlogits_;
  Buffer grad_;                      // gradient flowing backward
  double lossSum_ = 0.0;
};

} // namespace shardlab
