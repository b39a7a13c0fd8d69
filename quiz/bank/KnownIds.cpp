#include "quiz/bank/KnownIds.h"

#include <algorithm>

namespace shardlab::quiz {

const std::vector<std::string>& knownLessonIds() {
  static const std::vector<std::string> ids{"ddp-replicas",     "fsdp-shard-gather-free", "fsdp-prefetch",
                                            "oom-ddp-vs-fsdp",  "pipeline-bubble",        "gpipe-vs-1f1b",
                                            "tensor-parallel",  "interleaving",           "zero-bubble",
                                            "straggler",
                                            "zero-stages",      "activation-checkpointing", "mixed-precision",
                                            "gradient-accumulation"};
  return ids;
}

const std::vector<std::string>& knownMomentIds() {
  static const std::vector<std::string> ids{"first_all_gather", "gathered_freed",  "first_reduce_scatter",
                                            "persistent_memory", "prefetch_overlap", "first_all_reduce",
                                            "bubble",            "activation_send",  "tp_all_reduce",
                                            "out_of_memory"};
  return ids;
}

bool isKnownLessonId(std::string_view id) {
  const auto& ids = knownLessonIds();
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool isKnownMomentId(std::string_view id) {
  const auto& ids = knownMomentIds();
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

bool isWellFormedId(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(id.front())) return false;
  return std::all_of(id.begin(), id.end(), [&](char c) { return alnum(c) || c == '-' || c == '_'; });
}

std::string joined(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += separator;
    out += items[i];
  }
  return out;
}

} // namespace shardlab::quiz
