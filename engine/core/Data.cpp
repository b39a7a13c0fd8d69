#include "core/Data.h"

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

SyntheticLanguage::SyntheticLanguage(int vocab, std::uint64_t seed) : vocab_(vocab), seed_(seed) {
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
  s.inputs.assign(b.inputs.begin() + first, b.inputs.begin() + first + count);
  s.targets.assign(b.targets.begin() + first, b.targets.begin() + first + count);
  return s;
}

double SyntheticLanguage::entropy() const {
  // Roughly: the three successors may coincide; this ignores that and the uniform tail's overlap.
  double h = 0.0;
  for (int i = 0; i < 3; ++i) h -= kProb[i] * std::log(kProb[i] + kProb[3] / vocab_);
  h -= kProb[3] * std::log(kProb[3] / vocab_);
  return h;
}

} // namespace shardlab
