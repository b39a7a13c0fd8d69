// Reading a file that a user, a lesson or a lab names: a regular file only (never a
// directory, a device such as /dev/zero, a FIFO that would block, or a /proc file that
// never ends), and no more than a cap of bytes, so that no input makes a reader
// allocate without end. The caps, one per kind of file, are here (docs/architecture.md,
// "Files ShardLab reads").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace shardlab {

struct FileCap {
  std::int64_t bytes;
  const char* what; // "a job spec": for the message when a file is larger
};

// A job spec (--spec, a rank's job.json), the calibration cache, a hostfile.
inline constexpr FileCap kSpecFileCap{1 << 20, "a job spec"};
inline constexpr FileCap kHostfileCap{1 << 20, "a hostfile"};
inline constexpr FileCap kCalibrationFileCap{1 << 20, "a calibration cache"};
// The quiz's JSON files: question banks, lessons, labs, observation templates.
inline constexpr FileCap kQuizFileCap{4 << 20, "a question bank, lesson or lab file"};
// A lesson's guide or a lab step's notes (Markdown), shown whole in the app.
inline constexpr FileCap kNotesFileCap{1 << 20, "a guide or lab note"};
// A learner's progress file (answers and scores).
inline constexpr FileCap kProgressFileCap{16 << 20, "a progress file"};
// A trace: about 24 MB per 1000 steps of a 2-rank DDP run; readers hold ≈6× its size.
inline constexpr FileCap kTraceFileCap{std::int64_t{1} << 30, "a trace"};

// Why a file was not read. `text` leaves the path out (the caller names the file or the
// option): "is a directory, not a regular file", "is 300 MiB: larger than the 1 MiB a
// guide or lab note may be", "cannot be read: Permission denied".
struct FileProblem {
  enum class Kind { Unreadable, NotRegularFile, TooLarge } kind = Kind::Unreadable;
  std::string text;
};

// The whole file, or nullopt with `problem` set.
std::optional<std::string> readBoundedFile(const std::string& path, FileCap cap, FileProblem& problem);

// How deep a JSON text may nest objects and arrays. Every JSON ShardLab writes or ships
// nests fewer than 8 levels; a parsed value is copied, compared and printed by recursion,
// one call per level, so a job record nested millions deep crashed the readers on the
// stack. Checked on the text, before parsing.
inline constexpr int kJsonNestingCap = 64;

// "nests objects or arrays more than 64 levels deep", or nullopt: counted outside strings.
std::optional<std::string> jsonNestingProblem(std::string_view json, int cap = kJsonNestingCap);

} // namespace shardlab
