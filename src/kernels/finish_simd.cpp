// The last step of a floating reduction, vectorised: accumulators (float, double for float64)
// become contiguous outputs of the element type, divided by the number of reduced elements first
// for means. Done one output at a time this cost as much as a fifth of a float16 mean (a scalar
// int-to-float conversion, a division and a branchy narrowing per output).
// Assumptions: the result is bit-identical to ReduceOp::finish followed by the element type's
// scalar conversion: the same IEEE division, and the narrowing of float16.hpp (half_convert-inl.h).
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "reduce_ops.hpp"
#include "reduce_schedule.hpp"

#include "hwy_config.hpp"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/finish_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "half_convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace einops::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// kDivide is a template parameter, not a select inside the loop: a compiler may turn
// `divide ? v / d : v` into `v / (divide ? d : 1)`, which quiets a signalling NaN that the scalar
// finish passes through unchanged.
template <class T, class Acc, bool kDivide>
void FinishTyped(const FloatFinishCall& call) {
  const Acc* acc = static_cast<const Acc*>(call.accumulators);
  T* out = static_cast<T*>(call.out);
  const hn::ScalableTag<Acc> da;
  const auto N = static_cast<std::int64_t>(hn::Lanes(da));
  const auto divisor = hn::Set(da, static_cast<Acc>(call.divisor));
  const auto value_of = [&](hn::Vec<decltype(da)> v) {
    if constexpr (kDivide) return hn::Div(v, divisor);
    else return v;
  };
  const auto value = [&](std::int64_t i) { return value_of(hn::LoadU(da, acc + i)); };
  // The outputs of one vector: N of them, or the last `count` < N through a buffer.
  const auto store = [&](std::int64_t i, hn::Vec<decltype(da)> v, std::int64_t count) {
    if constexpr (std::is_same_v<T, Acc>) {
      if (count == N) return hn::StoreU(v, da, out + i);
      HWY_ALIGN Acc lanes[hn::MaxLanes(da)];
      hn::Store(v, da, lanes);
      std::memcpy(out + i, lanes, static_cast<std::size_t>(count) * sizeof(T));
    } else {
      const hn::Rebind<std::uint16_t, decltype(da)> d16;
      const auto bits = FloatToHalfLanes<T>(da, v);
      if (count == N) return hn::StoreU(bits, d16, reinterpret_cast<std::uint16_t*>(out + i));
      HWY_ALIGN std::uint16_t lanes[hn::MaxLanes(da)];
      hn::Store(bits, d16, lanes);
      std::memcpy(out + i, lanes, static_cast<std::size_t>(count) * sizeof(T));
    }
  };
  std::int64_t i = 0;
  for (; i + N <= call.count; i += N) store(i, value(i), N);
  if constexpr (hn::MaxLanes(da) > 1) {
    if (i < call.count) {  // the tail, read through a zero-padded buffer (never past the end)
      HWY_ALIGN Acc rest[hn::MaxLanes(da)] = {};
      std::memcpy(rest, acc + i, static_cast<std::size_t>(call.count - i) * sizeof(Acc));
      store(i, value_of(hn::Load(da, rest)), call.count - i);
    }
  }
}

void FinishFloat(const FloatFinishCall& call) {
  visit_floating_dtype(call.type, [&](auto tag) {
    using T = decltype(tag);
    if (call.divide) FinishTyped<T, FloatCompute<T>, true>(call);
    else FinishTyped<T, FloatCompute<T>, false>(call);
  });
}

}  // namespace einops::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace einops::detail {

HWY_EXPORT(FinishFloat);

void finish_float(const FloatFinishCall& call) {
  if (call.count > 0) HWY_DYNAMIC_DISPATCH(FinishFloat)(call);
}

}  // namespace einops::detail
#endif
