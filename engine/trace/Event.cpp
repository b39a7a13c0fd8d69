#include "trace/Event.h"

#include <array>

namespace shardlab::trace {
namespace {

constexpr std::array<std::string_view, 10> kRecordNames = {
    "op", "coll", "mem", "devmem", "step", "idle", "oom", "fail", "end", "flight"};
constexpr std::array<std::string_view, 15> kKindNames = {
    "-",        "forward",  "backward",       "optimizer",     "all_gather",
    "reduce_scatter", "all_reduce", "send", "recv", "broadcast",
    "wait_activation", "wait_gradient", "wait_collective", "backward_input", "backward_weight"};
constexpr std::array<std::string_view, kCategoryCount> kCategoryNames = {
    "param_shard",  "param_replica", "gathered_params", "grads",
    "grad_shard",   "optimizer_state", "activations",   "comm_buffers", "unknown"};

constexpr std::array<std::string_view, kCommGroupCount> kCommGroupNames = {"world", "shard", "replicate", "dp", "pp", "tp"};

template <typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::string_view, N>& names, std::string_view s) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == s) return static_cast<E>(i);
  return std::nullopt;
}

} // namespace

std::string_view toString(Record r) { return kRecordNames.at(static_cast<std::size_t>(r)); }
std::string_view toString(CommGroup g) { return kCommGroupNames.at(static_cast<std::size_t>(g)); }
std::optional<CommGroup> commGroupFromString(std::string_view s) { return lookup<CommGroup>(kCommGroupNames, s); }
std::string_view toString(Kind k) { return kKindNames.at(static_cast<std::size_t>(k)); }
std::string_view toString(Category c) { return kCategoryNames.at(static_cast<std::size_t>(c)); }
std::optional<Record> recordFromString(std::string_view s) { return lookup<Record>(kRecordNames, s); }
std::optional<Kind> kindFromString(std::string_view s) { return lookup<Kind>(kKindNames, s); }
std::optional<Category> categoryFromString(std::string_view s) {
  return lookup<Category>(kCategoryNames, s);
}

bool isCollective(Kind k) {
  switch (k) {
  case Kind::AllGather:
  case Kind::ReduceScatter:
  case Kind::AllReduce:
  case Kind::Send:
  case Kind::Recv:
  case Kind::Broadcast: return true;
  default: return false;
  }
}

bool isBackward(Kind k) { return k == Kind::Backward || k == Kind::BackwardInput || k == Kind::BackwardWeight; }

bool isPersistent(Category c) {
  switch (c) {
  case Category::ParamShard:
  case Category::ParamReplica:
  case Category::Grads:
  case Category::GradShard:
  case Category::OptimizerState: return true;
  default: return false;
  }
}

} // namespace shardlab::trace
