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

HWY_BEFORE_NAMESPACE();
namespace einops::detail::HWY_NAMESPACE {

/// Lanes(d) elements of T from `p` (unaligned), widened to d's type: float and double as they
/// are, float16 and bfloat16 to float.
template <class T, class D>
HWY_INLINE hwy::HWY_NAMESPACE::Vec<D> LoadWide(D d, const T* p) {
  namespace hn = hwy::HWY_NAMESPACE;
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return hn::LoadU(d, p);
  } else if constexpr (std::is_same_v<T, float16>) {
    const hn::Rebind<hwy::float16_t, D> dh;
    return hn::PromoteTo(d, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(p)));
  } else {  // bfloat16: the upper half of a float
    const hn::Rebind<std::uint16_t, D> d16;
    const hn::Rebind<std::uint32_t, D> d32;
    return hn::BitCast(d, hn::ShiftLeft<16>(hn::PromoteTo(d32, hn::LoadU(d16, reinterpret_cast<const std::uint16_t*>(p)))));
  }
}

}  // namespace einops::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // EINOPS_KERNELS_WIDEN_LOAD_INL_H_
