// Identifies the run an answer was about: a 64-bit FNV-1a hash of the trace file's
// bytes (own implementation, identical on every platform) and the job settings
// recorded in the trace.
#pragma once

#include "quiz/progress/Progress.h"

#include "trace/Trace.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace shardlab::quiz {

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash = 14695981039346656037ull);
// "fnv1a64:" + 16 lower-case hex digits.
std::string formatTraceHash(std::uint64_t hash);
// The hash of a file's bytes (a folder: its files' names and bytes); nullopt when it cannot be read.
std::optional<std::string> hashTraceFile(const std::filesystem::path& file);
// The job settings of a trace worth showing an instructor: its JobConfig (every option,
// as JobConfig::toJson writes it), when it started and the ShardLab version, without
// the command line and model details.
nlohmann::json runConfig(const trace::Trace& trace);
// RunRecord for a trace file already read into `trace`; nullopt when the file cannot be read.
std::optional<RunRecord> describeRun(const std::filesystem::path& file, const trace::Trace& trace);

} // namespace shardlab::quiz
