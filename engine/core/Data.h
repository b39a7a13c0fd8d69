// The data ShardLab trains on, generated, not downloaded: a synthetic language, a
// first-order Markov chain over V tokens drawn from the seed, where each token has
// three likely successors. A next-token model can learn it, so the loss falls from
// ln V towards the chain's entropy within a few steps.
#pragma once

#include <cstdint>
#include <vector>

namespace shardlab {

struct TokenBatch {
  std::vector<std::int32_t> inputs, targets;
};

class SyntheticLanguage {
public:
  SyntheticLanguage(int vocab, std::uint64_t seed);
  // The global batch of `batch` (input, next token) pairs for a step; identical on
  // every rank, so each rank can take its own rows.
  TokenBatch globalBatch(int step, int batch) const;
  // Rows [first, first + count) of the global batch.
  static TokenBatch slice(const TokenBatch& b, int first, int count);
  // Entropy rate of the chain in nats: the loss a perfect model reaches.
  double entropy() const;

private:
  int next(int token, std::uint64_t& state) const;
  int vocab_;
  std::uint64_t seed_;
  std::vector<std::int32_t> successors_; // 3 per token
};

} // namespace shardlab
