// The reductions as accumulate / combine / finish over an accumulator type, for every element
// type: the one definition of what each reduction computes (numpy's semantics), shared by the
// scalar path and the SIMD kernels.
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

template <Reduction R, class T>
struct ReduceOp;

/// sum, mean, prod: "additive" reductions with an accumulator that is not the element type.
template <class T>
struct SumLike {
  using Acc = std::conditional_t<is_floating_element_v<T>, FloatCompute<T>, std::uint64_t>;
  using Out = std::conditional_t<is_floating_element_v<T>, T,
                                 std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                                                    std::uint64_t, std::int64_t>>;
  static Acc convert(T x) { return static_cast<Acc>(x); }
};

template <class T>
struct ReduceOp<Reduction::sum, T> : SumLike<T> {
  using typename SumLike<T>::Acc;
  using typename SumLike<T>::Out;
  static constexpr bool pairwise = is_floating_element_v<T>;
  static Acc identity() { return Acc{0}; }
  static Acc combine(Acc a, Acc b) { return a + b; }
  static Out finish(Acc acc, std::int64_t) { return static_cast<Out>(acc); }
};

template <class T>
struct ReduceOp<Reduction::mean, T> : SumLike<T> {
  using typename SumLike<T>::Acc;
  using Out = T;
  static constexpr bool pairwise = true;
  static Acc identity() { return Acc{0}; }
  static Acc combine(Acc a, Acc b) { return a + b; }
  static Out finish(Acc acc, std::int64_t count) {
    if (count == 0) return static_cast<Out>(std::numeric_limits<Acc>::quiet_NaN());
    return static_cast<Out>(acc / static_cast<Acc>(count));
  }
};

template <class T>
struct ReduceOp<Reduction::prod, T> : SumLike<T> {
  using typename SumLike<T>::Acc;
  using typename SumLike<T>::Out;
  static constexpr bool pairwise = false;
  static Acc identity() { return Acc{1}; }
  static Acc combine(Acc a, Acc b) { return a * b; }
  static Out finish(Acc acc, std::int64_t) { return static_cast<Out>(acc); }
};

/// min and max keep the element type; NaN wins (numpy propagates it).
template <class T, bool kMax>
struct Extremum {
  using Acc = std::conditional_t<is_floating_element_v<T>, FloatCompute<T>, T>;
  using Out = T;
  static constexpr bool pairwise = false;
  static Acc convert(T x) { return static_cast<Acc>(x); }
  static Acc identity() {
    if constexpr (std::is_same_v<T, bool>)
      return !kMax;
    else if constexpr (is_floating_element_v<T>)
      return kMax ? -std::numeric_limits<Acc>::infinity() : std::numeric_limits<Acc>::infinity();
    else
      return kMax ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
  static Acc combine(Acc a, Acc b) {
    if constexpr (is_floating_element_v<T>) {
      if (is_nan(a) || is_nan(b)) return is_nan(a) ? a : b;
    }
    if constexpr (kMax)
      return b > a ? b : a;
    else
      return b < a ? b : a;
  }
  static Out finish(Acc acc, std::int64_t) { return static_cast<Out>(acc); }
};
template <class T>
struct ReduceOp<Reduction::max, T> : Extremum<T, true> {};
template <class T>
struct ReduceOp<Reduction::min, T> : Extremum<T, false> {};

template <class T, bool kAny>
struct Logical {
  using Acc = bool;
  using Out = bool;
  static constexpr bool pairwise = false;
  static Acc convert(T x) {
    if constexpr (is_floating_element_v<T>)
      return static_cast<FloatCompute<T>>(x) != FloatCompute<T>{0};  // NaN counts as true, as in numpy
    else
      return x != T{};
  }
  static Acc identity() { return !kAny; }
  static Acc combine(Acc a, Acc b) { return kAny ? (a || b) : (a && b); }
  static Out finish(Acc acc, std::int64_t) { return acc; }
};
template <class T>
struct ReduceOp<Reduction::any, T> : Logical<T, true> {};
template <class T>
struct ReduceOp<Reduction::all, T> : Logical<T, false> {};

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
