// Every file the quiz reads is a regular file of bounded size (job/BoundedFile.h): a
// device, a directory or a huge note is refused by name, never read until memory ends.
#include "job/BoundedFile.h"
#include "quiz/bank/JsonFile.h"
#include "quiz/bank/LabLoader.h"
#include "quiz/progress/Progress.h"
#include "trace/TraceReader.h"
#include "TestSupport.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

using namespace shardlab;
using namespace shardlab::quiz;
using namespace shardlab::quiz::test;

namespace {

// shardlab-quiz with `arguments`, under a memory limit (4 GiB) and a time limit (120 s)
// only so that a reader without its cap fails rather than takes the machine.
// Under AddressSanitizer the address-space limit cannot be set (its shadow memory alone
// reserves terabytes of it); the output's assertions still say whether the cap held.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

std::pair<int, std::string> runQuizBounded(const std::string& arguments) {
  const std::string limit = kAddressSanitizer ? "" : "ulimit -v 4000000; ";
  const std::string cmd = limit + "timeout 120 '" + std::string(SHARDLAB_QUIZ_EXE) + "' " + arguments + " 2>&1";
  std::string out;
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return {-1, ""};
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

} // namespace

TEST(FileCaps, ADeviceOrADirectoryIsRefusedNamingIt) {
  TempDir dir;
  FileProblem problem;
  EXPECT_FALSE(readBoundedFile("/dev/zero", kQuizFileCap, problem));
  EXPECT_EQ(problem.kind, FileProblem::Kind::NotRegularFile);
  EXPECT_EQ(problem.text, "is a character device, not a regular file");
  EXPECT_FALSE(readBoundedFile(dir.path().string(), kQuizFileCap, problem));
  EXPECT_EQ(problem.text, "is a directory, not a regular file");
  const auto fifo = dir.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(readBoundedFile(fifo.string(), kQuizFileCap, problem)) << "a FIFO must not block the reader";
  EXPECT_EQ(problem.text, "is a pipe (FIFO), not a regular file");
}

TEST(FileCaps, AFileLargerThanItsCapIsRefusedWithBothSizes) {
  TempDir dir;
  const auto file = dir.path() / "big.json";
  writeText(file, "");
  std::filesystem::resize_file(file, 300u << 20); // sparse: 300 MiB without writing them
  FileProblem problem;
  EXPECT_FALSE(readBoundedFile(file.string(), kNotesFileCap, problem));
  EXPECT_EQ(problem.kind, FileProblem::Kind::TooLarge);
  EXPECT_EQ(problem.text, "is 300 MiB: larger than the 1 MiB a guide or lab note may be");
  // A /proc file says size 0 and may not end: no more than the cap is read.
  EXPECT_TRUE(readBoundedFile("/proc/self/status", kNotesFileCap, problem)) << problem.text;
  writeText(file, "{}");
  EXPECT_EQ(readBoundedFile(file.string(), kNotesFileCap, problem), "{}");
}

TEST(FileCaps, ValidateOfDevZeroSaysWhatItIs) {
  const auto [code, out] = runQuizBounded("validate /dev/zero");
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("/dev/zero"), std::string::npos) << out;
  EXPECT_NE(out.find("is a character device, not a regular file"), std::string::npos) << out;
}

TEST(FileCaps, ALabNoteOf300MegabytesIsRefusedNamingTheNote) {
  TempDir dir;
  std::filesystem::copy(assetsDir() / "labs" / "fsdp-intro", dir.path() / "fsdp-intro");
  std::filesystem::copy_file(assetsDir() / "labs" / "fsdp-intro.json", dir.path() / "fsdp-intro.json");
  const auto note = dir.path() / "fsdp-intro" / "welcome.en.md";
  std::filesystem::resize_file(note, 300u << 20);
  const auto [code, out] = runQuizBounded("validate '" + (dir.path() / "fsdp-intro.json").string() + "'");
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find(note.string()), std::string::npos) << out;
  EXPECT_NE(out.find("file-too-large"), std::string::npos) << out;
  EXPECT_NE(out.find("is 300 MiB: larger than the 1 MiB a guide or lab note may be"), std::string::npos) << out;
}

TEST(FileCaps, AProgressFileThatIsADeviceIsNamed) {
  try {
    (void)Progress::load("/dev/zero");
    FAIL() << "a device is not a progress file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/zero"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
}

// shardlab-replay, the quiz and the app read traces through readTraceFile: a directory
// (tellg -1, then an allocation without end) or a device is named, not read.
// `size --calibration FIFO` blocked for ever on an ifstream: it is read as every named file is.
TEST(FileCaps, ACalibrationGivenToSizeThatIsAFifoIsNamedWithoutBlocking) {
  TempDir dir;
  const auto fifo = dir.path() / "calibration.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto [code, out] = runQuizBounded("--assets '" + assetsDir().string() + "' size fsdp-prefetch --calibration '" +
                                          fifo.string() + "'");
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find(fifo.string() + " is a pipe (FIFO), not a regular file"), std::string::npos) << out;
}

TEST(FileCaps, ATraceThatIsADirectoryOrADeviceIsNamed) {
  TempDir dir;
  const auto folder = trace::readTraceFile(dir.path().string());
  ASSERT_TRUE(folder.error);
  EXPECT_EQ(folder.error->message, "the file is a directory, not a regular file");
  const auto zero = trace::readTraceFile("/dev/zero");
  ASSERT_TRUE(zero.error);
  EXPECT_EQ(zero.error->message, "the file is a character device, not a regular file");
}
