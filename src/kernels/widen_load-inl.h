// Loads of N lanes widened to the accumulator type (16-bit floats exactly), shared by the SIMD
// reductions and einsum's streaming kernels. A per-target header in Highway's -inl.h convention:
// included from a translation unit that includes hwy/foreach_target.h, once per target.
#if defined(EINOPS_KERNELS_WIDEN_LOAD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef EINOPS_KERNELS_WIDEN_LOAD_INL_H_
#undef EINOPS_KERNELS_WIDEN_LOAD_INL_H_
#else
#define EINOPS_KERNELS_WIDEN_LOAD_INL_H_
#endif

#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "einops/dtype.hpp"
#include "half_convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace einops::detail::HWY_NAMESPACE {

/// Lanes(d) elements of T from `p` (unaligned), widened to d's type: float and double as they
/// are, float16 and bfloat16 to float (half_convert-inl.h's contract).
template <class T, class D>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<D> LoadWide(D d, const T* p) {
  namespace hn = hwy::HWY_NAMESPACE;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return hn::LoadU(d, p);
  } else {
    const hn::Rebind<std::uint16_t, D> d16;
    const auto bits = hn::LoadU(d16, reinterpret_cast<const std::uint16_t*>(p));
    if constexpr (std::is_same_v<T, float16>) return HalfBitsToFloat(d, bits);
    else return Bfloat16BitsToFloat(d, bits);
  }
}

}  // namespace einops::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // EINOPS_KERNELS_WIDEN_LOAD_INL_H_
