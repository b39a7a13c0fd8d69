#include "quiz/progress/AtomicFile.h"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace shardlab::quiz {

namespace {

[[noreturn]] void fail(int err, const std::string& what) {
  throw std::system_error(err, std::generic_category(), what);
}

} // namespace

void AtomicFile::write(const std::filesystem::path& target, std::string_view content) {
  // The rename below replaces whatever the name was: given /dev/full or a FIFO (-o), it
  // would put a regular file in place of the device. Only a regular file is replaced.
  struct stat existing {};
  if (::stat(target.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode))
    fail(EINVAL, target.string() + " is not a regular file; only a regular file is written or replaced");
  const auto dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) fail(errno, "cannot create a temporary file beside " + target.string());
  const std::string tmp = tmpl;

  auto abandon = [&](int err, const std::string& what) {
    ::close(fd);
    ::unlink(tmp.c_str());
    fail(err, what + " " + tmp + " (the old " + target.string() + " is unchanged)");
  };

  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon(errno, "cannot write");
    }
    if (n == 0) abandon(EIO, "no progress writing");
    done += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0) abandon(errno, "cannot set the mode of");
  if (::fsync(fd) != 0) abandon(errno, "cannot flush");
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(err, "cannot close " + tmp + " (the old " + target.string() + " is unchanged)");
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    fail(err, "cannot rename " + tmp + " to " + target.string());
  }
  // Make the rename itself durable.
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

} // namespace shardlab::quiz
