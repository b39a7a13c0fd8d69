// Reads the line format of docs/trace-format.md. A damaged or cut trace is read up
// to the damage: everything before it is kept and the error names the line. A line
// with an unknown record (garbage, or a record of a newer writer) is skipped and
// counted, and the lines after it are read.
#pragma once

#include "trace/Trace.h"

#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace shardlab::trace {

struct ReadError {
  long line = 0;       // 1-based line number of the damage
  std::string message; // what is wrong there
  std::string describe(std::string_view source) const; // "FILE:LINE: message"
};

// Parses one line at a time into a Trace; used for files and for live streams.
class TraceParser {
public:
  explicit TraceParser(Trace& into) : trace_(into) {}
  // Returns an error message when the line is not a valid record. A blank line is ok.
  std::optional<std::string> parseLine(std::string_view line);
  long linesRead() const { return line_; }
  bool sawHeader() const { return sawHeader_; }
  // Whether the last error was an unknown record tag (nothing of the line was kept).
  bool lastWasUnknownRecord() const { return unknown_; }

private:
  std::optional<std::string> parseRecord(std::string_view line);
  std::optional<std::string> outsideTheJob(int rank) const;
  Trace& trace_;
  long line_ = 0;
  bool sawHeader_ = false;
  bool unknown_ = false;
};

// The lines readTrace() skipped: unknown records.
struct SkippedLines {
  long count = 0;        // lines skipped
  ReadError first;       // the first of them, with what is wrong there
  long linesAfter = 0;   // lines after the first one, read (or skipped too: count - 1 of them)
};

struct ReadResult {
  Trace trace;
  std::optional<ReadError> error;   // the damage reading stopped at
  std::optional<SkippedLines> skipped; // unknown records skipped on the way (ok() still true)
  bool ok() const { return !error.has_value(); }
};

ReadResult readTrace(std::string_view text);
ReadResult readTraceFile(const std::string& path);

} // namespace shardlab::trace
