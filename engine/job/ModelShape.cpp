#include "job/ModelShape.h"

namespace shardlab {

std::size_t ModelShape::unitSize(int unit, int inner) const {
  const auto V = static_cast<std::size_t>(vocab), H = static_cast<std::size_t>(hidden);
  const auto F = static_cast<std::size_t>(inner > 0 ? inner : 4 * hidden);
  switch (kindOf(unit)) {
  case UnitKind::Embedding: return V * H;
  case UnitKind::Output: return H * V + V;
  case UnitKind::Block: return H * F + F + F * H + H;
  }
  return 0;
}

} // namespace shardlab
