#include "job/BoundedFile.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace shardlab {
namespace {

std::string sizeText(std::int64_t bytes) {
  char buf[32];
  if (bytes >= (std::int64_t{1} << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(bytes) / (1 << 30));
  else if (bytes >= (1 << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  else std::snprintf(buf, sizeof buf, "%lld bytes", static_cast<long long>(bytes));
  std::string s = buf;
  if (auto dot = s.find(".0 "); dot != std::string::npos) s.erase(dot, 2); // "1 MiB", not "1.0 MiB"
  return s;
}

const char* kindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a pipe (FIFO)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "something else";
}

} // namespace

std::optional<std::string> readBoundedFile(const std::string& path, FileCap cap, FileProblem& problem) {
  auto fail = [&](FileProblem::Kind kind, std::string text) -> std::optional<std::string> {
    problem = {kind, std::move(text)};
    return std::nullopt;
  };
  // Non-blocking: opening a FIFO would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail(FileProblem::Kind::Unreadable, std::string("cannot be read: ") + std::strerror(errno));
  struct Close {
    int fd;
    ~Close() { ::close(fd); }
  } const closeOnReturn{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return fail(FileProblem::Kind::Unreadable, std::string("cannot be read: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return fail(FileProblem::Kind::NotRegularFile, "is " + std::string(kindOf(st.st_mode)) + ", not a regular file");
  auto tooLarge = [&](std::int64_t size, bool atLeast) {
    return fail(FileProblem::Kind::TooLarge, "is " + std::string(atLeast ? "more than " : "") + sizeText(size) +
                                                 ": larger than the " + sizeText(cap.bytes) + " " + cap.what +
                                                 " may be");
  };
  if (st.st_size > cap.bytes) return tooLarge(st.st_size, false);
  // A file of /proc says size 0 and may go on for ever: read no more than the cap and one byte.
  std::string text;
  text.resize(static_cast<std::size_t>(std::min(cap.bytes, st.st_size > 0 ? st.st_size : std::int64_t{1} << 16)) + 1);
  std::size_t have = 0;
  for (;;) {
    if (have == text.size()) {
      if (static_cast<std::int64_t>(have) > cap.bytes) return tooLarge(cap.bytes, true);
      text.resize(std::min<std::size_t>(text.size() * 2 + 1, static_cast<std::size_t>(cap.bytes) + 1));
    }
    const ssize_t n = ::read(fd, text.data() + have, text.size() - have);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(FileProblem::Kind::Unreadable, std::string("cannot be read: ") + std::strerror(errno));
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  if (static_cast<std::int64_t>(have) > cap.bytes) return tooLarge(cap.bytes, true);
  text.resize(have);
  return text;
}

std::optional<std::string> jsonNestingProblem(std::string_view json, int cap) {
  int depth = 0;
  bool inString = false, escaped = false;
  for (const char c : json) {
    if (inString) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') inString = true;
    else if (c == '[' || c == '{') {
      if (++depth > cap) return "nests objects or arrays more than " + std::to_string(cap) + " levels deep";
    } else if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  return std::nullopt;
}

} // namespace shardlab
