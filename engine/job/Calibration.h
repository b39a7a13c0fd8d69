// What this machine can do, measured by a short probe (`shardlab-run --calibrate`):
// the numbers lessons are sized with (quiz/bank/LessonSizing.h). The launcher
// measures it once per machine and build, caches it and records it in every
// trace's job record. Plain data and JSON: no MPI.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace shardlab {

struct Calibration {
  int cores = 1;                      // cores this process may run on (its CPU affinity)
  int gpus = 0;                       // CUDA devices this build can use
  double gemmFlopsPerSecond = 0;      // one rank's matrix multiply throughput, measured in a real job's MLP forward
  double handoffLatencySeconds = 0;   // a pipeline hand-off: send issued to receive completed, through the communication stream
  double collectiveBytesPerSecond = 0; // all-gather bandwidth per rank (bytes each rank sends / call time)
  int probeRanks = 2;                 // ranks of the probe's jobs
  double probeSeconds = 0;            // how long the probe took
  std::string key;                    // the machine and build it was measured on (the cache's key)

  nlohmann::json toJson() const;
  // nullopt when a field is missing, of the wrong type, or not a positive measurement.
  static std::optional<Calibration> fromJson(const nlohmann::json& j);
  // A calibration file (--calibrate's output, the launcher's cache), read as every named
  // file is (job/BoundedFile.h); nullopt with `problem` saying why, without the path.
  static std::optional<Calibration> readFile(const std::string& path, std::string& problem);
};

} // namespace shardlab
