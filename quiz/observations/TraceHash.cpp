#include "quiz/observations/TraceHash.h"

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

std::optional<std::string> hashTraceFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::uint64_t h = 14695981039346656037ull;
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
