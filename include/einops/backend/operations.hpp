// rearrange, repeat and reduce on adapted tensors in their three spellings (see backend.hpp), and
// the *_into forms where either tensor is of another library.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <type_traits>

#include "einops/backend/run.hpp"
#include "einops/backend/static_rank.hpp"

namespace einops {

// ---- rearrange ---------------------------------------------------------------------------------
// Each operation comes in three spellings (the result type: see einops/backend.hpp), each with
// no axis lengths, an AxisLengths ({{"h2", 2}}), or lengths the compiler checks ("h2"_ax = 2).

template <AdaptedInput X>
auto rearrange(const X& x, const detail::adapted_pattern<Operation::rearrange, X, dynamic_rank, no_axis_lengths>& pattern) {
  return detail::run_adapted<Operation::rearrange, dynamic_rank, void>(std::nullopt, x, pattern.ref(), {});
}
template <AdaptedInput X>
auto rearrange(const X& x, const detail::adapted_pattern<Operation::rearrange, X, dynamic_rank>& pattern,
               const AxisLengths& lengths) {
  return detail::run_adapted<Operation::rearrange, dynamic_rank, void>(std::nullopt, x, pattern.ref(), lengths);
}
template <AdaptedInput X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
auto rearrange(const X& x, const detail::adapted_pattern<Operation::rearrange, X, dynamic_rank, axis_length<Names>...>& pattern,
               axis_length<Names>... lengths) {
  return detail::run_adapted<Operation::rearrange, dynamic_rank, void>(std::nullopt, x, pattern.ref(),
                                                                       detail::to_axis_lengths(lengths...));
}

/// The result has rank M (a literal pattern is checked against it by the compiler).
template <std::size_t M, AdaptedInput X>
auto rearrange(const X& x, const detail::adapted_pattern<Operation::rearrange, X, M, no_axis_lengths>& pattern) {
  return detail::run_adapted<Operation::rearrange, M, void>(std::nullopt, x, pattern.ref(), {});
}
template <std::size_t M, AdaptedInput X>
auto rearrange(const X& x, const detail::adapted_pattern<Operation::rearrange, X, M>& pattern, const AxisLengths& lengths) {
  return detail::run_adapted<Operation::rearrange, M, void>(std::nullopt, x, pattern.ref(), lengths);
}
template <std::size_t M, AdaptedInput X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
auto rearrange(const X& x, const detail::adapted_pattern<Operation::rearrange, X, M, axis_length<Names>...>& pattern,
               axis_length<Names>... lengths) {
  return detail::run_adapted<Operation::rearrange, M, void>(std::nullopt, x, pattern.ref(),
                                                            detail::to_axis_lengths(lengths...));
}

/// The pattern as a template argument: the result's rank follows from it at compile time.
template <fixed_string P, AdaptedInput X>
auto rearrange(const X& x) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::rearrange, X, rank, no_axis_lengths> pattern(P.data);
  return detail::run_adapted<Operation::rearrange, rank, void>(std::nullopt, x, pattern.ref(), {});
}
template <fixed_string P, AdaptedInput X>
auto rearrange(const X& x, const AxisLengths& lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::rearrange, X, rank> pattern(P.data);
  return detail::run_adapted<Operation::rearrange, rank, void>(std::nullopt, x, pattern.ref(), lengths);
}
template <fixed_string P, AdaptedInput X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
auto rearrange(const X& x, axis_length<Names>... lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::rearrange, X, rank, axis_length<Names>...> pattern(P.data);
  return detail::run_adapted<Operation::rearrange, rank, void>(std::nullopt, x, pattern.ref(),
                                                               detail::to_axis_lengths(lengths...));
}

// ---- repeat ------------------------------------------------------------------------------------

template <AdaptedInput X>
auto repeat(const X& x, const detail::adapted_pattern<Operation::repeat, X, dynamic_rank, no_axis_lengths>& pattern) {
  return detail::run_adapted<Operation::repeat, dynamic_rank, void>(std::nullopt, x, pattern.ref(), {});
}
template <AdaptedInput X>
auto repeat(const X& x, const detail::adapted_pattern<Operation::repeat, X, dynamic_rank>& pattern, const AxisLengths& lengths) {
  return detail::run_adapted<Operation::repeat, dynamic_rank, void>(std::nullopt, x, pattern.ref(), lengths);
}
template <AdaptedInput X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
auto repeat(const X& x, const detail::adapted_pattern<Operation::repeat, X, dynamic_rank, axis_length<Names>...>& pattern,
            axis_length<Names>... lengths) {
  return detail::run_adapted<Operation::repeat, dynamic_rank, void>(std::nullopt, x, pattern.ref(),
                                                                    detail::to_axis_lengths(lengths...));
}
template <std::size_t M, AdaptedInput X>
auto repeat(const X& x, const detail::adapted_pattern<Operation::repeat, X, M, no_axis_lengths>& pattern) {
  return detail::run_adapted<Operation::repeat, M, void>(std::nullopt, x, pattern.ref(), {});
}
template <std::size_t M, AdaptedInput X>
auto repeat(const X& x, const detail::adapted_pattern<Operation::repeat, X, M>& pattern, const AxisLengths& lengths) {
  return detail::run_adapted<Operation::repeat, M, void>(std::nullopt, x, pattern.ref(), lengths);
}
template <std::size_t M, AdaptedInput X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
auto repeat(const X& x, const detail::adapted_pattern<Operation::repeat, X, M, axis_length<Names>...>& pattern,
            axis_length<Names>... lengths) {
  return detail::run_adapted<Operation::repeat, M, void>(std::nullopt, x, pattern.ref(),
                                                         detail::to_axis_lengths(lengths...));
}
template <fixed_string P, AdaptedInput X>
auto repeat(const X& x) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::repeat, X, rank, no_axis_lengths> pattern(P.data);
  return detail::run_adapted<Operation::repeat, rank, void>(std::nullopt, x, pattern.ref(), {});
}
template <fixed_string P, AdaptedInput X>
auto repeat(const X& x, const AxisLengths& lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::repeat, X, rank> pattern(P.data);
  return detail::run_adapted<Operation::repeat, rank, void>(std::nullopt, x, pattern.ref(), lengths);
}
template <fixed_string P, AdaptedInput X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
auto repeat(const X& x, axis_length<Names>... lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::repeat, X, rank, axis_length<Names>...> pattern(P.data);
  return detail::run_adapted<Operation::repeat, rank, void>(std::nullopt, x, pattern.ref(),
                                                            detail::to_axis_lengths(lengths...));
}

// ---- reduce ------------------------------------------------------------------------------------
// R, the result's element type, defaults to x's; it must be numpy's result type (sum of bool:
// std::int64_t, any/all: bool), else the call throws EinopsError saying which one.

template <AdaptedInput X>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, dynamic_rank, no_axis_lengths>& pattern,
            ReductionName reduction) {
  return detail::run_adapted<Operation::reduce, dynamic_rank, void>(reduction.name, x, pattern.ref(), {});
}
template <AdaptedInput X>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, dynamic_rank>& pattern, ReductionName reduction,
            const AxisLengths& lengths) {
  return detail::run_adapted<Operation::reduce, dynamic_rank, void>(reduction.name, x, pattern.ref(), lengths);
}
template <AdaptedInput X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, dynamic_rank, axis_length<Names>...>& pattern,
            ReductionName reduction, axis_length<Names>... lengths) {
  return detail::run_adapted<Operation::reduce, dynamic_rank, void>(reduction.name, x, pattern.ref(),
                                                                    detail::to_axis_lengths(lengths...));
}
/// The result's element type named, its rank not: `reduce<bool>(x, "a b -> a", "any")`.
template <Element R, AdaptedInput X>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, dynamic_rank>& pattern, ReductionName reduction,
            const AxisLengths& lengths = {}) {
  return detail::run_adapted<Operation::reduce, dynamic_rank, R>(reduction.name, x, pattern.ref(), lengths);
}
template <std::size_t M, class R = void, AdaptedInput X>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, M, no_axis_lengths>& pattern,
            ReductionName reduction) {
  return detail::run_adapted<Operation::reduce, M, R>(reduction.name, x, pattern.ref(), {});
}
template <std::size_t M, class R = void, AdaptedInput X>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, M>& pattern, ReductionName reduction,
            const AxisLengths& lengths) {
  return detail::run_adapted<Operation::reduce, M, R>(reduction.name, x, pattern.ref(), lengths);
}
template <std::size_t M, class R = void, AdaptedInput X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, M, axis_length<Names>...>& pattern,
            ReductionName reduction, axis_length<Names>... lengths) {
  return detail::run_adapted<Operation::reduce, M, R>(reduction.name, x, pattern.ref(),
                                                      detail::to_axis_lengths(lengths...));
}
template <fixed_string P, class R = void, AdaptedInput X>
auto reduce(const X& x, ReductionName reduction) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::reduce, X, rank, no_axis_lengths> pattern(P.data);
  return detail::run_adapted<Operation::reduce, rank, R>(reduction.name, x, pattern.ref(), {});
}
template <fixed_string P, class R = void, AdaptedInput X>
auto reduce(const X& x, ReductionName reduction, const AxisLengths& lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::reduce, X, rank> pattern(P.data);
  return detail::run_adapted<Operation::reduce, rank, R>(reduction.name, x, pattern.ref(), lengths);
}
template <fixed_string P, class R = void, AdaptedInput X, fixed_string... Names>
  requires(sizeof...(Names) > 0)
auto reduce(const X& x, ReductionName reduction, axis_length<Names>... lengths) {
  constexpr std::size_t rank = detail::template_pattern_output_rank<P, detail::adapted_input<X>::rank>();
  static const detail::adapted_pattern<Operation::reduce, X, rank, axis_length<Names>...> pattern(P.data);
  return detail::run_adapted<Operation::reduce, rank, R>(reduction.name, x, pattern.ref(),
                                                         detail::to_axis_lengths(lengths...));
}

/// A user reduction `f(std::span<const T>)` per reduced group (see ops.hpp); strided tensors only.
template <std::size_t M = dynamic_rank, StridedTensor X, class F>
  requires(!TensorInput<X>) && std::invocable<F&, std::span<const detail::traits_value_t<X>>>
auto reduce(const X& x, const detail::adapted_pattern<Operation::reduce, X, M>& pattern, F&& f, const AxisLengths& lengths = {}) {
  using Result = std::remove_cvref_t<std::invoke_result_t<F&, std::span<const detail::traits_value_t<X>>>>;
  const auto y = detail::reduce_with(view(x), pattern.ref(), f, lengths);
  return detail::result_from<X, Result, M>(y, "reduce", pattern.text());
}

// ---- writing into a caller-provided tensor --------------------------------------------------------

/// As ops.hpp's *_into, where either tensor (or both) is of another library: `out` (an
/// Eigen::TensorMap, an xt::strided_view, an adapted buffer, ...) has the result's shape and dtype.
template <detail::strided_single X, class Out>
  requires(AdaptedTensor<X> || AdaptedTensor<std::remove_cvref_t<Out>>) && detail::strided_single<std::remove_cvref_t<Out>>
void rearrange_into(const X& x, Out&& out, const rearrange_pattern<>& pattern, const AxisLengths& lengths = {}) {
  const detail::BorrowedTensor in = detail::borrow(x);
  const detail::BorrowedTensor target = detail::borrow_writable(out);
  detail::rearrange_into(in.ref(), target.ref(), pattern.ref(), lengths);
}
template <detail::strided_single X, class Out>
  requires(AdaptedTensor<X> || AdaptedTensor<std::remove_cvref_t<Out>>) && detail::strided_single<std::remove_cvref_t<Out>>
void repeat_into(const X& x, Out&& out, const repeat_pattern<>& pattern, const AxisLengths& lengths = {}) {
  const detail::BorrowedTensor in = detail::borrow(x);
  const detail::BorrowedTensor target = detail::borrow_writable(out);
  detail::repeat_into(in.ref(), target.ref(), pattern.ref(), lengths);
}
template <detail::strided_single X, class Out>
  requires(AdaptedTensor<X> || AdaptedTensor<std::remove_cvref_t<Out>>) && detail::strided_single<std::remove_cvref_t<Out>>
void reduce_into(const X& x, Out&& out, const reduce_pattern<>& pattern, ReductionName reduction,
                 const AxisLengths& lengths = {}) {
  const detail::BorrowedTensor in = detail::borrow(x);
  const detail::BorrowedTensor target = detail::borrow_writable(out);
  detail::reduce_into(in.ref(), target.ref(), pattern.ref(), reduction.name, lengths);
}

}  // namespace einops
