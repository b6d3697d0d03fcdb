// Fused permute+reduce: each output element is accumulated over the reduced dimensions straight
// from the strided input (no transposed intermediate), in one fixed order.
// Accumulators: floating sums in double; integers and bool in uint64, whose wrap-around gives
// numpy's int64/uint64 results without signed-overflow UB.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "einops/detail/kernels.hpp"
#include "einops/detail/odometer.hpp"

namespace einops::detail {
namespace {

template <class T>
using Accumulator = std::conditional_t<std::is_floating_point_v<T>, double, std::uint64_t>;

/// The reduction as init / step / finish; `Out` is numpy's result type.
template <Reduction R, class T>
struct ReduceOp;

template <class T>
struct ReduceOp<Reduction::sum, T> {
  using Acc = Accumulator<T>;
  using Out = std::conditional_t<std::is_floating_point_v<T>, T,
                                 std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                                                    std::uint64_t, std::int64_t>>;
  static Acc init(T) { return Acc{0}; }
  static Acc step(Acc acc, T x) { return acc + static_cast<Acc>(x); }
  static Out finish(Acc acc, std::int64_t) { return static_cast<Out>(acc); }
};

template <class T>
struct ReduceOp<Reduction::prod, T> {
  using Acc = Accumulator<T>;
  using Out = typename ReduceOp<Reduction::sum, T>::Out;
  static Acc init(T) { return Acc{1}; }
  static Acc step(Acc acc, T x) { return acc * static_cast<Acc>(x); }
  static Out finish(Acc acc, std::int64_t) { return static_cast<Out>(acc); }
};

template <class T>
struct ReduceOp<Reduction::mean, T> {
  using Acc = double;
  using Out = T;
  static Acc init(T) { return 0.0; }
  static Acc step(Acc acc, T x) { return acc + static_cast<double>(x); }
  static Out finish(Acc acc, std::int64_t count) {
    return static_cast<Out>(count == 0 ? std::numeric_limits<double>::quiet_NaN() : acc / static_cast<double>(count));
  }
};

template <class T>
struct ReduceOp<Reduction::min, T> {
  using Acc = T;
  using Out = T;
  static Acc init(T first) { return first; }
  static Acc step(Acc acc, T x) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(acc)) return acc;  // NaN propagates, as in numpy
      return (x < acc || std::isnan(x)) ? x : acc;
    } else {
      return x < acc ? x : acc;
    }
  }
  static Out finish(Acc acc, std::int64_t) { return acc; }
};

template <class T>
struct ReduceOp<Reduction::max, T> {
  using Acc = T;
  using Out = T;
  static Acc init(T first) { return first; }
  static Acc step(Acc acc, T x) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(acc)) return acc;
      return (x > acc || std::isnan(x)) ? x : acc;
    } else {
      return x > acc ? x : acc;
    }
  }
  static Out finish(Acc acc, std::int64_t) { return acc; }
};

template <class T>
struct ReduceOp<Reduction::any, T> {
  using Acc = bool;
  using Out = bool;
  static Acc init(T) { return false; }
  static Acc step(Acc acc, T x) { return acc || x != T(0); }
  static Out finish(Acc acc, std::int64_t) { return acc; }
};

template <class T>
struct ReduceOp<Reduction::all, T> {
  using Acc = bool;
  using Out = bool;
  static Acc init(T) { return true; }
  static Acc step(Acc acc, T x) { return acc && x != T(0); }
  static Out finish(Acc acc, std::int64_t) { return acc; }
};

template <Reduction R, class T>
void reduce_typed(const T* in, void* out_raw, const Walk& walk) {
  using Op = ReduceOp<R, T>;
  using Out = typename Op::Out;
  Out* out = static_cast<Out*>(out_raw);
  if (walk.output_count() == 0) return;
  const std::int64_t count = walk.reduced_count();
  const int inner = walk.reduced_rank - 1;
  const auto reduce_one = [&](const T* base) -> Out {
    if (count == 0) return Op::finish(Op::init(T{}), 0);
    typename Op::Acc acc = Op::init(*base);
    if (walk.reduced_rank == 0) return Op::finish(Op::step(acc, *base), 1);
    const std::int64_t length = walk.reduced_extent[inner];
    const std::int64_t step = walk.reduced_stride[inner];
    for_each_run(walk.reduced_rank, walk.reduced_extent, walk.reduced_stride, walk.reduced_stride,
                 [&](std::int64_t offset, std::int64_t) {
                   const T* run = base + offset;
                   for (std::int64_t i = 0; i < length; ++i) acc = Op::step(acc, run[i * step]);
                 });
    return Op::finish(acc, count);
  };
  if (walk.rank == 0) {
    *out = reduce_one(in);
    return;
  }
  const int last = walk.rank - 1;
  for_each_run(walk.rank, walk.extent, walk.in_stride, walk.out_stride,
               [&](std::int64_t in_offset, std::int64_t out_offset) {
                 for (std::int64_t i = 0; i < walk.extent[last]; ++i)
                   out[out_offset + i * walk.out_stride[last]] = reduce_one(in + in_offset + i * walk.in_stride[last]);
               });
}

template <class T>
void reduce_dispatch(Reduction reduction, const T* in, void* out, const Walk& walk) {
  switch (reduction) {
    case Reduction::min: return reduce_typed<Reduction::min>(in, out, walk);
    case Reduction::max: return reduce_typed<Reduction::max>(in, out, walk);
    case Reduction::sum: return reduce_typed<Reduction::sum>(in, out, walk);
    case Reduction::prod: return reduce_typed<Reduction::prod>(in, out, walk);
    case Reduction::any: return reduce_typed<Reduction::any>(in, out, walk);
    case Reduction::all: return reduce_typed<Reduction::all>(in, out, walk);
    case Reduction::mean:
      if constexpr (std::is_floating_point_v<T>) return reduce_typed<Reduction::mean>(in, out, walk);
      return;  // refused before reaching the kernel
  }
}

}  // namespace

void reduce_strided(DType in_type, Reduction reduction, const void* in, void* out, const Walk& walk) {
  visit_dtype(in_type, [&](auto tag) {
    using T = decltype(tag);
    reduce_dispatch(reduction, static_cast<const T*>(in), out, walk);
  });
}

}  // namespace einops::detail
