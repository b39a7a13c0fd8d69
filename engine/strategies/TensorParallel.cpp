// Tensor parallelism, Megatron-LM's MLP split (Shoeybi et al., 2019). Each block's
// inner width 4H is cut across the N ranks: rank r holds columns [rF, (r+1)F) of W1
// and b1 and the same rows of W2, with F = 4H/N, plus all of b2. So each rank holds
// 1/N of every block's weights.
//
//   forward   y_r = gelu(x W1_r + b1_r) W2_r is a partial sum: one all-reduce gives
//             y = sum_r y_r on every rank (Megatron's g operator), then + b2 + x;
//   backward  dW1_r, db1_r, dW2_r stay local; the input gradient dx_r is again a
//             partial sum: one all-reduce (the backward of Megatron's f operator).
//
// Two all-reduces per block per step, on the critical path: the compute thread waits
// for each (UnitRunner's tensor-parallel hook). The embedding and the output layer
// are replicated, not split: every rank runs them on the same full batch, so their
// gradients (and b2's) come out identical on every rank without any communication,
// and every rank takes the same AdamW step. The loss is computed on every rank but
// reported by rank 0 only, so the run's token count is the batch's.
//
// The GPT's blocks are split the same way, heads too (core/Gpt.h): each rank holds
// heads / N of them (their Q, K, V columns, column-parallel; the same rows of Wo,
// row-parallel) and F = 4H/N of the MLP, so a block has four sums: g after attn Wo and
// after h W2 in the forward, f's backward before each LayerNorm's backward.
//
// On a mesh with a dp dimension (--mesh dp=D,tp=N, docs/mesh.md) the above runs inside
// each of D replicas, over the replica's tp communicator, on its batch / D rows; each
// unit's gradient (slices and replicated units alike) is then all-reduced over dp, so
// every replica takes the same AdamW step (DP x TP, Megatron's layout).
#include "comm/MpiCheck.h"
#include "core/Gpt.h"
#include "strategies/FlatUnit.h"
#include "strategies/Strategy.h"
#include "strategies/UnitRunner.h"

namespace shardlab {
namespace {

class TensorParallel final : public Strategy {
public:
  explicit TensorParallel(StrategyContext ctx)
      : ctx_(ctx), tpRank_(ctx.coordinate(MeshDim::Tp)), tpSize_(ctx.degree(MeshDim::Tp)),
        dpRank_(ctx.coordinate(MeshDim::Dp)), dpSize_(ctx.degree(MeshDim::Dp)), inner_(4 * ctx.shape.hidden / tpSize_) {}

  void setup() override {
    for (int u = 0; u < ctx_.shape.unitCount(); ++u) {
      if (ctx_.shape.kindOf(u) != UnitKind::Block) {
        units_.push_back(replicatedState(ctx_, u, initialUnit(ctx_.shape, ctx_.job.seed, u)));
        continue;
      }
      std::vector<float> slice(ctx_.shape.unitSize(u, inner_));
      initialBlockSlice(ctx_.shape, ctx_.job.seed, u, tpRank_ * inner_, inner_, slice.data());
      units_.push_back(replicatedState(ctx_, u, slice));
    }
  }

  StepResult step(int step, const TokenBatch& global) override {
    // A replica (dp > 1) computes its slice of the batch; the loss stays the mean over
    // the global batch, so the replicas' gradients sum to the one-rank gradient.
    const int rows = ctx_.job.batch / dpSize_;
    const TokenBatch replica = dpSize_ > 1 ? SyntheticLanguage::slice(global, dpRank_ * rows, rows) : TokenBatch{};
    const TokenBatch& batch = dpSize_ > 1 ? replica : global;
    UnitRunner runner(ctx_, batch.inputs.data(), batch.targets.data(), rows,
                      1.0f / static_cast<float>(ctx_.job.batch), step);
    runner.setTensorParallel(inner_, [this, step](float* partial, std::size_t count, int unit) {
      ctx_.comm.wait(ctx_.comm.allReduce(partial, count, {unit, step, -1}, ctx_.tpGroup), step);
    });

    for (auto& unit : units_) runner.forward(unit.unit, unit.param.data());
    // Each unit's gradient is all-reduced over dp as soon as its backward is done (as
    // DDP does), overlapping the backward of the units before it.
    std::vector<CommStream::Ticket> reductions;
    for (auto unit = units_.rbegin(); unit != units_.rend(); ++unit) {
      ctx_.device.zero(unit->grad.data(), unit->grad.bytes());
      runner.backward(unit->unit, unit->param.data(), unit->grad.data());
      if (dpSize_ > 1)
        reductions.push_back(ctx_.comm.allReduce(unit->grad.data(), unit->grad.size(), {unit->unit, step, -1}, ctx_.dpGroup));
    }
    for (const auto& r : reductions) ctx_.comm.wait(r, step);
    for (auto unit = units_.rbegin(); unit != units_.rend(); ++unit) unit->adamw(ctx_, step);
    // One rank of each replica reports its rows' loss.
    if (tpRank_ != 0) return {};
    return {runner.lossSum(), rows};
  }

  // Rank 0 gathers every block's slices and puts them back in the full block layout.
  std::vector<float> fullParameters() override {
    std::vector<float> all;
    for (const auto& unit : units_) {
      const std::vector<float> local = unit.paramsOnHost(ctx_.device);
      if (ctx_.shape.kindOf(unit.unit) != UnitKind::Block) {
        if (ctx_.rank == 0) all.insert(all.end(), local.begin(), local.end());
        continue;
      }
      // Over each replica's tp group, to its first rank (rank 0 is the first of its own).
      std::vector<float> slices(tpRank_ == 0 ? local.size() * static_cast<std::size_t>(tpSize_) : 0);
      MPI_CHECK(MPI_Gather(local.data(), static_cast<int>(local.size()), MPI_FLOAT, slices.data(),
                           static_cast<int>(local.size()), MPI_FLOAT, 0,
                           ctx_.tpGroup ? ctx_.tpGroup->comm : MPI_COMM_WORLD));
      if (ctx_.rank == 0) {
        const auto full = ctx_.shape.gpt ? gptAssembleBlock(slices, ctx_.shape.hidden, tpSize_) : assembleBlock(slices);
        all.insert(all.end(), full.begin(), full.end());
      }
    }
    return all;
  }

private:
  // Slices (rank after rank, each W1[H x F] | b1[F] | W2[F x H] | b2[H]) -> the full
  // block W1[H x 4H] | b1[4H] | W2[4H x H] | b2[H].
  std::vector<float> assembleBlock(const std::vector<float>& slices) const {
    const auto H = static_cast<std::size_t>(ctx_.shape.hidden), F = static_cast<std::size_t>(inner_),
               full = 4 * H, sliceSize = H * F + F + F * H + H;
    std::vector<float> out(H * full + full + full * H + H);
    float* W1 = out.data();
    float* b1 = W1 + H * full;
    float* W2 = b1 + full;
    float* b2 = W2 + full * H;
    for (std::size_t r = 0; r < static_cast<std::size_t>(tpSize_); ++r) {
      const float* s = slices.data() + r * sliceSize;
      const std::size_t c0 = r * F;
      for (std::size_t row = 0; row < H; ++row)
        for (std::size_t j = 0; j < F; ++j) W1[row * full + c0 + j] = s[row * F + j];
      for (std::size_t j = 0; j < F; ++j) b1[c0 + j] = s[H * F + j];
      for (std::size_t row = 0; row < F; ++row)
        for (std::size_t j = 0; j < H; ++j) W2[(c0 + row) * H + j] = s[H * F + F + row * H + j];
      if (r == 0)
        for (std::size_t j = 0; j < H; ++j) b2[j] = s[H * F + F + F * H + j]; // replicated: rank 0's copy
    }
    return out;
  }

  StrategyContext ctx_;
  int tpRank_, tpSize_; // this rank's place in its replica's tensor-parallel group, N
  int dpRank_, dpSize_; // its replica, and the replicas (1 without a dp dimension)
  int inner_;           // F = 4H / N
  std::vector<FlatUnit> units_;
};

} // namespace

std::unique_ptr<Strategy> makeTensorParallel(StrategyContext ctx) { return std::make_unique<TensorParallel>(ctx); }

} // namespace shardlab
