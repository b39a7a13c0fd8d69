// Pipeline parallelism. The model's units are cut into contiguous stages, one per
// rank (StagePlan.h); each rank holds only its stage's parameters, gradients and
// AdamW state. Every rank sees the same global batch, cut into m micro-batches of
// batch/m rows. On a mesh with a dp dimension (--mesh dp=D,pp=P, docs/mesh.md) each of
// D replicas is such a pipeline over its pp ranks, on its batch/D rows (micro-batches
// of batch/(D m) rows), and each stage's gradients are all-reduced over dp, across the
// replicas' same stages, before the optimizer step (DP x PP). Stage 0 embeds the tokens, the last
// stage computes the loss; in between, activations travel forward and activation
// gradients backward by real MPI point-to-point messages (CommStream::send/recv).
//
// A schedule (PipelineSchedules.h) is the order in which this rank runs the
// forward (F) and backward (B) of each micro-batch. Running an op means
//   F(c, i): receive micro-batch i's input from the previous stage (the wait is the
//            bubble, recorded as idle wait_activation), run the chunk's units,
//            send the output to the next stage;
//   B(c, i): receive the gradient of that output (idle wait_gradient), run the
//            units backward, accumulating into the chunk's gradients, send the
//            input gradient to the previous stage.
// The zero-bubble schedules run that backward as two ops: B(c, i) receives, runs
// the units' input-gradient halves and sends, as above; W(c, i), later, runs their
// weight-gradient halves from what B kept, and only then frees the micro-batch.
// Every F keeps its micro-batch's activations until the matching B: that is why
// GPipe's activation memory grows with m and 1F1B's with p only. Gradients are
// scaled by 1/batch, so after the last B they are the full batch's gradient and one
// AdamW step follows. MPI tags are distinct per direction, micro-batch and stage
// boundary, so no message can be taken for another. A GPT's row is a sequence, so its
// hand-offs are rows x seq_len tokens of H (b x s x h per micro-batch).
#include "comm/MpiCheck.h"
#include "strategies/FlatUnit.h"
#include "strategies/PipelineSchedules.h"
#include "strategies/StagePlan.h"
#include "strategies/Strategy.h"
#include "strategies/UnitRunner.h"

#include <map>
#include <stdexcept>

namespace shardlab {
namespace {

using trace::Category;

class Pipeline final : public Strategy {
public:
  explicit Pipeline(StrategyContext ctx)
      : ctx_(ctx), stage_(ctx.coordinate(MeshDim::Pp)), dpRank_(ctx.coordinate(MeshDim::Dp)),
        dpSize_(ctx.degree(MeshDim::Dp)) {}

  void setup() override {
    plan_ = planStages(ctx_.shape, ctx_.job);
    micro_ = ctx_.job.microbatches;
    rows_ = ctx_.job.batch / dpSize_ / micro_;
    schedule_ = scheduleFor(ctx_.job.schedule, plan_.ranks, stage_, micro_, plan_.virtualStages);
    checkTagRange();
    for (int v = 0; v < plan_.virtualStages; ++v) {
      const int c = plan_.modelChunk(stage_, v);
      for (int u = plan_.firstOf(c); u <= plan_.lastOf(c); ++u)
        units_.emplace(u, replicatedState(ctx_, u, initialUnit(ctx_.shape, ctx_.job.seed, u)));
    }
  }

  StepResult step(int step, const TokenBatch& global) override {
    step_ = step;
    global_ = &global;
    lossSum_ = 0.0;
    for (auto& [u, unit] : units_) ctx_.device.zero(unit.grad.data(), unit.grad.bytes());
    for (const PipeOp& op : schedule_) {
      switch (op.kind) {
      case PipeOp::Forward: forward(op.chunk, op.micro); break;
      case PipeOp::Backward: backward(op.chunk, op.micro, Whole); break;
      case PipeOp::BackwardInput: backward(op.chunk, op.micro, InputOnly); break;
      case PipeOp::BackwardWeight: backwardWeight(op.chunk, op.micro); break;
      }
    }
    finishSends();
    optimizerStep();
    const bool lastStage = plan_.rankOf(plan_.chunkCount() - 1) == stage_;
    return lastStage ? StepResult{lossSum_, ctx_.job.batch / dpSize_} : StepResult{};
  }

  // The first replica's stages send their units to rank 0 (its first stage).
  std::vector<float> fullParameters() override {
    std::vector<float> all;
    if (dpRank_ != 0) return all;
    for (int u = 0; u < ctx_.shape.unitCount(); ++u) {
      const int owner = worldRank(plan_.rankOfUnit(u), 0);
      std::vector<float> unit(ctx_.shape.unitSize(u));
      if (owner == ctx_.rank) {
        unit = units_.at(u).paramsOnHost(ctx_.device);
        if (ctx_.rank != 0)
          MPI_CHECK(MPI_Send(unit.data(), static_cast<int>(unit.size()), MPI_FLOAT, 0, kParamsTag, MPI_COMM_WORLD));
      } else if (ctx_.rank == 0) {
        MPI_CHECK(MPI_Recv(unit.data(), static_cast<int>(unit.size()), MPI_FLOAT, owner, kParamsTag, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
      }
      if (ctx_.rank == 0) all.insert(all.end(), unit.begin(), unit.end());
    }
    return all;
  }

private:
  static constexpr int kParamsTag = 0; // fullParameters only, after training

  // Message tags: 1 + 2 * (micro * C + boundary) + direction, where boundary b lies
  // between model chunks b and b + 1 and direction is 0 for the activation, 1 for
  // its gradient.
  int tagOf(int micro, int boundary, int direction) const {
    return 1 + 2 * (micro * plan_.chunkCount() + boundary) + direction;
  }
  void checkTagRange() const {
    void* value = nullptr;
    int found = 0;
    MPI_CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found));
    const int upper = found ? *static_cast<int*>(value) : 32767;
    if (tagOf(micro_ - 1, plan_.chunkCount() - 1, 1) > upper)
      throw std::invalid_argument("pipeline: " + std::to_string(micro_) + " micro-batches x " +
                                  std::to_string(plan_.chunkCount()) + " stages exceed this MPI's tag range");
  }

  // The world rank of pipeline stage `stage` in the replica of world rank `of`.
  int worldRank(int stage, int of) const {
    return ctx_.job.mesh.empty() ? stage : ctx_.job.mesh.rankAt(of, MeshDim::Pp, stage);
  }

  // F(local chunk, micro-batch).
  void forward(int local, int micro) {
    const int c = plan_.modelChunk(stage_, local);
    const int first = plan_.firstOf(c), last = plan_.lastOf(c);
    const auto row0 = static_cast<std::size_t>(dpRank_ * micro_ + micro) * static_cast<std::size_t>(rows_);
    const auto token0 = row0 * static_cast<std::size_t>(ctx_.shape.tokensPerRow());
    auto runner = std::make_unique<UnitRunner>(ctx_, global_->inputs.data() + token0, global_->targets.data() + token0,
                                               rows_, 1.0f / static_cast<float>(ctx_.job.batch), step_, micro);
    if (c > 0) runner->setInput(first, receive(c - 1, first, micro, 0, Kind::WaitActivation));
    for (int u = first; u <= last; ++u) runner->forward(u, units_.at(u).param.data());
    if (c + 1 < plan_.chunkCount()) {
      // The output stays in the runner, alive until this chunk's backward.
      activationSends_[{local, micro}] = send(runner->output(last), c + 1, last, micro, c, 0);
    } else {
      lossSum_ += runner->lossSum();
    }
    live_[{local, micro}] = std::move(runner);
    reapSends();
  }

  enum BackwardPart { Whole, InputOnly };

  // B(local chunk, micro-batch): the whole backward, or its input-gradient half (the
  // runner then stays alive, holding what W needs).
  void backward(int local, int micro, BackwardPart part) {
    const int c = plan_.modelChunk(stage_, local);
    const int first = plan_.firstOf(c), last = plan_.lastOf(c);
    UnitRunner* runner = live_.at({local, micro}).get();
    if (c + 1 < plan_.chunkCount()) {
      if (auto sent = activationSends_.find({local, micro}); sent != activationSends_.end()) {
        ctx_.comm.wait(sent->second, step_, micro); // the output it reads is freed by the backward
        activationSends_.erase(sent);
      }
      runner->setOutputGrad(receive(c + 1, last, micro, 1, Kind::WaitGradient));
    }
    for (int u = last; u >= first; --u) {
      FlatUnit& unit = units_.at(u);
      if (part == Whole) runner->backward(u, unit.param.data(), unit.grad.data());
      else runner->backwardInput(u, unit.param.data());
    }
    if (c > 0) {
      Buffer dx = std::move(runner->inputGrad());
      auto ticket = send(dx, c - 1, first, micro, c - 1, 1);
      gradientSends_.push_back({std::move(ticket), std::move(dx)});
    }
    reapSends();
    if (part == Whole) live_.erase({local, micro}); // the micro-batch's activations go
  }

  // W(local chunk, micro-batch): the weight-gradient halves, after that micro-batch's B.
  void backwardWeight(int local, int micro) {
    const int c = plan_.modelChunk(stage_, local);
    auto runner = std::move(live_.at({local, micro}));
    live_.erase({local, micro});
    for (int u = plan_.lastOf(c); u >= plan_.firstOf(c); --u) runner->backwardWeight(u, units_.at(u).grad.data());
    reapSends();
  }

  // Tokens in a micro-batch's hand-off: its rows, each seq_len tokens for the GPT.
  int handoffTokens() const { return rows_ * ctx_.shape.tokensPerRow(); }

  // Receives a tokens x H message from the rank holding model chunk `fromChunk`, into
  // a new activation buffer of `unit`.
  Buffer receive(int fromChunk, int unit, int micro, int direction, Kind waitKind) {
    const int H = ctx_.shape.hidden;
    Buffer buf = ctx_.memory.allocate(Category::Activations, unit,
                                      static_cast<std::size_t>(handoffTokens()) * static_cast<std::size_t>(H));
    const int boundary = direction == 0 ? fromChunk : fromChunk - 1;
    ctx_.comm.recv(buf.data(), handoffTokens(), H, worldRank(plan_.rankOf(fromChunk), ctx_.rank), tagOf(micro, boundary, direction),
                   {unit, step_, micro}, waitKind);
    return buf;
  }

  CommStream::Ticket send(const Buffer& data, int toChunk, int unit, int micro, int boundary, int direction) {
    return ctx_.comm.send(data.data(), handoffTokens(), ctx_.shape.hidden, worldRank(plan_.rankOf(toChunk), ctx_.rank),
                          tagOf(micro, boundary, direction), {unit, step_, micro});
  }

  // Frees the gradient buffers whose sends are done.
  void reapSends() {
    std::erase_if(gradientSends_, [&](const auto& s) { return ctx_.comm.done(s.first); });
  }

  void finishSends() {
    for (auto& [key, ticket] : activationSends_) ctx_.comm.wait(ticket, step_, key.second);
    activationSends_.clear();
    for (auto& [ticket, buffer] : gradientSends_) ctx_.comm.wait(ticket, step_);
    gradientSends_.clear();
    live_.clear();
  }

  void optimizerStep() {
    if (dpSize_ > 1) {
      std::vector<CommStream::Ticket> reductions;
      for (auto& [u, unit] : units_)
        reductions.push_back(ctx_.comm.allReduce(unit.grad.data(), unit.grad.size(), {u, step_, -1}, ctx_.dpGroup));
      for (const auto& r : reductions) ctx_.comm.wait(r, step_);
    }
    for (auto& [u, unit] : units_) unit.adamw(ctx_, step_);
  }

  StrategyContext ctx_;
  int stage_;           // this rank's place along pp (its world rank without a mesh)
  int dpRank_, dpSize_; // its replica, and the replicas (1 without a dp dimension)
  StagePlan plan_;
  PipeSchedule schedule_;
  int micro_ = 1, rows_ = 1;
  std::map<int, FlatUnit> units_; // this rank's units only

  // Per step.
  int step_ = 0;
  const TokenBatch* global_ = nullptr;
  double lossSum_ = 0.0;
  std::map<std::pair<int, int>, std::unique_ptr<UnitRunner>> live_; // (chunk, micro) between its F and B
  std::map<std::pair<int, int>, CommStream::Ticket> activationSends_;
  std::vector<std::pair<CommStream::Ticket, Buffer>> gradientSends_;
};

} // namespace

std::unique_ptr<Strategy> makePipeline(StrategyContext ctx) { return std::make_unique<Pipeline>(ctx); }

} // namespace shardlab
