// Who a hung job was waiting for, read from the flight recorders its ranks wrote when
// their collective timed out (`flight` records, docs/trace-format.md): the call most
// ranks were stuck in, the ranks waiting in it, and the participants that never
// entered it. The launcher prints it; the app can show the same.
#pragma once

#include "trace/Trace.h"

#include <optional>
#include <string>
#include <vector>

namespace shardlab::trace {

struct HangReport {
  Kind kind = Kind::None;  // the call the waiting ranks are stuck in
  std::string unit;        // its unit ("-": none)
  int step = -1, micro = -1;
  CommGroup group = CommGroup::World;
  std::int64_t seq = -1;
  std::vector<int> waiting; // ranks whose flight recorder shows the call unfinished
  std::vector<int> missing; // participants with no sign of entering it
  std::vector<int> passed;  // participants that finished it (they are elsewhere)
  // "rank 2 never entered all_gather of block3 in step 4; ranks 0, 1, 3 are waiting in it"
  std::string message;
};

// nullopt when no rank recorded an unfinished call in its flight recorder.
std::optional<HangReport> hangReport(const Trace& trace);

} // namespace shardlab::trace
