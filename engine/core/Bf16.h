// bfloat16: the top 16 bits of an IEEE float32 (sign, 8 exponent bits, 7 mantissa
// bits). FSDP's mixed precision (param_dtype, reduce_dtype bf16) sends parameters and
// gradients in it: two bf16 values packed in each 4-byte word of a float buffer, so
// the all-gathers and reductions move half the bytes (docs/sharding.md).
#pragma once

#include <cstdint>
#include <cstring>

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

} // namespace shardlab
