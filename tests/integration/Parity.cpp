#include "Parity.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace shardlab::testing {

RunOutputs readRunOutputs(const std::string& paramsPath, const std::string& summaryJsonPath) {
  RunOutputs out;
  std::ifstream p(paramsPath, std::ios::binary);
  if (!p) throw std::runtime_error("cannot read " + paramsPath);
  p.seekg(0, std::ios::end);
  const auto bytes = static_cast<std::size_t>(p.tellg());
  p.seekg(0);
  out.params.resize(bytes / sizeof(float));
  p.read(reinterpret_cast<char*>(out.params.data()), static_cast<std::streamsize>(out.params.size() * sizeof(float)));
  std::ifstream s(summaryJsonPath);
  if (!s) throw std::runtime_error("cannot read " + summaryJsonPath);
  const auto j = nlohmann::json::parse(s, nullptr, false);
  if (j.is_discarded() || !j.contains("loss") || !j["loss"].contains("per_step"))
    throw std::runtime_error(summaryJsonPath + ": no loss.per_step");
  for (const auto& l : j["loss"]["per_step"]) out.losses.push_back(l.is_number() ? l.get<double>() : NAN);
  return out;
}

Parity compareRuns(const RunOutputs& run, const RunOutputs& ref, double tolerance) {
  Parity r;
  char buf[256];
  auto fail = [&](const std::string& why) {
    r.ok = false;
    r.report = why;
    return r;
  };
  if (ref.params.empty() || ref.losses.empty()) return fail("the reference run wrote no parameters or no losses");
  if (run.params.size() != ref.params.size())
    return fail("parameter count " + std::to_string(run.params.size()) + " vs " + std::to_string(ref.params.size()));
  if (run.losses.size() != ref.losses.size())
    return fail("step count " + std::to_string(run.losses.size()) + " vs " + std::to_string(ref.losses.size()));
  double maxDiff = 0, maxRef = 0;
  for (std::size_t i = 0; i < ref.params.size(); ++i) {
    const double a = run.params[i], b = ref.params[i];
    if (!std::isfinite(a) || !std::isfinite(b)) return fail("parameter " + std::to_string(i) + " is not finite");
    maxDiff = std::max(maxDiff, std::fabs(a - b));
    maxRef = std::max(maxRef, std::fabs(b));
  }
  r.params = maxRef > 0 ? maxDiff / maxRef : maxDiff;
  for (std::size_t s = 0; s < ref.losses.size(); ++s) {
    const double a = run.losses[s], b = ref.losses[s];
    if (!std::isfinite(a) || !std::isfinite(b)) return fail("the loss of step " + std::to_string(s) + " is not finite");
    r.loss = std::max(r.loss, std::fabs(a - b) / std::max(std::fabs(b), 1e-30));
  }
  r.ok = r.params <= tolerance && r.loss <= tolerance;
  std::snprintf(buf, sizeof buf, "parameters: relative %.3g, losses: relative %.3g (tolerance %.1g)%s", r.params,
                r.loss, tolerance, r.ok ? "" : ": DIFFERENT");
  r.report = buf;
  return r;
}

} // namespace shardlab::testing
