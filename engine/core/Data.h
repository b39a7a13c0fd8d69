// The data ShardLab trains on, generated, not downloaded: a synthetic language, a
// first-order Markov chain over V tokens drawn from the seed, where each token has
// three likely successors. A next-token model can learn it, so the loss falls from
// ln V towards the chain's entropy within a few steps.
//
// For the GPT (rows of seqLen > 1 tokens) each row is a sequence that needs context:
// its first kCopyPeriod tokens are the chain, from a uniform first token, and every
// later token repeats the token kCopyPeriod positions before it. A model that sees one
// token (the MLP) cannot do better than the chain's entropy on any of them; a model
// that attends kCopyPeriod - 1 positions back predicts every repeated token exactly.
// With seqLen 1 (the MLP's rows) the batch is what it always was, token for token.
#pragma once

#include <cstdint>
#include <vector>

namespace shardlab {

// `rowLength` tokens per row (1: independent tokens; a GPT's sequence length): inputs
// and targets hold rows x rowLength tokens, row after row; targets[i] is the token
// after inputs[i] in its sequence.
struct TokenBatch {
  std::vector<std::int32_t> inputs, targets;
  int rowLength = 1;
  int rows() const { return rowLength > 0 ? static_cast<int>(inputs.size()) / rowLength : 0; }
};

class SyntheticLanguage {
public:
  // A sequence's tokens repeat with this period (rows longer than one token).
  static constexpr int kCopyPeriod = 8;

  // seqLen: tokens per row (1 for the MLP's independent tokens).
  SyntheticLanguage(int vocab, std::uint64_t seed, int seqLen = 1);
  // The global batch of `batch` rows for a step: (input, next token) pairs, or
  // sequences of seqLen of them; identical on every rank, so each rank can take its own rows.
  TokenBatch globalBatch(int step, int batch) const;
  // Rows [first, first + count) of the global batch.
  static TokenBatch slice(const TokenBatch& b, int first, int count);
  // Entropy rate of the chain in nats: the loss a perfect model of one token reaches.
  double entropy() const;
  // The loss a perfect model of the whole sequence reaches (per token, nats): the
  // chain's entropy on the targets inside the first period, 0 on the repeated ones.
  double sequenceEntropy() const;

private:
  int next(int token, std::uint64_t& state) const;
  int vocab_;
  std::uint64_t seed_;
  int seqLen_;
  std::vector<std::int32_t> successors_; // 3 per token
};

} // namespace shardlab
