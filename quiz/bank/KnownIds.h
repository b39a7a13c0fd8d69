// The fixed ids the app relies on: lesson ids and the trace moments a question can
// point to as its evidence.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace shardlab::quiz {

// ddp-replicas, fsdp-shard-gather-free, fsdp-prefetch, oom-ddp-vs-fsdp,
// pipeline-bubble, gpipe-vs-1f1b, tensor-parallel, interleaving, zero-bubble, straggler, ...
const std::vector<std::string>& knownLessonIds();
// first_all_gather, gathered_freed, first_reduce_scatter, persistent_memory,
// prefetch_overlap, first_all_reduce, bubble, activation_send, tp_all_reduce, out_of_memory.
const std::vector<std::string>& knownMomentIds();

bool isKnownLessonId(std::string_view id);
bool isKnownMomentId(std::string_view id);
// Lower-case letters, digits, '-' and '_', starting with a letter or digit.
bool isWellFormedId(std::string_view id);

std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ");

} // namespace shardlab::quiz
