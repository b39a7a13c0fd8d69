#include "strategies/StagePlan.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace shardlab {

int StagePlan::chunkOfUnit(int unit) const {
  for (int c = 0; c < chunkCount(); ++c)
    if (unit >= firstOf(c) && unit <= lastOf(c)) return c;
  throw std::out_of_range("stage plan: no chunk holds unit " + std::to_string(unit));
}

double unitCost(const ModelShape& shape, int unit) {
  const auto params = static_cast<double>(shape.unitSize(unit));
  return shape.kindOf(unit) == UnitKind::Embedding ? params : 2.0 * params;
}

namespace {

// Linear partition by dynamic programming: best[k][n] is the smallest possible cost
// of the heaviest chunk when the first n units form k non-empty chunks.
std::vector<int> balancedCuts(const std::vector<double>& cost, int chunks) {
  const int U = static_cast<int>(cost.size());
  std::vector<double> prefix(static_cast<std::size_t>(U) + 1, 0.0);
  for (int u = 0; u < U; ++u) prefix[static_cast<std::size_t>(u) + 1] = prefix[static_cast<std::size_t>(u)] + cost[static_cast<std::size_t>(u)];
  const double inf = std::numeric_limits<double>::infinity();
  const auto K = static_cast<std::size_t>(chunks), N = static_cast<std::size_t>(U);
  std::vector<std::vector<double>> best(K + 1, std::vector<double>(N + 1, inf));
  std::vector<std::vector<std::size_t>> cut(K + 1, std::vector<std::size_t>(N + 1, 0));
  best[0][0] = 0.0;
  for (std::size_t k = 1; k <= K; ++k)
    for (std::size_t n = k; n <= N; ++n)
      for (std::size_t j = k - 1; j < n; ++j) { // the k-th chunk is units [j, n)
        const double heaviest = std::max(best[k - 1][j], prefix[n] - prefix[j]);
        if (heaviest < best[k][n]) {
          best[k][n] = heaviest;
          cut[k][n] = j;
        }
      }
  std::vector<int> first(K + 1);
  first[K] = U;
  for (std::size_t k = K, n = N; k > 0; --k) {
    n = cut[k][n];
    first[k - 1] = static_cast<int>(n);
  }
  return first;
}

} // namespace

StagePlan planStages(const ModelShape& shape, const JobConfig& job) {
  StagePlan plan;
  plan.ranks = job.mesh.empty() ? job.ranks : job.mesh.size(MeshDim::Pp); // a replica's stages
  plan.virtualStages = job.schedule == Schedule::Interleaved ? job.virtualStages : 1;
  const int chunks = plan.ranks * plan.virtualStages;
  if (chunks > shape.unitCount())
    throw std::invalid_argument("stages: " + std::to_string(chunks) + " pipeline chunks need at least as many units");
  if (!job.stages.empty()) {
    plan.firstUnit.push_back(0);
    for (int n : job.stages) plan.firstUnit.push_back(plan.firstUnit.back() + n);
  } else {
    std::vector<double> cost;
    for (int u = 0; u < shape.unitCount(); ++u) cost.push_back(unitCost(shape, u));
    plan.firstUnit = balancedCuts(cost, chunks);
  }
  return plan;
}

} // namespace shardlab
