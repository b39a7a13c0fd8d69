#include "job/JobRules.h"

// lupdate reads these markers when it scans this file for the app's translations
// (context "JobRule"); here, without Qt, they are the plain strings.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace shardlab {

namespace {

struct RuleText {
  JobRule rule;
  std::string_view id;
  const char* text;
};

// One row per rule: the id and the English template.
const RuleText kRules[] = {
    {JobRule::NotAnObject, "not-an-object", QT_TRANSLATE_NOOP("JobRule", "must be a JSON object")},
    {JobRule::UnknownKey, "unknown-key", QT_TRANSLATE_NOOP("JobRule", "unknown key")},
    {JobRule::NotAnInteger, "wrong-type", QT_TRANSLATE_NOOP("JobRule", "must be an integer")},
    {JobRule::IntegerRange, "integer-range",
     QT_TRANSLATE_NOOP("JobRule", "must be an integer between %1 and %2 (got %3)")},
    {JobRule::NotANonNegativeInteger, "wrong-type", QT_TRANSLATE_NOOP("JobRule", "must be a non-negative integer")},
    {JobRule::NotANumber, "wrong-type", QT_TRANSLATE_NOOP("JobRule", "must be a number")},
    {JobRule::NotAString, "wrong-type", QT_TRANSLATE_NOOP("JobRule", "must be a string")},
    {JobRule::NotABoolean, "wrong-type", QT_TRANSLATE_NOOP("JobRule", "must be true or false")},
    {JobRule::NotAList, "wrong-type", QT_TRANSLATE_NOOP("JobRule", "must be a list of unit counts")},
    {JobRule::NotASize, "wrong-type", QT_TRANSLATE_NOOP("JobRule", "must be a size such as 3MiB or a number of bytes")},
    {JobRule::BadSize, "bad-size", QT_TRANSLATE_NOOP("JobRule", "'%1' is not a size (use bytes, KiB, MiB or GiB)")},
    {JobRule::Choice, "choice", QT_TRANSLATE_NOOP("JobRule", "must be one of %1 (got '%2')")},
    {JobRule::Range, "range", QT_TRANSLATE_NOOP("JobRule", "must be between %1 and %2 (got %3)")},
    {JobRule::AtLeast, "at-least", QT_TRANSLATE_NOOP("JobRule", "must be at least %1 (got %2)")},
    {JobRule::Positive, "positive", QT_TRANSLATE_NOOP("JobRule", "must be a positive number")},
    {JobRule::NotNegative, "not-negative", QT_TRANSLATE_NOOP("JobRule", "must not be negative")},
    {JobRule::BatchDivisibleByRanks, "batch-divisible-by-ranks",
     QT_TRANSLATE_NOOP("JobRule", "the global batch (%1) must be divisible by ranks (%2)")},
    {JobRule::NaiveOneMicrobatch, "naive-one-microbatch",
     QT_TRANSLATE_NOOP("JobRule", "the naive schedule runs the whole batch at once (use 1, or gpipe/1f1b)")},
    {JobRule::MicrobatchesDivideBatch, "microbatches-divide-batch",
     QT_TRANSLATE_NOOP("JobRule", "must divide the global batch (%1 is not divisible by %2)")},
    {JobRule::StagesExceedUnits, "stages-exceed-units",
     QT_TRANSLATE_NOOP("JobRule",
                       "a pipeline of %1 stages needs at least as many units, the model has %2 (layers + 2)")},
    {JobRule::ChunksExceedUnits, "chunks-exceed-units",
     QT_TRANSLATE_NOOP("JobRule", "the interleaved schedule cuts the model into ranks x virtual stages = %1 chunks "
                                  "of at least one unit, the model has %2 (layers + 2)")},
    {JobRule::InterleavedNeedsVirtualStages, "interleaved-needs-virtual-stages",
     QT_TRANSLATE_NOOP("JobRule", "the interleaved schedule needs at least 2 chunks per rank")},
    {JobRule::InterleavedNeedsTwoRanks, "interleaved-needs-two-ranks",
     QT_TRANSLATE_NOOP("JobRule", "the interleaved schedule needs at least 2 ranks (its chunks alternate between ranks)")},
    {JobRule::VirtualStagesOnlyInterleaved, "virtual-stages-only-interleaved",
     QT_TRANSLATE_NOOP("JobRule", "only the interleaved schedule uses virtual stages")},
    {JobRule::InterleavedMicrobatches, "interleaved-microbatches",
     QT_TRANSLATE_NOOP("JobRule", "the interleaved schedule needs a multiple of the stage count (%1), got %2")},
    {JobRule::StageCountMismatch, "stage-count",
     QT_TRANSLATE_NOOP("JobRule", "expected %1 unit counts, one per stage (per chunk when interleaved), got %2")},
    {JobRule::StageUnitsSum, "stage-units-sum",
     QT_TRANSLATE_NOOP("JobRule", "unit counts must add up to the model's %1 units")},
    {JobRule::StageEmpty, "stage-empty", QT_TRANSLATE_NOOP("JobRule", "every stage needs at least one unit")},
    {JobRule::TpDividesHidden, "tp-divides-hidden",
     QT_TRANSLATE_NOOP("JobRule",
                       "the tensor-parallel degree (%1) must divide hidden (%2) and 4 x hidden (%3)")},
    {JobRule::HybridNeedsShardGroup, "hybrid-needs-shard-group",
     QT_TRANSLATE_NOOP("JobRule", "hybrid sharding needs the number of ranks per shard group")},
    {JobRule::ShardGroupDividesRanks, "shard-group-divides-ranks",
     QT_TRANSLATE_NOOP("JobRule", "the shard group (%1 ranks) must divide the ranks (%2) into equal groups")},
    {JobRule::ShardGroupOnlyHybrid, "shard-group-only-hybrid",
     QT_TRANSLATE_NOOP("JobRule", "only FSDP's hybrid sharding uses a shard group")},
    {JobRule::DdpFsdpOnly, "ddp-fsdp-only",
     QT_TRANSLATE_NOOP("JobRule", "only DDP and FSDP have this option (the strategy is %1)")},
    {JobRule::OnlyStrategy, "only-strategy",
     QT_TRANSLATE_NOOP("JobRule", "only the %1 strategy has this option (the strategy is %2)")},
    {JobRule::AccumulateDividesBatch, "accumulate-divides-batch",
     QT_TRANSLATE_NOOP("JobRule", "the global batch (%1) must split into ranks (%2) x micro-steps (%3) equal "
                                  "micro-batches")},
    {JobRule::NoSyncNeedsAccumulate, "no-sync-needs-accumulate",
     QT_TRANSLATE_NOOP("JobRule", "no_sync skips the reduction of every micro-step but the last: it needs at least "
                                  "2 micro-steps (accumulate)")},
    {JobRule::MixedPrecisionSharded, "mixed-precision-sharded",
     QT_TRANSLATE_NOOP("JobRule", "%1 is implemented for FSDP's grad-op, full and hybrid sharding (the stages that "
                                  "gather parameters and reduce-scatter gradients)")},
    {JobRule::NotAStraggler, "wrong-type",
     QT_TRANSLATE_NOOP("JobRule", "must be null or {\"rank\": R, \"factor\": F, \"from_step\": S}")},
    {JobRule::StragglerRank, "straggler-rank",
     QT_TRANSLATE_NOOP("JobRule", "the slow rank (%1) must be one of the job's ranks, 0 to %2")},
    {JobRule::StragglerFactor, "straggler-factor",
     QT_TRANSLATE_NOOP("JobRule", "the slow rank's factor must be at least 1 (got %1)")},
    {JobRule::HostfileMissing, "hostfile-missing", QT_TRANSLATE_NOOP("JobRule", "there is no file '%1'")},
    {JobRule::HostfileUnreadable, "hostfile-unreadable",
     QT_TRANSLATE_NOOP("JobRule", "'%1' cannot be read as a hostfile (not a readable file)")},
    {JobRule::HostfileEmpty, "hostfile-empty",
     QT_TRANSLATE_NOOP("JobRule", "'%1' names no host (one host per line, e.g. 'lab-pc-01 slots=4')")},
    {JobRule::HeadsDivideHidden, "heads-divide-hidden",
     QT_TRANSLATE_NOOP("JobRule", "the attention heads (%1) must divide hidden (%2): each head has hidden / heads "
                                  "dimensions")},
    {JobRule::TpDividesHeads, "tp-divides-heads",
     QT_TRANSLATE_NOOP("JobRule", "the tensor-parallel degree (%1) must divide the attention heads (%2)")},
    {JobRule::TokensPerBatch, "tokens-per-batch",
     QT_TRANSLATE_NOOP("JobRule", "a batch of %1 sequences of %2 tokens is more than the %3 tokens a batch may "
                                  "hold")},
    {JobRule::GptStrategy, "gpt-strategy",
     QT_TRANSLATE_NOOP("JobRule", "the GPT does not run the %1 schedule yet: its backward is not split into input "
                                  "and weight gradients (B and W)")},
    {JobRule::ZeroBubbleNeedsTwoRanks, "zero-bubble-needs-two-ranks",
     QT_TRANSLATE_NOOP("JobRule", "the %1 schedule needs at least 2 stages (ranks): its weight gradients wait to "
                                  "fill the time a stage waits for its neighbours")},
    {JobRule::MeshSyntax, "mesh-syntax",
     QT_TRANSLATE_NOOP("JobRule", "'%1' is not a mesh: write its dimensions and sizes, e.g. dp=2,tp=2")},
    {JobRule::MeshUnknownDimension, "mesh-unknown-dimension",
     QT_TRANSLATE_NOOP("JobRule", "unknown dimension '%1' (the dimensions are dp, pp and tp)")},
    {JobRule::MeshRepeatedDimension, "mesh-repeated-dimension",
     QT_TRANSLATE_NOOP("JobRule", "the dimension %1 is named twice")},
    {JobRule::MeshProduct, "mesh-product",
     QT_TRANSLATE_NOOP("JobRule", "the mesh's sizes multiply to %1 ranks, the job has %2")},
    {JobRule::MeshStrategy, "mesh-strategy",
     QT_TRANSLATE_NOOP("JobRule", "the %1 strategy does not run over %2: that dimension must be 1 (ddp and fsdp "
                                  "run over dp, tp over dp and tp, pipeline over dp and pp)")},
    {JobRule::DpDividesBatch, "dp-divides-batch",
     QT_TRANSLATE_NOOP("JobRule", "the global batch (%1) must be divisible by the data-parallel degree dp (%2)")},
    {JobRule::MicrobatchesDivideReplicaBatch, "microbatches-divide-replica-batch",
     QT_TRANSLATE_NOOP("JobRule", "must divide each replica's batch (the global batch %1 over dp = %2 replicas, "
                                  "in %3 micro-batches)")},
};

const RuleText& row(JobRule rule) {
  for (const auto& r : kRules)
    if (r.rule == rule) return r;
  return kRules[0];
}

} // namespace

std::string_view ruleId(JobRule rule) { return row(rule).id; }
const char* ruleTemplate(JobRule rule) { return row(rule).text; }

const std::vector<JobRule>& allRules() {
  static const std::vector<JobRule> rules = [] {
    std::vector<JobRule> out;
    for (const auto& r : kRules) out.push_back(r.rule);
    return out;
  }();
  return rules;
}

std::string JobIssue::ruleText() const {
  // Qt's %N convention: %1..%9, each replaced by its argument.
  const std::string t = ruleTemplate(rule);
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '%' && i + 1 < t.size() && t[i + 1] >= '1' && t[i + 1] <= '9') {
      const auto n = static_cast<std::size_t>(t[i + 1] - '1');
      out += n < args.size() ? args[n] : std::string();
      ++i;
    } else {
      out += t[i];
    }
  }
  return out;
}

std::string JobIssue::message() const { return field + ": " + ruleText(); }

} // namespace shardlab
