// libFuzzer target: the trace reader (docs/trace-format.md). Whatever the bytes, the
// whole-text reader and the line parser (the live path) must not crash, must agree
// on where the damage is, and whatever was read must summarise.
#include "trace/Report.h"
#include "trace/TraceReader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace shardlab::trace;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto whole = readTrace(text);
  if (whole.error && (whole.error->line < 1 || whole.error->message.empty())) std::abort();
  (void)summarize(whole.trace);
  (void)summarizeMeasured(whole.trace);

  // Line by line, as the launcher follows a live rank: skips the same lines and stops at
  // the same line.
  Trace live;
  TraceParser parser(live);
  long errorLine = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = text.find('\n', start);
    const auto line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (parser.parseLine(line)) {
      // A complete line with no known record is skipped, as readTrace skips it.
      if (parser.lastWasUnknownRecord() && end != std::string_view::npos) {
        start = end + 1;
        continue;
      }
      errorLine = parser.linesRead();
      break;
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (whole.error && errorLine == 0) (void)summarize(live); // a whole-file rule (e.g. no header): the parser may accept each line
  if (errorLine != 0 && (!whole.error || whole.error->line != errorLine)) std::abort();
  return 0;
}
