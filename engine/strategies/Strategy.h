// A parallelism strategy: how the model's units, gradients and optimizer state are
// placed on the ranks and which communication one training step needs. One
// strategy per file: Ddp.cpp, Fsdp.cpp, Pipeline.cpp, TensorParallel.cpp.
#pragma once

#include "comm/CommStream.h"
#include "core/Data.h"
#include "core/Device.h"
#include "job/JobConfig.h"
#include "core/Memory.h"
#include "core/Model.h"
#include "core/Recorder.h"

#include <functional>
#include <memory>
#include <vector>

namespace shardlab {

struct StrategyContext {
  const JobConfig& job;
  ModelShape shape;
  Device& device;
  MemoryTracker& memory;
  Recorder& recorder;
  CommStream& comm; // over MPI_COMM_WORLD
  int rank = 0, size = 1;
  // The communicators of the job's mesh (docs/mesh.md), one per dimension the mesh
  // names, set by makeStrategy; null along a dimension that spans every rank (it runs
  // on the job's communicator, as without a mesh) or that the mesh does not name.
  const Communicator* dpGroup = nullptr;
  const Communicator* ppGroup = nullptr;
  const Communicator* tpGroup = nullptr;

  // The communicator collectives along `d` run on (null: the job's).
  const Communicator* group(MeshDim d) const {
    return d == MeshDim::Dp ? dpGroup : d == MeshDim::Pp ? ppGroup : tpGroup;
  }
  // This rank's coordinate along `d` and the degree there: without a mesh the rank and
  // the ranks along the strategy's own dimension, 0 and 1 along the others.
  int coordinate(MeshDim d) const {
    if (!job.mesh.empty()) return job.mesh.coordinate(rank, d);
    return job.degree(d) > 1 ? rank : 0;
  }
  int degree(MeshDim d) const { return job.degree(d); }
};

struct StepResult {
  double lossSum = 0.0;     // summed over this rank's tokens (0 on ranks that compute no loss)
  std::int64_t tokens = 0;  // tokens this rank computed the loss of
};

class Strategy {
public:
  virtual ~Strategy() = default;
  // Allocates the persistent state (parameters, gradients, optimizer state) and
  // initialises the parameters from the seed.
  virtual void setup() = 0;
  virtual StepResult step(int step, const TokenBatch& globalBatch) = 0;
  // The full model as one host vector in the canonical layout (units in order, each
  // in its full flat layout, no padding). Collective: every rank calls it; the result
  // is complete on rank 0. Used to check strategies against each other; not traced.
  virtual std::vector<float> fullParameters() = 0;
};

std::unique_ptr<Strategy> makeDdp(StrategyContext ctx);
std::unique_ptr<Strategy> makeFsdp(StrategyContext ctx);
std::unique_ptr<Strategy> makePipeline(StrategyContext ctx);
std::unique_ptr<Strategy> makeTensorParallel(StrategyContext ctx);
std::unique_ptr<Strategy> makeStrategy(StrategyContext ctx);

// The optimizer's hyperparameters, the same for every strategy (so that every
// strategy computes the same mathematics as one rank).
AdamWParams adamwParams(const JobConfig& job);

// Initial full parameters of one unit, on the host.
std::vector<float> initialUnit(const ModelShape& shape, std::uint64_t seed, int unit);

class UnitRunner;

// One micro-step of gradient accumulation (the job's accumulate K): a forward and
// backward of 1/K of the rank's rows. Without no_sync every micro-step reduces its
// gradients; with no_sync only the last does, the earlier ones accumulating into the
// gradient buffers.
struct MicroStep {
  int index = 0;   // 0 .. K - 1
  int micro = -1;  // for the records: the index, or -1 without accumulation
  bool last = true;
  bool reduces = true;
  // A micro-step after the first that reduces its own gradients needs fresh result
  // buffers: the reductions sum over ranks, so a gradient that already holds the
  // reduced sum of the earlier micro-steps cannot be reduced again. Its result is
  // added to that sum once reduced.
  bool fresh = false;
  bool first() const { return index == 0; }
};

// The step of a data-parallel strategy (DDP, FSDP) over this rank's batch/ranks rows
// of the global batch: K micro-steps, each with its own UnitRunner on its rows.
// `computeAndReduce` runs the micro-step's forward and backward and issues its
// reductions; after each micro-step that reduced, except the last, `finishReductions`
// waits for them and adds them to the sum, before the next one begins. The strategy
// finishes the last micro-step's reductions in its optimizer step. Returns the loss
// summed over the rank's rows, and their count.
StepResult runMicroSteps(StrategyContext& ctx, int step, const TokenBatch& global,
                         const std::function<void(UnitRunner&, const MicroStep&)>& computeAndReduce,
                         const std::function<void()>& finishReductions);

} // namespace shardlab
