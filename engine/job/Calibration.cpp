#include "job/Calibration.h"

#include "job/BoundedFile.h"

namespace shardlab {

nlohmann::json Calibration::toJson() const {
  return {{"cores", cores},
          {"gpus", gpus},
          {"gemm_flops_per_second", gemmFlopsPerSecond},
          {"handoff_latency_seconds", handoffLatencySeconds},
          {"collective_bytes_per_second", collectiveBytesPerSecond},
          {"probe_ranks", probeRanks},
          {"probe_seconds", probeSeconds},
          {"key", key}};
}

std::optional<Calibration> Calibration::fromJson(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  auto positiveInt = [&](const char* k) -> std::optional<int> {
    if (!j.contains(k) || !j[k].is_number_integer() || j[k].get<int>() < 0) return std::nullopt;
    return j[k].get<int>();
  };
  auto positiveNumber = [&](const char* k) -> std::optional<double> {
    if (!j.contains(k) || !j[k].is_number() || !(j[k].get<double>() > 0)) return std::nullopt;
    return j[k].get<double>();
  };
  const auto cores = positiveInt("cores");
  const auto gpus = positiveInt("gpus");
  const auto ranks = positiveInt("probe_ranks");
  const auto gemm = positiveNumber("gemm_flops_per_second");
  const auto latency = positiveNumber("handoff_latency_seconds");
  const auto bandwidth = positiveNumber("collective_bytes_per_second");
  if (!cores || *cores < 1 || !gpus || !ranks || !gemm || !latency || !bandwidth) return std::nullopt;
  if (!j.contains("key") || !j["key"].is_string()) return std::nullopt;
  Calibration c;
  c.cores = *cores;
  c.gpus = *gpus;
  c.probeRanks = *ranks;
  c.gemmFlopsPerSecond = *gemm;
  c.handoffLatencySeconds = *latency;
  c.collectiveBytesPerSecond = *bandwidth;
  c.probeSeconds = j.contains("probe_seconds") && j["probe_seconds"].is_number() ? j["probe_seconds"].get<double>() : 0.0;
  c.key = j["key"].get<std::string>();
  return c;
}

std::optional<Calibration> Calibration::readFile(const std::string& path, std::string& problem) {
  FileProblem why;
  const auto text = readBoundedFile(path, kCalibrationFileCap, why);
  if (!text) {
    problem = why.text;
    return std::nullopt;
  }
  if (auto deep = jsonNestingProblem(*text)) {
    problem = *deep;
    return std::nullopt;
  }
  auto c = fromJson(nlohmann::json::parse(*text, nullptr, false));
  if (!c) problem = "is not a calibration (shardlab-run --calibrate)";
  return c;
}

} // namespace shardlab
