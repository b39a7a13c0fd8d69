// bfloat16: the top 16 bits of an IEEE float32 (sign, 8 exponent bits, 7 mantissa
// bits). FSDP's mixed precision (param_dtype, reduce_dtype bf16) sends parameters and
// gradients in it: two bf16 values packed in each 4-byte word of a float buffer, so
// the all-gathers and reductions move half the bytes (docs/sharding.md).
#pragma once

#include "core/Device.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace shardlab {

// Round to nearest, ties to even (what PyTorch's float -> bfloat16 cast does); a NaN
// stays a NaN (quiet), infinities stay infinities.
inline std::uint16_t toBf16(float f) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0)
    return static_cast<std::uint16_t>((bits >> 16) | 0x0040u);
  const std::uint32_t lsb = (bits >> 16) & 1u;
  bits += 0x7fffu + lsb;
  return static_cast<std::uint16_t>(bits >> 16);
}

inline float fromBf16(std::uint16_t h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Packed two to a float word, n bf16 values take (n + 1) / 2 words; an odd n leaves
// the last word's second half zero.
inline std::size_t bf16Words(std::size_t n) { return (n + 1) / 2; }

// n fp32 values at `from` -> bf16 (round to nearest even), packed into bf16Words(n)
// words at `to`; both are `device` memory. Converted on the host (a CPU rank's device
// memory is host memory; the bf16 path runs on CPU ranks only).
inline void packBf16(Device& device, const float* from, float* to, std::size_t n) {
  std::vector<float> values(n);
  device.copyToHost(values.data(), from, n * sizeof(float));
  std::vector<std::uint16_t> packed(2 * bf16Words(n), 0);
  for (std::size_t k = 0; k < n; ++k) packed[k] = toBf16(values[k]);
  device.copyToDevice(to, packed.data(), bf16Words(n) * sizeof(float));
}

// The reverse: n packed bf16 values at `from` -> n fp32 values at `to`.
inline void unpackBf16(Device& device, const float* from, float* to, std::size_t n) {
  std::vector<std::uint16_t> packed(2 * bf16Words(n));
  device.copyToHost(packed.data(), from, bf16Words(n) * sizeof(float));
  std::vector<float> values(n);
  for (std::size_t k = 0; k < n; ++k) values[k] = fromBf16(packed[k]);
  device.copyToDevice(to, values.data(), n * sizeof(float));
}

// `parts` runs of n values, each packed into its own bf16Words(n) words: a unit's
// slices, so that slice r of the packed buffer is what rank r sends or receives.
inline void packBf16Slices(Device& device, const float* from, float* to, std::size_t n, int parts) {
  for (std::size_t r = 0; r < static_cast<std::size_t>(parts); ++r)
    packBf16(device, from + r * n, to + r * bf16Words(n), n);
}

inline void unpackBf16Slices(Device& device, const float* from, float* to, std::size_t n, int parts) {
  for (std::size_t r = 0; r < static_cast<std::size_t>(parts); ++r)
    unpackBf16(device, from + r * bf16Words(n), to + r * n, n);
}

} // namespace shardlab
