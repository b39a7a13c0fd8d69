// GPU against CPU: the same job on two devices must end with
// the same parameters (rank 0's --dump-params) and the same losses per step
// (--summary-json), within fp32 tolerance. The comparison is plain C++, so its
// tolerance and its failure on a planted difference are tested on the CPU
// (ParityTest.cpp, label unit); the GPU runs are tests/cuda/GpuParityTest.cpp.
#pragma once

#include <string>
#include <vector>

namespace shardlab::testing {

struct RunOutputs {
  std::vector<float> params;  // --dump-params
  std::vector<double> losses; // summary "loss"/"per_step"
};

// Reads what a run wrote; throws std::runtime_error when a file is missing or malformed.
RunOutputs readRunOutputs(const std::string& paramsPath, const std::string& summaryJsonPath);

struct Parity {
  bool ok = false;
  double params = 0; // max |a - b| / max |b| over the parameters
  double loss = 0;   // max over steps of |a - b| / |b|
  std::string report; // one line: the numbers and, when not ok, why
};

// `run` against the reference `ref`: ok when both are complete and finite, the same
// sizes, and both relative differences are at most `tolerance` (1e-4: fp32 GEMMs in
// another order over a few steps).
Parity compareRuns(const RunOutputs& run, const RunOutputs& ref, double tolerance = 1e-4);

} // namespace shardlab::testing
