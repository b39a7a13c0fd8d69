// The rules a job can break, each with an id and an English message template. The
// launcher prints the English; the app translates the same template through Qt
// (context "JobRule"), so every program names the same rule for the same field.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

enum class JobRule {
  NotAnObject,       // the spec is not a JSON object
  UnknownKey,
  NotAnInteger,
  IntegerRange,
  NotANonNegativeInteger,
  NotANumber,
  NotAString,
  NotABoolean,
  NotAList,          // of unit counts
  NotASize,          // neither a size string nor a number of bytes
  BadSize,           // %1: the text
  Choice,            // %1: the allowed names, %2: the value
  Range,             // %1..%2, %3: the value
  AtLeast,           // %1: the minimum, %2: the value
  Positive,          // lr
  NotNegative,       // weight_decay, memory_budget
  BatchDivisibleByRanks,         // %1 batch, %2 ranks
  NaiveOneMicrobatch,
  MicrobatchesDivideBatch,       // %1 batch, %2 micro-batches
  StagesExceedUnits,             // %1 stages, %2 units
  ChunksExceedUnits,             // %1 chunks, %2 units
  InterleavedNeedsVirtualStages,
  InterleavedNeedsTwoRanks,
  VirtualStagesOnlyInterleaved,
  InterleavedMicrobatches,       // %1 stages, %2 micro-batches
  StageCountMismatch,            // %1 expected, %2 given
  StageUnitsSum,                 // %1 units
  StageEmpty,
  TpDividesHidden,               // %1 ranks, %2 hidden, %3 4 x hidden
  HybridNeedsShardGroup,
  ShardGroupDividesRanks,        // %1 shard group, %2 ranks
  ShardGroupOnlyHybrid,
  DdpFsdpOnly,                   // %1 strategy
  OnlyStrategy,                  // %1 the strategy that has the option, %2 the job's
  AccumulateDividesBatch,        // %1 batch, %2 ranks, %3 micro-steps
  NoSyncNeedsAccumulate,
  MixedPrecisionSharded,         // %1 the dtype
  NotAStraggler,                 // not {"rank": R, "factor": F, "from_step": S}
  StragglerRank,                 // %1 the rank, %2 the last rank
  StragglerFactor,               // %1 the factor
  HostfileMissing,               // %1 the path
  HostfileUnreadable,            // %1 the path
  HostfileEmpty,                 // %1 the path
  HeadsDivideHidden,             // %1 heads, %2 hidden
  TpDividesHeads,                // %1 ranks, %2 heads
  TokensPerBatch,                // %1 batch, %2 seq_len, %3 the most tokens
  GptStrategy,                   // %1 schedule (a zero-bubble one)
  ZeroBubbleNeedsTwoRanks,       // %1 the schedule
  MeshSyntax,                    // %1 the text
  MeshUnknownDimension,          // %1 the name
  MeshRepeatedDimension,         // %1 the name
  MeshProduct,                   // %1 the mesh's product, %2 ranks
  MeshStrategy,                  // %1 strategy, %2 the dimension it cannot run over
  DpDividesBatch,                // %1 batch, %2 dp
  MicrobatchesDivideReplicaBatch, // %1 batch, %2 dp, %3 micro-batches
};

// The rule's id, as the quiz's diagnostics and tests name it: "batch-divisible-by-ranks".
std::string_view ruleId(JobRule rule);
// The English template, with %1, %2, ... for the arguments (Qt's QString::arg style).
const char* ruleTemplate(JobRule rule);
// Every rule, in declaration order (for the agreement test and the translations).
const std::vector<JobRule>& allRules();

struct JobIssue {
  std::string field;              // the spec key: "batch", "memory_budget", "virtual_stages"
  JobRule rule;
  std::vector<std::string> args;  // the template's %1, %2, ...
  // "batch: the global batch (10) must be divisible by ranks (4)"
  std::string message() const;
  // The template with its arguments, without the field.
  std::string ruleText() const;
};

} // namespace shardlab
