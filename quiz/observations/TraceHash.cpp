#include "quiz/observations/TraceHash.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <vector>

namespace shardlab::quiz {

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t hash) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string formatTraceHash(std::uint64_t hash) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

namespace {
bool hashBytes(const std::filesystem::path& file, std::uint64_t& h) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = in.gcount();
    if (n > 0) h = fnv1a64(std::string_view(buf.data(), static_cast<std::size_t>(n)), h);
  }
  return !in.bad();
}
} // namespace

std::optional<std::string> hashTraceFile(const std::filesystem::path& file) {
  std::uint64_t h = 14695981039346656037ull;
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) {
    // A folder of PyTorch profiler traces, one per rank: its files' names and bytes, in name order.
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(file, ec))
      if (entry.is_regular_file(ec)) files.push_back(entry.path());
    if (ec || files.empty()) return std::nullopt;
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      h = fnv1a64(f.filename().string(), h);
      if (!hashBytes(f, h)) return std::nullopt;
    }
    return formatTraceHash(h);
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<char> buf(1 << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = in.gcount();
    if (n > 0) h = fnv1a64(std::string_view(buf.data(), static_cast<std::size_t>(n)), h);
  }
  if (in.bad()) return std::nullopt;
  return formatTraceHash(h);
}

nlohmann::json runConfig(const trace::Trace& trace) {
  if (!trace.job) return nlohmann::json::object();
  nlohmann::json c = trace.job->config.toJson();
  // When and by which version the run was made: the launcher's additions to the job record.
  if (!trace.job->startedAt.empty()) c["started_at"] = trace.job->startedAt;
  if (!trace.job->shardlabVersion.empty()) c["shardlab_version"] = trace.job->shardlabVersion;
  return c;
}

std::optional<RunRecord> describeRun(const std::filesystem::path& file, const trace::Trace& trace) {
  auto hash = hashTraceFile(file);
  if (!hash) return std::nullopt;
  return RunRecord{*hash, file.string(), runConfig(trace)};
}

} // namespace shardlab::quiz
