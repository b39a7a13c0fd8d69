// The model's shape arithmetic: units, their parameter counts and the size of one
// FSDP shard. Pure functions, shared by the job configuration (validation, the trace's
// model record), the engine (allocation, sharding) and the tests.
#pragma once

#include <cstddef>

namespace shardlab {

enum class UnitKind { Embedding, Block, Output };

// The MLP (gpt false): embedding, residual MLP blocks, output. The GPT (gpt true,
// core/Gpt.h): the same three kinds of unit with a transformer's layouts; a batch
// row is a sequence of seqLen tokens.
struct ModelShape {
  int vocab = 64, hidden = 64, layers = 4;
  bool gpt = false;
  int heads = 1, seqLen = 1;             // gpt only
  int tokensPerRow() const { return gpt ? seqLen : 1; }
  int unitCount() const { return layers + 2; }
  UnitKind kindOf(int unit) const {
    return unit == 0 ? UnitKind::Embedding : unit == layers + 1 ? UnitKind::Output : UnitKind::Block;
  }
  // Parameters of a unit; a block's inner width is `inner` (default 4H).
  std::size_t unitSize(int unit, int inner = 0) const;
  // FSDP's shard of `unit` over `ranks`: the flat parameter padded to a multiple of
  // `ranks` and cut in equal pieces (PyTorch's FlatParameter does the same).
  std::size_t shardSize(int unit, int ranks) const {
    const auto n = unitSize(unit), r = static_cast<std::size_t>(ranks);
    return (n + r - 1) / r;
  }
};

} // namespace shardlab
