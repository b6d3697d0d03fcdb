// float16 and bfloat16 to and from float, lane-wise, correct on every instruction set the kernels
// are compiled for: the one place the SIMD kernels convert 16-bit floats.
// Contract, per lane, identical to float16.hpp's scalar conversions:
// - widening is exact: subnormals, signed zeros, infinities, and NaN with its sign and payload;
// - narrowing rounds to nearest even, overflows to infinity, keeps subnormals, and returns NaN
//   quiet with the top bits of its payload and its sign.
// Highway's emulated float16 PromoteTo (targets without x86's F16C: SSSE3, SSE4, SCALAR, EMU128)
// treats exponent 31 as an ordinary exponent, turning NaN and infinity into finite numbers, so
// those targets widen with the integer steps below. With F16C the instruction is exact too, except
// that it quiets a signalling NaN, as IEEE conversion does.
// A per-target header in Highway's -inl.h convention: included from a translation unit that
// includes hwy/foreach_target.h, once per target.
#if defined(EINOPS_KERNELS_HALF_CONVERT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef EINOPS_KERNELS_HALF_CONVERT_INL_H_
#undef EINOPS_KERNELS_HALF_CONVERT_INL_H_
#else
#define EINOPS_KERNELS_HALF_CONVERT_INL_H_
#endif

#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "einops/float16.hpp"

HWY_BEFORE_NAMESPACE();
namespace einops::detail::HWY_NAMESPACE {

/// Whether this target widens float16 with a conversion instruction (x86's F16C).
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2 && !defined(HWY_DISABLE_F16C)
inline constexpr bool kHalfConversionInstruction = true;
#else
inline constexpr bool kHalfConversionInstruction = false;
#endif

/// float16 bits (16-bit lanes) to float, exactly, in integer steps on every target: a signalling
/// NaN keeps its bits too (min and max return a NaN input unchanged).
template <class DF>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<DF> HalfBitsToFloatExact(
    DF df, hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::Rebind<std::uint16_t, DF>> bits) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  constexpr std::uint32_t kSignBit = 0x8000, kInfinityBits = 0x7c00, kSmallestNormal = 0x0400;
  constexpr std::uint32_t kRebias = (127 - 15) << 23, kFloatInfinity = 0x7f800000;
  constexpr float kSubnormalUnit = 1.0f / 16777216.0f;  // 2^-24: float16's subnormal step
  const auto h = hn::PromoteTo(du, bits);
  const auto sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(du, kSignBit)));
  const auto magnitude = hn::And(h, hn::Set(du, kSignBit - 1));
  const auto shifted = hn::ShiftLeft<13>(magnitude);
  const auto normal = hn::Add(shifted, hn::Set(du, kRebias));
  const auto special = hn::Or(shifted, hn::Set(du, kFloatInfinity));  // exponent 31: inf, NaN
  const auto magnitude_i = hn::BitCast(di, magnitude);
  const auto subnormal = hn::BitCast(du, hn::Mul(hn::ConvertTo(df, magnitude_i), hn::Set(df, kSubnormalUnit)));
  auto result =
      hn::IfThenElse(hn::RebindMask(du, hn::Lt(magnitude_i, hn::Set(di, kSmallestNormal))), subnormal, normal);
  result = hn::IfThenElse(hn::RebindMask(du, hn::Gt(magnitude_i, hn::Set(di, kInfinityBits - 1))), special, result);
  return hn::BitCast(df, hn::Or(result, sign));
}

/// float16 bits (16-bit lanes) to float for arithmetic: the conversion instruction where the
/// target has one (a signalling NaN comes out quiet), the exact integer steps elsewhere.
template <class DF>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<DF> HalfBitsToFloat(
    DF df, hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::Rebind<std::uint16_t, DF>> bits) {
  namespace hn = hwy::HWY_NAMESPACE;
  if constexpr (kHalfConversionInstruction)
    return hn::PromoteTo(df, hn::BitCast(hn::Rebind<hwy::float16_t, DF>(), bits));
  else return HalfBitsToFloatExact(df, bits);
}

/// bfloat16 bits (16-bit lanes) to float: the upper half of a float, exact for every value.
template <class DF>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<DF> Bfloat16BitsToFloat(
    DF df, hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::Rebind<std::uint16_t, DF>> bits) {
  namespace hn = hwy::HWY_NAMESPACE;
  return hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(hn::RebindToUnsigned<DF>(), bits)));
}

/// float bits -> float16 bits, in 32-bit lanes: float_to_half_bits, lane-wise.
template <class DU>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<DU> FloatBitsToHalfBits(DU du, hwy::HWY_NAMESPACE::Vec<DU> x) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::Repartition<float, DU> df;
  const auto sign = hn::And(x, hn::Set(du, 0x80000000u));
  x = hn::Xor(x, sign);
  // 2^16 or more: infinity, or a quiet NaN keeping the top payload bits.
  const auto is_nan = hn::Gt(x, hn::Set(du, 0x7f800000u));
  const auto large = hn::IfThenElse(
      is_nan, hn::Or(hn::Set(du, 0x7e00u), hn::And(hn::ShiftRight<13>(x), hn::Set(du, 0x3ffu))), hn::Set(du, 0x7c00u));
  // Below 2^-14: adding 0.5 leaves the rounded subnormal half in the low mantissa bits.
  const auto one_half = hn::Set(du, 126u << 23);
  const auto small = hn::Sub(hn::BitCast(du, hn::Add(hn::BitCast(df, x), hn::BitCast(df, one_half))), one_half);
  // Normal: rebias, round to nearest even; a carry moves to the next binade or to infinity.
  const auto odd = hn::And(hn::ShiftRight<13>(x), hn::Set(du, 1u));
  const auto normal =
      hn::ShiftRight<13>(hn::Add(hn::Sub(x, hn::Set(du, 112u << 23)), hn::Add(hn::Set(du, 0xfffu), odd)));
  // Unsigned comparisons through signed ones (x has no sign bit here); x >= 2^16 as x > below it.
  const hn::RebindToSigned<DU> di;
  const auto xi = hn::BitCast(di, x);
  auto half = hn::IfThenElse(hn::RebindMask(du, hn::Lt(xi, hn::Set(di, 0x38800000))), small, normal);
  half = hn::IfThenElse(hn::RebindMask(du, hn::Gt(xi, hn::Set(di, 0x477fffff))), large, half);
  return hn::Or(half, hn::ShiftRight<16>(sign));
}

/// float bits -> bfloat16 bits, in 32-bit lanes: float_to_bfloat16_bits, lane-wise.
template <class DU>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<DU> FloatBitsToBfloat16Bits(DU du, hwy::HWY_NAMESPACE::Vec<DU> x) {
  namespace hn = hwy::HWY_NAMESPACE;
  const hn::RebindToSigned<DU> di;
  const auto magnitude = hn::BitCast(di, hn::And(x, hn::Set(du, 0x7fffffffu)));
  const auto is_nan = hn::RebindMask(du, hn::Gt(magnitude, hn::Set(di, 0x7f800000)));
  const auto odd = hn::And(hn::ShiftRight<16>(x), hn::Set(du, 1u));
  const auto rounded = hn::ShiftRight<16>(hn::Add(x, hn::Add(hn::Set(du, 0x7fffu), odd)));
  return hn::IfThenElse(is_nan, hn::Or(hn::ShiftRight<16>(x), hn::Set(du, 0x40u)), rounded);
}

/// float lanes to T's 16-bit patterns (T float16 or bfloat16), one per lane.
template <class T, class DF>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<hwy::HWY_NAMESPACE::Rebind<std::uint16_t, DF>> FloatToHalfLanes(
    DF df, hwy::HWY_NAMESPACE::Vec<DF> v) {
  namespace hn = hwy::HWY_NAMESPACE;
  (void)df;
  const hn::RebindToUnsigned<DF> du;
  const hn::Rebind<std::uint16_t, DF> d16;
  const auto bits32 = std::is_same_v<T, float16> ? FloatBitsToHalfBits(du, hn::BitCast(du, v))
                                                 : FloatBitsToBfloat16Bits(du, hn::BitCast(du, v));
  // Every lane holds at most 0xffff: the saturating demotion from signed lanes is exact.
  return hn::DemoteTo(d16, hn::BitCast(hn::RebindToSigned<decltype(du)>(), bits32));
}

}  // namespace einops::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // EINOPS_KERNELS_HALF_CONVERT_INL_H_
