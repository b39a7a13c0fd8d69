// The agreement table of tests/data/job-specs.json: job specs, valid and invalid (one
// row at least per rule), that the launcher, the quiz and the app's form must judge
// alike. Header-only so each test program (engine, integration, app) reads it the same way.
#pragma once

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace shardlab::testing {

struct JobSpecRow {
  std::string name;
  nlohmann::json spec;     // as a lab step writes it, on top of the lesson's spec
  bool valid = true;
  std::string field, rule; // when invalid: the spec key named, the JobRule id
  bool form = true;        // false: a wrong JSON type, which a form cannot hold
};

struct JobSpecTable {
  std::string lesson;      // the lesson the lab steps run
  nlohmann::json lessonSpec;
  std::vector<JobSpecRow> rows;

  // What a lab step runs: the lesson's spec with the row's keys on top.
  nlohmann::json merged(const JobSpecRow& row) const {
    if (!row.spec.is_object()) return row.spec;
    nlohmann::json out = lessonSpec;
    out.update(row.spec);
    return out;
  }
};

// A row's hostfile names a file beside the table as "${data}/NAME" (or the folder
// itself as "${data}"): the table's folder, absolute, wherever the test runs.
inline void placeTestData(nlohmann::json& spec, const std::string& dataDir) {
  if (!spec.is_object() || !spec.contains("hostfile") || !spec["hostfile"].is_string()) return;
  std::string path = spec["hostfile"].get<std::string>();
  const std::string marker = "${data}";
  if (path.rfind(marker, 0) == 0) spec["hostfile"] = dataDir + path.substr(marker.size());
}

// SHARDLAB_JOB_SPECS and SHARDLAB_ASSETS_DIR are set by CMake.
inline JobSpecTable loadJobSpecTable() {
  std::ifstream in(SHARDLAB_JOB_SPECS);
  const auto j = nlohmann::json::parse(in);
  JobSpecTable t;
  t.lesson = j.at("lesson").get<std::string>();
  std::ifstream lessonIn(std::string(SHARDLAB_ASSETS_DIR) + "/lessons/" + t.lesson + ".json");
  t.lessonSpec = nlohmann::json::parse(lessonIn).at("spec");
  for (const auto& r : j.at("rows")) {
    JobSpecRow row;
    row.name = r.at("name").get<std::string>();
    row.spec = r.at("spec");
    const std::string table = SHARDLAB_JOB_SPECS;
    placeTestData(row.spec, table.substr(0, table.find_last_of('/')));
    row.valid = !r.contains("rule");
    row.field = r.value("field", "");
    row.rule = r.value("rule", "");
    row.form = r.value("form", true);
    t.rows.push_back(row);
  }
  if (t.rows.empty()) throw std::runtime_error("job-specs.json has no rows");
  return t;
}

} // namespace shardlab::testing
