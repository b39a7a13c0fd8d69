#include "job/ModelShape.h"

namespace shardlab {

std::size_t ModelShape::unitSize(int unit, int inner) const {
  const auto V = static_cast<std::size_t>(vocab), H = static_cast<std::size_t>(hidden);
  const auto F = static_cast<std::size_t>(inner > 0 ? inner : 4 * hidden);
  if (gpt) { // layouts in core/Gpt.h
    switch (kindOf(unit)) {
    case UnitKind::Embedding: return V * H + static_cast<std::size_t>(seqLen) * H;
    case UnitKind::Output: return 2 * H + H * V + V;
    case UnitKind::Block: {
      // A tensor-parallel slice (inner F = 4H / t) holds the same 1/t of the heads'
      // columns, A = H / t, as of the MLP's inner width (core/Gpt.h's slice layout).
      const auto A = F / 4;
      return 2 * H + H * 3 * A + 3 * A + A * H + H + 2 * H + H * F + F + F * H + H;
    }
    }
  }
  switch (kindOf(unit)) {
  case UnitKind::Embedding: return V * H;
  case UnitKind::Output: return H * V + V;
  case UnitKind::Block: return H * F + F + F * H + H;
  }
  return 0;
}

} // namespace shardlab
