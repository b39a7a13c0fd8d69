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

} // namespace shardlab
