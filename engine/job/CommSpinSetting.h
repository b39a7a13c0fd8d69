// SHARDLAB_COMM_SPIN_US: the communication stream's hand-off poll bound, in µs, given by
// hand (for measuring; docs/performance.md, "The communication stream's hand-off").
// One reading for both programs: the launcher refuses a bad value before it launches
// anything (exit 2), the worker uses it in place of the node's choice (HandOffSpin).
#pragma once

#include <chrono>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

namespace shardlab {

// Unset: nullopt. Throws std::invalid_argument naming the variable when the value is not
// a whole number of microseconds from 0 to 10000.
inline std::optional<std::chrono::microseconds> commSpinFromEnvironment() {
  const char* text = std::getenv("SHARDLAB_COMM_SPIN_US");
  if (!text) return std::nullopt;
  char* end = nullptr;
  const long us = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || us < 0 || us > 10000)
    throw std::invalid_argument(std::string("SHARDLAB_COMM_SPIN_US: '") + text +
                                "' is not a whole number of microseconds from 0 to 10000");
  return std::chrono::microseconds(us);
}

} // namespace shardlab
