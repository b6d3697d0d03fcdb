// The reductions as accumulate / combine / finish over an accumulator type, for every element
// type: the one definition of what each reduction computes (numpy's semantics), shared by the
// scalar path and the SIMD kernels. What a reduction is apart from its arithmetic (name, result
// type, refusals) is its entry in kReductions (einops/reduction.hpp); a ReduceOp carries that
// entry as `traits`, and the kernels read both, never the reduction's name.
//
// Accumulators: float for float32 and the 16-bit floats (rounded to the element type once, at the
// end), double for float64; integer and bool sums and products in uint64, whose wrap-around is
// numpy's int64 / uint64 result without signed-overflow UB; min/max in the element type (as
// float for 16-bit floats, which is exact); any/all in bool.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "einops/dtype.hpp"
#include "einops/reduction.hpp"

namespace einops::detail {

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

/// The float type a floating element is computed in.
template <class T>
using FloatCompute = std::conditional_t<std::is_same_v<T, double>, double, float>;

/// Calls `f(T{})` for the floating element type T of `type` (the SIMD reductions' types); does
/// nothing for any other type.
template <class F>
void visit_floating_dtype(DType type, F&& f) {
  switch (type) {
    case DType::float32: return f(float{});
    case DType::float64: return f(double{});
    case DType::float16: return f(float16{});
    case DType::bfloat16: return f(bfloat16{});
    default: return;
  }
}

template <class T>
constexpr bool is_nan(T x) {
  return x != x;  // NOLINT(misc-redundant-expression): NaN test for every floating type
}

/// The vector instruction the SIMD kernels combine a reduction's accumulators with; `none` leaves
/// the reduction to the scalar path (reduce.cpp), which runs every ReduceOp.
enum class VectorCombine : std::uint8_t { none, add, multiply, maximum, minimum, logical_or, logical_and };

/// What every ReduceOp has, with the defaults a ReduceOp overrides:
/// - Acc, convert(T) -> Acc, identity(), combine(Acc, Acc), finish(Acc, count) -> Out: the
///   arithmetic. A floating accumulation's finish rounds to Out, after dividing by the count where
///   traits.divides_by_count (reduce.cpp's vector finish assumes so).
/// - Out: the result's element type, numpy's (reduction_result_dtype).
/// - accumulates_as: the reduction whose kernels accumulate this one (a mean as a sum).
/// - pairwise: partial sums join a pairwise cascade (Cascade), for a smaller rounding error.
/// - exact_when_nan: a NaN result is computed again in exact order (exact_product in reduce.cpp).
/// - vector_combine: the SIMD kernels' instruction for combine().
template <Reduction R, class T>
struct ReduceOpBase {
  static constexpr const ReductionTraits& traits = reduction_traits(R);
  using Out = typename element_of<reduction_result_dtype(R, dtype_v<T>)>::type;
  static constexpr Reduction accumulates_as = R;
  static constexpr bool pairwise = false;
  static constexpr bool exact_when_nan = false;
  static constexpr VectorCombine vector_combine = VectorCombine::none;
};

template <Reduction R, class T>
struct ReduceOp;

/// sum, mean, prod: "additive" reductions with an accumulator that is not the element type.
template <Reduction R, class T>
struct SumLike : ReduceOpBase<R, T> {
  using Acc = std::conditional_t<is_floating_element_v<T>, FloatCompute<T>, std::uint64_t>;
  static Acc convert(T x) { return static_cast<Acc>(x); }
};

template <class T>
struct ReduceOp<Reduction::sum, T> : SumLike<Reduction::sum, T> {
  using Base = SumLike<Reduction::sum, T>;
  using typename Base::Acc;
  using typename Base::Out;
  static constexpr bool pairwise = is_floating_element_v<T>;
  static constexpr VectorCombine vector_combine = VectorCombine::add;
  static Acc identity() { return Acc{0}; }
  static Acc combine(Acc a, Acc b) { return a + b; }
  static Out finish(Acc acc, std::int64_t) { return static_cast<Out>(acc); }
};

template <class T>
struct ReduceOp<Reduction::mean, T> : SumLike<Reduction::mean, T> {
  using Base = SumLike<Reduction::mean, T>;
  using typename Base::Acc;
  using typename Base::Out;
  static constexpr Reduction accumulates_as = Reduction::sum;
  static constexpr bool pairwise = true;
  static constexpr VectorCombine vector_combine = VectorCombine::add;
  static Acc identity() { return Acc{0}; }
  static Acc combine(Acc a, Acc b) { return a + b; }
  static Out finish(Acc acc, std::int64_t count) {
    if (count == 0) return static_cast<Out>(std::numeric_limits<Acc>::quiet_NaN());
    return static_cast<Out>(acc / static_cast<Acc>(count));
  }
};

template <class T>
struct ReduceOp<Reduction::prod, T> : SumLike<Reduction::prod, T> {
  using Base = SumLike<Reduction::prod, T>;
  using typename Base::Acc;
  using typename Base::Out;
  static constexpr bool exact_when_nan = is_floating_element_v<T>;
  // Floating only: 64-bit integer lanes cannot multiply.
  static constexpr VectorCombine vector_combine =
      is_floating_element_v<T> ? VectorCombine::multiply : VectorCombine::none;
  static Acc identity() { return Acc{1}; }
  static Acc combine(Acc a, Acc b) { return a * b; }
  static Out finish(Acc acc, std::int64_t) { return static_cast<Out>(acc); }
};

/// min and max keep the element type; NaN wins (numpy propagates it). identity() is the start of
/// the accumulation, though numpy names none (traits.has_identity).
template <Reduction R, class T, bool kMax>
struct Extremum : ReduceOpBase<R, T> {
  using Acc = std::conditional_t<is_floating_element_v<T>, FloatCompute<T>, T>;
  using typename ReduceOpBase<R, T>::Out;
  static constexpr VectorCombine vector_combine = kMax ? VectorCombine::maximum : VectorCombine::minimum;
  static Acc convert(T x) { return static_cast<Acc>(x); }
  static Acc identity() {
    if constexpr (std::is_same_v<T, bool>) return !kMax;
    else if constexpr (is_floating_element_v<T>)
      return kMax ? -std::numeric_limits<Acc>::infinity() : std::numeric_limits<Acc>::infinity();
    else return kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
  static Acc combine(Acc a, Acc b) {
    if constexpr (is_floating_element_v<T>) {
      if (is_nan(a) || is_nan(b)) return is_nan(a) ? a : b;
    }
    if constexpr (kMax) return b > a ? b : a;
    else return b < a ? b : a;
  }
  static Out finish(Acc acc, std::int64_t) { return static_cast<Out>(acc); }
};
template <class T>
struct ReduceOp<Reduction::max, T> : Extremum<Reduction::max, T, true> {};
template <class T>
struct ReduceOp<Reduction::min, T> : Extremum<Reduction::min, T, false> {};

template <Reduction R, class T, bool kAny>
struct Logical : ReduceOpBase<R, T> {
  using Acc = bool;
  using typename ReduceOpBase<R, T>::Out;
  static constexpr VectorCombine vector_combine = kAny ? VectorCombine::logical_or : VectorCombine::logical_and;
  static Acc convert(T x) {
    if constexpr (is_floating_element_v<T>)
      return static_cast<FloatCompute<T>>(x) != FloatCompute<T>{0};  // NaN counts as true, as in numpy
    else return x != T{};
  }
  static Acc identity() { return !kAny; }
  static Acc combine(Acc a, Acc b) { return kAny ? (a || b) : (a && b); }
  static Out finish(Acc acc, std::int64_t) { return acc; }
};
template <class T>
struct ReduceOp<Reduction::any, T> : Logical<Reduction::any, T, true> {};
template <class T>
struct ReduceOp<Reduction::all, T> : Logical<Reduction::all, T, false> {};

/// The ReduceOp whose kernels run R on T (accumulates_as: a mean runs the sum's).
template <Reduction R, class T>
using KernelOp = ReduceOp<ReduceOp<R, T>::accumulates_as, T>;

/// Whether the float kernels (reduce_simd.cpp: floating elements, floating accumulators) run R
/// on T; the scalar path runs the rest.
template <Reduction R, class T>
inline constexpr bool float_kernel_runs_v =
    is_floating_element_v<T> && std::is_same_v<typename KernelOp<R, T>::Acc, FloatCompute<T>> &&
    KernelOp<R, T>::vector_combine != VectorCombine::none;

/// Whether the window kernels (window_reduce_simd.cpp) run R on T.
template <Reduction R, class T>
inline constexpr bool window_kernel_runs_v = KernelOp<R, T>::vector_combine != VectorCombine::none;

/// Pairwise summation of a stream of block sums: a binary counter of partial sums, so the
/// result is the balanced tree over blocks whatever their number, in a fixed order.
template <class Acc, class Combine>
class Cascade {
 public:
  void push(Acc value) {
    int level = 0;
    for (; (occupied_ >> level) & 1u; ++level) {
      value = Combine::combine(levels_[level], value);
      occupied_ &= ~(std::uint64_t{1} << level);
    }
    levels_[level] = value;
    occupied_ |= std::uint64_t{1} << level;
  }
  Acc total(Acc identity) const {
    Acc sum = identity;
    bool first = true;
    for (int level = 0, top = static_cast<int>(std::bit_width(occupied_)); level < top; ++level)
      if ((occupied_ >> level) & 1u) {
        sum = first ? levels_[level] : Combine::combine(levels_[level], sum);
        first = false;
      }
    return sum;
  }

 private:
  Acc levels_[64]{};
  std::uint64_t occupied_ = 0;
};

}  // namespace einops::detail
