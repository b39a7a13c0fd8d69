// Writes events in the line format of docs/trace-format.md. Buffered; flush() makes
// what was written visible to a reader tailing the file (the launcher does).
#pragma once

#include "trace/Event.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace shardlab::trace {

class TraceWriter {
public:
  // Does not take ownership of `out`.
  explicit TraceWriter(std::FILE* out, std::vector<std::string> unitNames = {});

  void writeHeader();
  void writeJob(const nlohmann::json& job);
  void writeRank(int rank, const nlohmann::json& meta);
  void write(const Event& e, std::string_view failureText = {});
  // Writes one already formatted record line (the launcher forwards rank lines).
  void writeLine(std::string_view line);
  void flush();
  // The errno of the first write or flush that failed (a full disk: ENOSPC); 0 while
  // every byte has gone out.
  int error() const { return error_; }

  void setUnitNames(std::vector<std::string> names) { units_ = std::move(names); }

private:
  void append(std::string_view s);
  std::string_view unit(int u) const;

  std::FILE* out_;
  std::vector<std::string> units_;
  std::string buffer_;
  int error_ = 0;
};

// Formats one event as its record line, without the newline.
std::string formatEvent(const Event& e, const std::vector<std::string>& unitNames,
                        std::string_view failureText = {});

} // namespace shardlab::trace
