#include "trace/JobRecord.h"

namespace shardlab::trace {
namespace {

// A count a record may hold: a JSON integer from 0 up (a float such as 1e300 is not one,
// and converting it to an integer would be undefined behaviour).
std::optional<std::int64_t> count(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(u);
  }
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return v.get<std::int64_t>();
  return std::nullopt;
}

bool absent(const nlohmann::json& record, const char* key) {
  return !record.contains(key) || record[key].is_null();
}

// The model description; an error names its field.
std::optional<std::string> readModel(const nlohmann::json& m, ModelRecord& out) {
  if (!m.is_object()) return "model: must be an object";
  // A model has its embedding, at most kMaxLayers blocks and its output.
  const std::size_t maxUnits = static_cast<std::size_t>(JobConfig::kMaxLayers) + 2;
  if (m.contains("units")) {
    const auto& units = m["units"];
    if (!units.is_array()) return "model.units: must be a list of unit names";
    if (units.size() > maxUnits) return "model.units: more than " + std::to_string(maxUnits) + " units";
    // A unit is named by the engine ("block12", "output"): a longer name is no unit's, and
    // every view, table and caption that shows it would carry it whole.
    constexpr std::size_t kMaxUnitName = 64;
    for (const auto& u : units) {
      if (!u.is_string()) return "model.units: must be a list of unit names";
      if (u.get_ref<const std::string&>().size() > kMaxUnitName)
        return "model.units: a unit name longer than " + std::to_string(kMaxUnitName) + " characters";
      out.units.push_back(u.get<std::string>());
    }
  }
  if (m.contains("unit_parameters")) {
    const auto& sizes = m["unit_parameters"];
    if (!sizes.is_array()) return "model.unit_parameters: must be a list of counts";
    if (sizes.size() > maxUnits) return "model.unit_parameters: more than " + std::to_string(maxUnits) + " units";
    for (const auto& n : sizes) {
      const auto c = count(n);
      if (!c) return "model.unit_parameters: must be a list of counts (integers from 0)";
      out.unitParameters.push_back(*c);
    }
  }
  for (auto [key, field] : {std::pair{"parameters", &out.parameters}, std::pair{"bytes", &out.bytes}}) {
    if (!m.contains(key)) continue;
    const auto c = count(m[key]);
    if (!c) return "model." + std::string(key) + ": must be an integer from 0";
    *field = *c;
  }
  return std::nullopt;
}

std::optional<std::string> readCollectiveAlgorithms(const nlohmann::json& a, CollectiveAlgorithms& out) {
  if (!a.is_object() || !a.contains("choice") || !a["choice"].is_string())
    return "collective_algorithms: must be an object with a choice";
  out.choice = a["choice"].get<std::string>();
  if (!a.contains("mca")) return std::nullopt;
  if (!a["mca"].is_object()) return "collective_algorithms.mca: must be an object";
  for (auto it = a["mca"].begin(); it != a["mca"].end(); ++it)
    out.mca.emplace_back(it.key(), it->is_string() ? it->get<std::string>() : it->dump());
  return std::nullopt;
}

std::optional<std::string> readImported(const nlohmann::json& a, ImportedRecord& out) {
  if (!a.is_object() || !a.contains("source") || !a["source"].is_string())
    return "imported: must be an object with a source";
  out.source = a["source"].get<std::string>();
  if (a.contains("files")) {
    if (!a["files"].is_array()) return "imported.files: must be a list of file names";
    for (const auto& f : a["files"]) {
      if (!f.is_string()) return "imported.files: must be a list of file names";
      out.files.push_back(f.get<std::string>());
    }
  }
  if (a.contains("backend") && a["backend"].is_string()) out.backend = a["backend"].get<std::string>();
  if (a.contains("mapped")) {
    const auto c = count(a["mapped"]);
    if (!c) return "imported.mapped: must be an integer from 0";
    out.mapped = *c;
  }
  if (a.contains("not_mapped")) {
    if (!a["not_mapped"].is_object()) return "imported.not_mapped: must be an object (event: count)";
    for (const auto& [what, n] : a["not_mapped"].items()) {
      const auto c = count(n);
      if (!c) return "imported.not_mapped." + what + ": must be an integer from 0";
      out.notMapped += *c;
    }
  }
  return std::nullopt;
}

} // namespace

std::variant<JobRecord, std::string> JobRecord::read(nlohmann::json record) {
  if (!record.is_object()) return std::string("must be a JSON object");
  JobRecord r;
  std::vector<JobIssue> issues;
  r.config = JobConfig::fromJson(record, issues, JobConfig{}, JobConfig::OtherKeys::Skip);
  if (issues.empty()) issues = r.config.validateSizes();
  if (!issues.empty()) return issues.front().message();

  if (!absent(record, "model"))
    if (auto error = readModel(record["model"], r.model)) return *error;
  for (auto [key, field] : {std::pair{"command", &r.command}, std::pair{"shardlab_version", &r.shardlabVersion},
                            std::pair{"started_at", &r.startedAt}}) {
    if (absent(record, key)) continue;
    if (!record[key].is_string()) return std::string(key) + ": must be a string";
    *field = record[key].get<std::string>();
  }
  if (!absent(record, "calibration")) {
    r.calibration = Calibration::fromJson(record["calibration"]);
    if (!r.calibration) return std::string("calibration: not a measurement (cores, gpus, probe_ranks, "
                                           "gemm_flops_per_second, handoff_latency_seconds, "
                                           "collective_bytes_per_second, key)");
  }
  if (!absent(record, "collective_algorithms")) {
    CollectiveAlgorithms a;
    if (auto error = readCollectiveAlgorithms(record["collective_algorithms"], a)) return *error;
    r.collectiveAlgorithms = std::move(a);
  }
  if (!absent(record, "imported")) {
    ImportedRecord imported;
    if (auto error = readImported(record["imported"], imported)) return *error;
    r.imported = std::move(imported);
  }
  r.written = std::move(record);
  return r;
}

} // namespace shardlab::trace
