// rearrange, repeat and reduce on adapted tensors in their three spellings, and
// the *_into forms where either tensor is of another library.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <type_traits>

#include "einops/backend/run.hpp"
#include "einops/backend/static_rank.hpp"

namespace einops {

// Each operation comes in three spellings (the result type: see einops/backend.hpp): the result's
// rank left to the pattern (`rearrange(x, "a b -> b a")`), named (`rearrange<2>(x, ...)`), or the
// pattern as a template argument (`rearrange<"a b -> b a">(x)`), which gives the rank at compile
// time. Each takes axis lengths by name (`"h2"_ax = 2`, or none; the compiler checks them against
// a literal) or as an AxisLengths (`{{"h2", 2}}`, checked at run time).

// ---- rearrange ----------------------------------------------------------------------------------

template <std::size_t M = dynamic_rank, AdaptedInput X, fixed_string... Names>
auto rearrange(const X& x, const detail::adapted_pattern<Operation::rearrange, X, M, given_lengths<Names...>>& pattern,
               axis_length<Names>... lengths) {
  return detail::run_adapted<Operation::rearrange, M, void>(std::nullopt, x, pattern.ref(),
                                                            detail::to_axis_lengths(lengths...));
}
template <std::size_t M = dynamic_rank, AdaptedInput X>
auto rearrange(const X& x, const detail::adapted_pattern<Operation::rearrange, X, M>& pattern,
               const AxisLengths& lengths) {
  return detail::run_adapted<Operation::rearrange, M, void>(std::nullopt, x, pattern.ref(), lengths);
}
template <fixed_string P, AdaptedInput X, fixed_string... Names>
auto rearrange(const X& x, axis_length<Names>... lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::rearrange, X, rank, given_lengths<Names...>> pattern(P.data);
  return detail::run_adapted<Operation::rearrange, rank, void>(std::nullopt, x, pattern.ref(),
                                                               detail::to_axis_lengths(lengths...));
}
template <fixed_string P, AdaptedInput X>
auto rearrange(const X& x, const AxisLengths& lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::rearrange, X, rank> pattern(P.data);
  return detail::run_adapted<Operation::rearrange, rank, void>(std::nullopt, x, pattern.ref(), lengths);
}

// ---- repeat -------------------------------------------------------------------------------------

template <std::size_t M = dynamic_rank, AdaptedInput X, fixed_string... Names>
auto repeat(const X& x, const detail::adapted_pattern<Operation::repeat, X, M, given_lengths<Names...>>& pattern,
            axis_length<Names>... lengths) {
  return detail::run_adapted<Operation::repeat, M, void>(std::nullopt, x, pattern.ref(),
                                                         detail::to_axis_lengths(lengths...));
}
template <std::size_t M = dynamic_rank, AdaptedInput X>
auto repeat(const X& x, const detail::adapted_pattern<Operation::repeat, X, M>& pattern, const AxisLengths& lengths) {
  return detail::run_adapted<Operation::repeat, M, void>(std::nullopt, x, pattern.ref(), lengths);
}
template <fixed_string P, AdaptedInput X, fixed_string... Names>
auto repeat(const X& x, axis_length<Names>... lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::repeat, X, rank, given_lengths<Names...>> pattern(P.data);
  return detail::run_adapted<Operation::repeat, rank, void>(std::nullopt, x, pattern.ref(),
                                                            detail::to_axis_lengths(lengths...));
}
template <fixed_string P, AdaptedInput X>
auto repeat(const X& x, const AxisLengths& lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::repeat, X, rank> pattern(P.data);
  return detail::run_adapted<Operation::repeat, rank, void>(std::nullopt, x, pattern.ref(), lengths);
}

// ---- reduce ------------------------------------------------------------------------------------
// R, the result's element type, defaults to x's; it must be numpy's result type (sum of bool:
// std::int64_t, any/all: bool), else the call throws EinopsError saying which one.

template <std::size_t M = dynamic_rank, class R = void, AdaptedInput X, fixed_string... Names>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, M, given_lengths<Names...>>& pattern,
            ReductionName reduction, axis_length<Names>... lengths) {
  return detail::run_adapted<Operation::reduce, M, R>(reduction.name, x, pattern.ref(),
                                                      detail::to_axis_lengths(lengths...));
}
template <std::size_t M = dynamic_rank, class R = void, AdaptedInput X>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, M>& pattern, ReductionName reduction,
            const AxisLengths& lengths) {
  return detail::run_adapted<Operation::reduce, M, R>(reduction.name, x, pattern.ref(), lengths);
}
/// The result's element type named, its rank not: `reduce<bool>(x, "a b -> a", "any")`.
template <Element R, AdaptedInput X>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, dynamic_rank>& pattern,
            ReductionName reduction, const AxisLengths& lengths = {}) {
  return detail::run_adapted<Operation::reduce, dynamic_rank, R>(reduction.name, x, pattern.ref(), lengths);
}
template <fixed_string P, class R = void, AdaptedInput X, fixed_string... Names>
auto reduce(const X& x, ReductionName reduction, axis_length<Names>... lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::reduce, X, rank, given_lengths<Names...>> pattern(P.data);
  return detail::run_adapted<Operation::reduce, rank, R>(reduction.name, x, pattern.ref(),
                                                         detail::to_axis_lengths(lengths...));
}
template <fixed_string P, class R = void, AdaptedInput X>
auto reduce(const X& x, ReductionName reduction, const AxisLengths& lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::reduce, X, rank> pattern(P.data);
  return detail::run_adapted<Operation::reduce, rank, R>(reduction.name, x, pattern.ref(), lengths);
}

/// A user reduction `f(std::span<const T>)` per reduced group (see ops.hpp); strided tensors only.
template <std::size_t M = dynamic_rank, StridedTensor X, class F>
  requires(!TensorInput<X>) && detail::typed_memory<X> && std::invocable<F&, std::span<const detail::traits_value_t<X>>>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, M>& pattern, F&& f,
            const AxisLengths& lengths = {}) {
  using Result = std::remove_cvref_t<std::invoke_result_t<F&, std::span<const detail::traits_value_t<X>>>>;
  const auto y = detail::reduce_with(view(x), pattern.ref(), f, lengths);
  return detail::result_from<X, Result, M>(y, "reduce", pattern.text());
}

// ---- writing into a caller-provided tensor --------------------------------------------------------

/// As ops.hpp's *_into, where either tensor (or both) is of another library: `out` (an
/// Eigen::TensorMap, an xt::strided_view, an adapted buffer, ...) has the result's shape and dtype.
template <detail::strided_single X, class Out>
  requires(AdaptedTensor<X> || AdaptedTensor<std::remove_cvref_t<Out>>) &&
          detail::strided_single<std::remove_cvref_t<Out>>
void rearrange_into(const X& x, Out&& out, const rearrange_pattern<>& pattern, const AxisLengths& lengths = {}) {
  const detail::TensorRefWithExtents in = detail::borrow(x);
  const detail::TensorRefWithExtents target = detail::borrow_writable(out);
  detail::rearrange_into(in, target, pattern.ref(), lengths);
}
template <detail::strided_single X, class Out>
  requires(AdaptedTensor<X> || AdaptedTensor<std::remove_cvref_t<Out>>) &&
          detail::strided_single<std::remove_cvref_t<Out>>
void repeat_into(const X& x, Out&& out, const repeat_pattern<>& pattern, const AxisLengths& lengths = {}) {
  const detail::TensorRefWithExtents in = detail::borrow(x);
  const detail::TensorRefWithExtents target = detail::borrow_writable(out);
  detail::repeat_into(in, target, pattern.ref(), lengths);
}
template <detail::strided_single X, class Out>
  requires(AdaptedTensor<X> || AdaptedTensor<std::remove_cvref_t<Out>>) &&
          detail::strided_single<std::remove_cvref_t<Out>>
void reduce_into(const X& x, Out&& out, const reduce_pattern<>& pattern, ReductionName reduction,
                 const AxisLengths& lengths = {}) {
  const detail::TensorRefWithExtents in = detail::borrow(x);
  const detail::TensorRefWithExtents target = detail::borrow_writable(out);
  detail::reduce_into(in, target, pattern.ref(), reduction.name, lengths);
}

}  // namespace einops
