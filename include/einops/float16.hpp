// 16-bit floating-point element types: einops::float16 (IEEE 754 binary16, numpy's float16) and
// einops::bfloat16 (the upper half of a float32, torch.bfloat16). Storage only: arithmetic
// happens in float (the implicit conversion), and a value is stored back with an explicit,
// round-to-nearest-even conversion, as numpy and torch do.
#pragma once

#include <bit>
#include <cstdint>
#include <type_traits>

namespace einops {
namespace detail {

/// Rounds `value` to nearest-even in a binary format with `ExpBits` exponent bits and `ManBits`
/// stored mantissa bits (at most 16 bits in all): overflow gives infinity, NaN stays NaN (quiet).
/// Going through double is exact for every float, so one routine serves float and double inputs.
template <int ExpBits, int ManBits>
constexpr std::uint16_t narrow_float_bits(double value) {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr int all_ones = (1 << ExpBits) - 1;
  constexpr int dropped_normal = 52 - ManBits;
  const auto bits = std::bit_cast<std::uint64_t>(value);
  const auto sign = static_cast<std::uint16_t>((bits >> 63) << (ExpBits + ManBits));
  const int exponent = static_cast<int>((bits >> 52) & 0x7ff);
  const std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  const auto infinity = static_cast<std::uint16_t>(sign | (all_ones << ManBits));
  if (exponent == 0x7ff) {
    if (mantissa == 0) return infinity;
    return static_cast<std::uint16_t>(infinity | (1 << (ManBits - 1)) | (mantissa >> dropped_normal));
  }
  if (exponent == 0) return sign;  // double subnormals are far below the smallest 16-bit subnormal
  const std::uint64_t significand = mantissa | (std::uint64_t{1} << 52);
  int target_exponent = exponent - 1023 + bias;
  if (target_exponent >= all_ones) return infinity;
  // Below the normal range the target's unit is fixed, so more bits are dropped.
  const int dropped = target_exponent > 0 ? dropped_normal : dropped_normal + 1 - target_exponent;
  if (dropped >= 54) return sign;  // below half the smallest subnormal
  std::uint64_t kept = significand >> dropped;
  const std::uint64_t rest = significand & ((std::uint64_t{1} << dropped) - 1);
  const std::uint64_t half = std::uint64_t{1} << (dropped - 1);
  if (rest > half || (rest == half && (kept & 1) != 0)) ++kept;
  if (target_exponent <= 0)  // subnormal; a carry into the implicit bit yields the smallest normal
    return static_cast<std::uint16_t>(sign | kept);
  if (kept == (std::uint64_t{1} << (ManBits + 1))) {  // rounding carried into the next binade
    kept >>= 1;
    ++target_exponent;
    if (target_exponent >= all_ones) return infinity;
  }
  const std::uint64_t stored = kept & ((std::uint64_t{1} << ManBits) - 1);
  return static_cast<std::uint16_t>(sign | (static_cast<std::uint64_t>(target_exponent) << ManBits) | stored);
}

/// float -> binary16 bits, rounded to nearest even, as narrow_float_bits<5, 10> does but without
/// going through double (reductions and copies of float16 narrow every output, so it must be cheap).
/// Normal results rebias the exponent and add the rounding bias in integer arithmetic; subnormal
/// ones let the FPU round (adding 0.5f aligns the mantissa to the smallest subnormal's unit).
constexpr std::uint16_t float_to_half_bits(float value) {
  std::uint32_t x = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = x & 0x80000000u;
  x ^= sign;
  std::uint32_t half;
  if (x >= 0x47800000u) {  // 2^16 or more, infinity, NaN (quiet, keeping the top payload bits)
    half = x > 0x7f800000u ? 0x7e00u | ((x >> 13) & 0x3ffu) : 0x7c00u;
  } else if (x < 0x38800000u) {  // below 2^-14: subnormal or zero
    constexpr std::uint32_t one_half = 126u << 23;
    half = std::bit_cast<std::uint32_t>(std::bit_cast<float>(x) + std::bit_cast<float>(one_half)) - one_half;
  } else {  // a carry out of the mantissa moves to the next binade, or to infinity
    half = (x - (112u << 23) + 0xfffu + ((x >> 13) & 1u)) >> 13;
  }
  return static_cast<std::uint16_t>(half | (sign >> 16));
}

/// float -> bfloat16 bits, rounded to nearest even (NaN stays NaN, quiet).
constexpr std::uint16_t float_to_bfloat16_bits(float value) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

/// The exact float value of a 16-bit pattern in the same format.
template <int ExpBits, int ManBits>
constexpr float widen_float_bits(std::uint16_t bits) {
  constexpr int bias = (1 << (ExpBits - 1)) - 1;
  constexpr int all_ones = (1 << ExpBits) - 1;
  const std::uint32_t sign = static_cast<std::uint32_t>(bits >> (ExpBits + ManBits)) << 31;
  int exponent = (bits >> ManBits) & all_ones;
  std::uint32_t mantissa = bits & ((1u << ManBits) - 1);
  if (exponent == all_ones) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << (23 - ManBits)));
  if (exponent == 0) {
    if (mantissa == 0) return std::bit_cast<float>(sign);
    exponent = 1;  // subnormal: normalise into float's wider exponent range
    while ((mantissa & (1u << ManBits)) == 0) {
      mantissa <<= 1;
      --exponent;
    }
    mantissa &= (1u << ManBits) - 1;
  }
  const auto float_exponent = static_cast<std::uint32_t>(exponent - bias + 127);
  return std::bit_cast<float>(sign | (float_exponent << 23) | (mantissa << (23 - ManBits)));
}

}  // namespace detail

/// IEEE 754 binary16: 1 sign, 5 exponent, 10 mantissa bits (numpy.float16, torch.half).
struct float16 {
  std::uint16_t bits;

  float16() = default;
  /// Rounds to nearest, ties to even (from float, double or any integer).
  template <class A>
    requires std::is_arithmetic_v<A>
  constexpr explicit float16(A value) noexcept
      : bits(std::is_same_v<A, float> ? detail::float_to_half_bits(static_cast<float>(value))
                                      : detail::narrow_float_bits<5, 10>(static_cast<double>(value))) {}
  static constexpr float16 from_bits(std::uint16_t raw) noexcept {
    float16 result{};
    result.bits = raw;
    return result;
  }
  constexpr operator float() const noexcept { return detail::widen_float_bits<5, 10>(bits); }  // NOLINT: exact
};

/// bfloat16: 1 sign, 8 exponent, 7 mantissa bits; float32's range with 8 bits of precision.
struct bfloat16 {
  std::uint16_t bits;

  bfloat16() = default;
  /// Rounds to nearest, ties to even (from float, double or any integer).
  template <class A>
    requires std::is_arithmetic_v<A>
  constexpr explicit bfloat16(A value) noexcept
      : bits(std::is_same_v<A, float> ? detail::float_to_bfloat16_bits(static_cast<float>(value))
                                      : detail::narrow_float_bits<8, 7>(static_cast<double>(value))) {}
  static constexpr bfloat16 from_bits(std::uint16_t raw) noexcept {
    bfloat16 result{};
    result.bits = raw;
    return result;
  }
  constexpr operator float() const noexcept {  // NOLINT: exact
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
  }
};

static_assert(sizeof(float16) == 2 && std::is_trivially_copyable_v<float16> && std::is_standard_layout_v<float16>);
static_assert(sizeof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16> && std::is_standard_layout_v<bfloat16>);

/// float, double, float16 and bfloat16: the element types with floating-point semantics.
template <class T>
inline constexpr bool is_floating_element_v =
    std::is_floating_point_v<T> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

}  // namespace einops
