#include "core/Data.h"

#include <algorithm>
#include <cmath>

namespace shardlab {
namespace {

constexpr double kProb[4] = {0.6, 0.25, 0.1, 0.05}; // three successors, then uniform

std::uint64_t mix(std::uint64_t& s) {
  s += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double unit(std::uint64_t& s) { return static_cast<double>(mix(s) >> 11) / 9007199254740992.0; }

} // namespace

SyntheticLanguage::SyntheticLanguage(int vocab, std::uint64_t seed, int seqLen)
    : vocab_(vocab), seed_(seed), seqLen_(seqLen) {
  std::uint64_t s = seed ^ 0x5eed5eed5eedULL;
  successors_.resize(static_cast<std::size_t>(vocab) * 3);
  for (auto& t : successors_) t = static_cast<std::int32_t>(mix(s) % static_cast<std::uint64_t>(vocab));
}

int SyntheticLanguage::next(int token, std::uint64_t& state) const {
  const double u = unit(state);
  const auto base = static_cast<std::size_t>(token) * 3;
  if (u < kProb[0]) return successors_[base];
  if (u < kProb[0] + kProb[1]) return successors_[base + 1];
  if (u < kProb[0] + kProb[1] + kProb[2]) return successors_[base + 2];
  return static_cast<int>(mix(state) % static_cast<std::uint64_t>(vocab_));
}

TokenBatch SyntheticLanguage::globalBatch(int step, int batch) const {
  TokenBatch b;
  if (seqLen_ > 1) {
    const auto S = static_cast<std::size_t>(seqLen_);
    b.rowLength = seqLen_;
    b.inputs.resize(static_cast<std::size_t>(batch) * S);
    b.targets.resize(static_cast<std::size_t>(batch) * S);
    // Its own stream, apart from the MLP's, so that the MLP's batches stay as they were.
    std::uint64_t state = (seed_ ^ 0x5e9a11ce5ULL) * 1000003ULL + static_cast<std::uint64_t>(step) * 0x2545F4914F6CDD1DULL;
    std::vector<std::int32_t> seq(S + 1);
    for (int r = 0; r < batch; ++r) {
      seq[0] = static_cast<std::int32_t>(mix(state) % static_cast<std::uint64_t>(vocab_));
      for (std::size_t i = 1; i <= S; ++i)
        seq[i] = i < static_cast<std::size_t>(kCopyPeriod) ? next(seq[i - 1], state) : seq[i - kCopyPeriod];
      const std::size_t row = static_cast<std::size_t>(r) * S;
      for (std::size_t i = 0; i < S; ++i) {
        b.inputs[row + i] = seq[i];
        b.targets[row + i] = seq[i + 1];
      }
    }
    return b;
  }
  b.inputs.resize(static_cast<std::size_t>(batch));
  b.targets.resize(static_cast<std::size_t>(batch));
  std::uint64_t state = seed_ * 1000003ULL + static_cast<std::uint64_t>(step) * 0x2545F4914F6CDD1DULL;
  for (int i = 0; i < batch; ++i) {
    const int token = static_cast<int>(mix(state) % static_cast<std::uint64_t>(vocab_));
    b.inputs[static_cast<std::size_t>(i)] = token;
    b.targets[static_cast<std::size_t>(i)] = next(token, state);
  }
  return b;
}

TokenBatch SyntheticLanguage::slice(const TokenBatch& b, int first, int count) {
  TokenBatch s;
  s.rowLength = b.rowLength;
  const auto begin = static_cast<std::ptrdiff_t>(first) * b.rowLength, end = begin + static_cast<std::ptrdiff_t>(count) * b.rowLength;
  s.inputs.assign(b.inputs.begin() + begin, b.inputs.begin() + end);
  s.targets.assign(b.targets.begin() + begin, b.targets.begin() + end);
  return s;
}

double SyntheticLanguage::entropy() const {
  // Roughly: the three successors may coincide; this ignores that and the uniform tail's overlap.
  double h = 0.0;
  for (int i = 0; i < 3; ++i) h -= kProb[i] * std::log(kProb[i] + kProb[3] / vocab_);
  h -= kProb[3] * std::log(kProb[3] / vocab_);
  return h;
}

double SyntheticLanguage::sequenceEntropy() const {
  if (seqLen_ <= 1) return entropy();
  // Targets 1 .. kCopyPeriod - 1 follow the chain; every later one repeats a token in view.
  const int chained = std::min(seqLen_, kCopyPeriod - 1);
  return entropy() * chained / seqLen_;
}

} // namespace shardlab
