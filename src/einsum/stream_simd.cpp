// The streaming contraction's SIMD kernels (stream_schedule.hpp), compiled once per instruction set
// (Highway) and chosen at run time, for float32, float64 and the 16-bit floats (accumulated in
// float32, rounded to the element type once per output).
// Assumptions: vectors are capped at 256 bits (a caller's tensor is often not 64-byte aligned,
// and 512-bit loads then split cache lines, as in src/kernels/reduce_simd.cpp); products are
// accumulated with a multiply-add; tails go through small zero-filled buffers, never past the
// end of an operand, with the same per-lane arithmetic as full vectors.
//   dot:   U vector accumulators take consecutive vectors of the contiguous run; the outer
//          reduced steps add to the same accumulators; the sum of the accumulators is folded
//          across lanes once per output.
//   lanes: each output lane accumulates its reduced steps in order, U vectors at a time; an
//          elementwise product (no reduced step) is one multiplication.
#include <cstdint>
#include <type_traits>

#include "../kernels/reduce_ops.hpp"
#include "../kernels/simd_dispatch.hpp"
#include "stream_schedule.hpp"

#include "../kernels/hwy_config.hpp"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "einsum/stream_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "../kernels/widen_load-inl.h"

HWY_BEFORE_NAMESPACE();
namespace einops::detail::einsum::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using detail::HWY_NAMESPACE::LoadWide;

constexpr std::size_t U = 4;  // independent vector accumulators: enough to hide the multiply-add latency
/// Lanes mode walks the reduced steps outermost (LanesRows) from this many vectors of outputs on:
/// enough other vectors between two updates of one accumulator to hide its store and reload.
constexpr std::int64_t kRowStreamMinVectors = 2 * static_cast<std::int64_t>(U);

template <class T>
using StreamTag = hn::CappedTag<FloatCompute<T>, 32 / sizeof(FloatCompute<T>)>;

/// `count` (< N) elements `stride` apart (0: one element repeated), zero-filled to N lanes.
template <class T, class D>
HWY_INLINE hn::Vec<D> LoadPartial(D d, const T* p, std::int64_t count, std::int64_t stride) {
  HWY_ALIGN hn::TFromD<D> widened[hn::MaxLanes(D())];
  hn::Store(hn::Zero(d), d, widened);
  for (std::int64_t i = 0; i < count; ++i) widened[i] = static_cast<hn::TFromD<D>>(p[i * stride]);
  return hn::Load(d, widened);
}

/// Writes `count` lanes of `v` to `out` (all N when count is N), rounded to T.
template <class T, class D>
HWY_INLINE void StoreLanes(D d, hn::Vec<D> v, T* out, std::int64_t count) {
  if constexpr (std::is_same_v<T, hn::TFromD<D>>) {
    if (count == static_cast<std::int64_t>(hn::Lanes(d))) {
      hn::StoreU(v, d, out);
      return;
    }
  }
  HWY_ALIGN hn::TFromD<D> lanes[hn::MaxLanes(D())];
  hn::Store(v, d, lanes);
  for (std::int64_t i = 0; i < count; ++i) out[i] = static_cast<T>(lanes[i]);
}

// ---- dot mode -------------------------------------------------------------------------------------

/// acc += the products of one contiguous run of `run` elements.
template <class T, class D>
HWY_INLINE void DotRun(D d, const T* HWY_RESTRICT pa, const T* HWY_RESTRICT pb, std::int64_t run, hn::Vec<D>* acc) {
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  constexpr auto kU = static_cast<std::int64_t>(U);
  std::int64_t i = 0;
  for (; i + kU * N <= run; i += kU * N)
    for (std::size_t u = 0; u < U; ++u) {
      const std::int64_t at = i + static_cast<std::int64_t>(u) * N;
      acc[u] = hn::MulAdd(LoadWide(d, pa + at), LoadWide(d, pb + at), acc[u]);
    }
  for (std::size_t u = 0; i + N <= run; i += N, ++u)
    acc[u] = hn::MulAdd(LoadWide(d, pa + i), LoadWide(d, pb + i), acc[u]);
  if (i < run)
    acc[U - 1] = hn::MulAdd(LoadPartial(d, pa + i, run - i, 1), LoadPartial(d, pb + i, run - i, 1), acc[U - 1]);
}

template <class T>
void DotTyped(const StreamSchedule& s, std::int64_t begin, std::int64_t end) {
  const StreamTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const T* a = static_cast<const T*>(s.a);
  const T* b = static_cast<const T*>(s.b);
  T* out = static_cast<T*>(s.out);
  const int outer = s.reduced.rank - 1;
  const std::int64_t run = s.reduced.extent[static_cast<std::size_t>(outer)];
  StreamItems items(s, begin);
  for (std::int64_t item = begin; item < end; ++item, items.next()) {
    for (std::int64_t j = items.first, last = items.first + items.count; j < last; ++j) {
      const T* pa = a + items.row.a + j * s.lane_a;
      const T* pb = b + items.row.b + j * s.lane_b;
      V acc[U];
      for (auto& v : acc) v = hn::Zero(d);
      StreamCursor steps(s.reduced, outer);
      do {
        DotRun(d, pa + steps.a, pb + steps.b, run, acc);
      } while (steps.next());
      const V sum = hn::Add(hn::Add(acc[0], acc[1]), hn::Add(acc[2], acc[3]));
      out[items.row.out + j * s.lane_out] = static_cast<T>(hn::GetLane(hn::SumOfLanes(d, sum)));
    }
  }
}

// ---- lanes mode -----------------------------------------------------------------------------------

/// N lanes of outputs from `p` (lane stride kContiguous ? 1 : 0), or the first `count` of them
/// zero-filled when kPartial.
template <bool kPartial, bool kContiguous, class T, class D>
HWY_INLINE hn::Vec<D> LoadOperand(D d, const T* p, std::int64_t count) {
  if constexpr (kPartial) return LoadPartial(d, p, count, kContiguous ? 1 : 0);
  else if constexpr (kContiguous) return LoadWide(d, p);
  else return hn::Set(d, static_cast<hn::TFromD<D>>(*p));
}

/// kGroup vectors of outputs (or, when kPartial, `count` < N lanes and kGroup 1): the reduced
/// steps' products summed in order, or the one product when nothing is reduced. kA, kB: whether
/// the lanes are contiguous in a, b (else the operand is broadcast along them).
template <std::size_t kGroup, bool kPartial, bool kA, bool kB, class T, class D>
HWY_INLINE void LanesGroup(D d, const StreamSchedule& s, const T* pa, const T* pb, T* po, std::int64_t count) {
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  const auto step_a = [&](std::size_t g) { return kA ? static_cast<std::int64_t>(g) * N : 0; };
  const auto step_b = [&](std::size_t g) { return kB ? static_cast<std::int64_t>(g) * N : 0; };
  hn::Vec<D> acc[kGroup];
  if (s.reduced.rank == 0) {
    for (std::size_t g = 0; g < kGroup; ++g)
      acc[g] = hn::Mul(LoadOperand<kPartial, kA>(d, pa + step_a(g), count),
                       LoadOperand<kPartial, kB>(d, pb + step_b(g), count));
  } else {
    for (auto& v : acc) v = hn::Zero(d);
    StreamCursor steps(s.reduced, s.reduced.rank);
    do {
      for (std::size_t g = 0; g < kGroup; ++g)
        acc[g] = hn::MulAdd(LoadOperand<kPartial, kA>(d, pa + steps.a + step_a(g), count),
                            LoadOperand<kPartial, kB>(d, pb + steps.b + step_b(g), count), acc[g]);
    } while (steps.next());
  }
  for (std::size_t g = 0; g < kGroup; ++g)
    StoreLanes(d, acc[g], po + static_cast<std::int64_t>(g) * N, kPartial ? count : N);
}

/// Outputs [0, count), count a multiple of N: the reduced steps outermost, each step's lanes in
/// one contiguous pass, the accumulators in a buffer of kRowStreamLanes. Each lane sums its steps
/// in the same order and with the same multiply-adds as LanesGroup.
template <bool kA, bool kB, class T, class D>
HWY_INLINE void LanesRows(D d, const StreamSchedule& s, const T* pa, const T* pb, T* po, std::int64_t count) {
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  HWY_ALIGN hn::TFromD<D> acc[kRowStreamLanes];
  for (std::int64_t first = 0; first < count; first += kRowStreamLanes) {
    const std::int64_t lanes = count - first < kRowStreamLanes ? count - first : kRowStreamLanes;
    for (std::int64_t i = 0; i < lanes; i += N) hn::Store(hn::Zero(d), d, acc + i);
    StreamCursor steps(s.reduced, s.reduced.rank);
    do {
      const T* ra = pa + steps.a + (kA ? first : 0);
      const T* rb = pb + steps.b + (kB ? first : 0);
      hn::Vec<D> fixed_a = hn::Zero(d), fixed_b = hn::Zero(d);  // a broadcast operand's one value
      if constexpr (!kA) fixed_a = LoadOperand<false, false>(d, ra, N);
      if constexpr (!kB) fixed_b = LoadOperand<false, false>(d, rb, N);
      for (std::int64_t i = 0; i < lanes; i += N) {
        const auto va = kA ? LoadWide(d, ra + i) : fixed_a;
        const auto vb = kB ? LoadWide(d, rb + i) : fixed_b;
        hn::Store(hn::MulAdd(va, vb, hn::Load(d, acc + i)), d, acc + i);
      }
    } while (steps.next());
    for (std::int64_t i = 0; i < lanes; i += N) StoreLanes(d, hn::Load(d, acc + i), po + first + i, N);
  }
}

template <class T, bool kA, bool kB>
void LanesLayout(const StreamSchedule& s, std::int64_t begin, std::int64_t end) {
  const StreamTag<T> d;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  constexpr auto kU = static_cast<std::int64_t>(U);
  const T* a = static_cast<const T*>(s.a);
  const T* b = static_cast<const T*>(s.b);
  T* out = static_cast<T*>(s.out);
  StreamItems items(s, begin);
  for (std::int64_t item = begin; item < end; ++item, items.next()) {
    const T* pa = a + items.row.a + items.first * s.lane_a;
    const T* pb = b + items.row.b + items.first * s.lane_b;
    T* po = out + items.row.out + items.first;
    const std::int64_t count = items.count;
    std::int64_t i = 0;
    if (s.reduced.rank > 0 && count >= kRowStreamMinVectors * N) {
      i = count / N * N;
      LanesRows<kA, kB>(d, s, pa, pb, po, i);
    }
    for (; i + kU * N <= count; i += kU * N)
      LanesGroup<U, false, kA, kB>(d, s, pa + (kA ? i : 0), pb + (kB ? i : 0), po + i, N);
    for (; i + N <= count; i += N) LanesGroup<1, false, kA, kB>(d, s, pa + (kA ? i : 0), pb + (kB ? i : 0), po + i, N);
    if (i < count) LanesGroup<1, true, kA, kB>(d, s, pa + (kA ? i : 0), pb + (kB ? i : 0), po + i, count - i);
  }
}

template <class T>
void LanesTyped(const StreamSchedule& s, std::int64_t begin, std::int64_t end) {
  if (s.lane_a == 1 && s.lane_b == 1) return LanesLayout<T, true, true>(s, begin, end);
  if (s.lane_a == 1) return LanesLayout<T, true, false>(s, begin, end);
  if (s.lane_b == 1) return LanesLayout<T, false, true>(s, begin, end);
  return LanesLayout<T, false, false>(s, begin, end);
}

void StreamDot(const StreamSchedule& s, std::int64_t begin, std::int64_t end) {
  visit_floating_dtype(s.type, [&](auto tag) { DotTyped<decltype(tag)>(s, begin, end); });
}
void StreamLanes(const StreamSchedule& s, std::int64_t begin, std::int64_t end) {
  visit_floating_dtype(s.type, [&](auto tag) { LanesTyped<decltype(tag)>(s, begin, end); });
}

}  // namespace einops::detail::einsum::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace einops::detail::einsum {

HWY_EXPORT(StreamDot);
HWY_EXPORT(StreamLanes);

StreamKernel stream_kernel(StreamMode mode) {
  choose_simd_target();
  return mode == StreamMode::dot ? &HWY_DYNAMIC_DISPATCH(StreamDot) : &HWY_DYNAMIC_DISPATCH(StreamLanes);
}

}  // namespace einops::detail::einsum
#endif
