#include "job/Faults.h"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>
#include <vector>

namespace shardlab {
namespace {

constexpr std::array<std::pair<InjectedFailure::Kind, std::string_view>, 4> kKinds{
    {{InjectedFailure::Kind::Kill, "kill"}, {InjectedFailure::Kind::Segv, "segv"}, {InjectedFailure::Kind::Exit, "exit"},
     {InjectedFailure::Kind::Hang, "hang"}}};

std::vector<std::string_view> fields(std::string_view text) {
  std::vector<std::string_view> out;
  for (std::size_t colon; (colon = text.find(':')) != std::string_view::npos; text.remove_prefix(colon + 1))
    out.push_back(text.substr(0, colon));
  out.push_back(text);
  return out;
}

bool whole(std::string_view s, int& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() && v >= 0;
}

bool number(std::string_view s, double& v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v);
}

} // namespace

std::string InjectedFailure::toString() const {
  std::string_view k = "?";
  for (const auto& [value, text] : kKinds)
    if (value == kind) k = text;
  return std::to_string(rank) + ":" + std::to_string(step) + ":" + std::string(k);
}

std::optional<Faults> parseFaults(std::string_view text, std::string& error) {
  const auto f = fields(text);
  Faults faults;
  int rank = 0, step = 0;
  if ((f.size() == 3 || f.size() == 4) && whole(f[0], rank) && whole(f[1], step)) {
    if (f.size() == 3) {
      for (const auto& [kind, name] : kKinds)
        if (f[2] == name) faults.failure = InjectedFailure{rank, step, kind};
      if (faults.failure) return faults;
    } else if (f[2] == "slow") {
      double factor = 0;
      if (number(f[3], factor) && factor >= 1.0) {
        faults.straggler = Straggler{rank, factor, step};
        return faults;
      }
    }
  }
  error = "SHARDLAB_FAULT: '" + std::string(text.substr(0, 60)) +
          "' is not RANK:STEP:KIND (KIND kill, segv, exit or hang) or RANK:STEP:slow:FACTOR (FACTOR at least 1)";
  return std::nullopt;
}

std::optional<InjectedFailure> parseInjectedFailure(std::string_view text, std::string& error) {
  auto faults = parseFaults(text, error);
  if (faults && faults->failure) return faults->failure;
  error = "--fault: '" + std::string(text.substr(0, 60)) + "' is not RANK:STEP:KIND (KIND kill, segv, exit or hang)";
  return std::nullopt;
}

} // namespace shardlab
