// rearrange, reduce and repeat on the built-in tensor, with einops' semantics.
//
// Every operation takes its pattern as a pattern argument (pattern_arg.hpp): a literal is checked
// by the compiler, a run-time string on first use. Axis lengths come as einops' keyword
// arguments, `{{"h2", 2}, {"w2", 2}}` (an AxisLengths), or as `"h2"_ax = 2, "w2"_ax = 2`, whose
// names the compiler checks against a literal pattern.
//
// The work happens in non-template code (src/ops.cpp) on AnyTensor; the templates here only
// convert the caller's types, so user translation units stay quick to compile.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "einops/detail/reduce_with.hpp"
#include "einops/detail/tensor_ref.hpp"
#include "einops/dtype.hpp"
#include "einops/reduction.hpp"
#include "einops/export.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"

namespace einops {

/// A named reduction: a name in kReductions (einops/reduction.hpp), "rearrange" or "repeat" (as
/// einops accepts them), or the Reduction enum.
struct ReductionName {
  std::string_view name;
  ReductionName(std::string_view reduction_name) : name(reduction_name) {}    // NOLINT(google-explicit-constructor)
  ReductionName(const char* reduction_name) : name(reduction_name) {}         // NOLINT(google-explicit-constructor)
  ReductionName(const std::string& reduction_name) : name(reduction_name) {}  // NOLINT(google-explicit-constructor)
  ReductionName(Reduction reduction) : name(reduction_name(reduction)) {}     // NOLINT(google-explicit-constructor)
};

// ---- the run-time typed core -----------------------------------------------------------------

namespace detail {

EINOPS_API AnyTensor rearrange(const TensorRef& x, const PatternRef& pattern, const AxisLengths& lengths);
EINOPS_API AnyTensor rearrange(std::span<const AnyTensor> xs, const PatternRef& pattern, const AxisLengths& lengths);
EINOPS_API AnyTensor repeat(const TensorRef& x, const PatternRef& pattern, const AxisLengths& lengths);
EINOPS_API AnyTensor repeat(std::span<const AnyTensor> xs, const PatternRef& pattern, const AxisLengths& lengths);
EINOPS_API AnyTensor reduce(const TensorRef& x, const PatternRef& pattern, std::string_view reduction,
                            const AxisLengths& lengths);
EINOPS_API AnyTensor reduce(std::span<const AnyTensor> xs, const PatternRef& pattern, std::string_view reduction,
                            const AxisLengths& lengths);
EINOPS_API void rearrange_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern,
                               const AxisLengths& lengths);
EINOPS_API void repeat_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern,
                            const AxisLengths& lengths);
EINOPS_API void reduce_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern,
                            std::string_view reduction, const AxisLengths& lengths);
EINOPS_API AnyTensor contiguous(const TensorRef& x);

/// How each accepted input type reaches the core and how a result comes back in the caller's
/// element type. A list (std::vector) is stacked on a new leading axis, as einops does.
template <class X>
struct input_traits;

template <Element T>
struct input_traits<Tensor<T>> {
  using result = Tensor<T>;
  static TensorRef single(const Tensor<T>& x) { return x; }
  static result typed(AnyTensor y) { return std::move(y).as<T>(); }
};
template <Element T>
struct input_traits<TensorView<T>> {
  using result = Tensor<std::remove_const_t<T>>;
  static TensorRef single(const TensorView<T>& x) { return x; }
  static result typed(AnyTensor y) { return std::move(y).as<std::remove_const_t<T>>(); }
};
template <>
struct input_traits<AnyTensor> {
  using result = AnyTensor;
  static TensorRef single(const AnyTensor& x) { return x; }
  static result typed(AnyTensor y) { return y; }
};
template <class Item>
  requires requires { typename input_traits<Item>::result; }  // a list of other types is no TensorInput
struct input_traits<std::vector<Item>> {
  using result = typename input_traits<Item>::result;
  static constexpr bool is_list = true;
  static std::vector<AnyTensor> list(const std::vector<Item>& xs) { return {xs.begin(), xs.end()}; }
  static result typed(AnyTensor y) { return input_traits<Item>::typed(std::move(y)); }
};

template <>
struct input_traits<std::span<const AnyTensor>> {
  using result = AnyTensor;
  static constexpr bool is_list = true;
  static std::span<const AnyTensor> list(std::span<const AnyTensor> xs) { return xs; }
  static result typed(AnyTensor y) { return y; }
};

template <class X>
concept list_input = requires { input_traits<X>::is_list; };

/// Runs `core(single-or-list)` for any accepted input.
template <class X, class Core>
auto run(const X& x, Core&& core) {
  using traits = input_traits<X>;
  if constexpr (list_input<X>) {
    const auto list = traits::list(x);
    return core(std::span<const AnyTensor>(list));
  } else {
    return core(traits::single(x));
  }
}

template <fixed_string... Names>
AxisLengths to_axis_lengths(const axis_length<Names>&... lengths) {
  AxisLengths out;
  (out.add(Names.view(), lengths.length), ...);
  return out;
}

}  // namespace detail

/// A type the operations accept: Tensor<T>, TensorView<T>, AnyTensor, or a std::vector of them.
template <class X>
concept TensorInput = requires { typename detail::input_traits<X>::result; };

template <class X>
using result_of_t = typename detail::input_traits<X>::result;

// ---- rearrange -------------------------------------------------------------------------------

/// einops.rearrange. The result shares the input's memory whenever no element has to move.
template <TensorInput X>
result_of_t<X> rearrange(const X& x, const rearrange_pattern<>& pattern, const AxisLengths& lengths) {
  return detail::input_traits<X>::typed(
      detail::run(x, [&](const auto& in) { return detail::rearrange(in, pattern.ref(), lengths); }));
}
template <TensorInput X, fixed_string... Names>
result_of_t<X> rearrange(const X& x, const std::type_identity_t<rearrange_pattern<given_lengths<Names...>>>& pattern,
                         axis_length<Names>... lengths) {
  const AxisLengths given = detail::to_axis_lengths(lengths...);
  return detail::input_traits<X>::typed(
      detail::run(x, [&](const auto& in) { return detail::rearrange(in, pattern.ref(), given); }));
}

// ---- repeat ----------------------------------------------------------------------------------

/// einops.repeat: new axes (their lengths given), tiling and upsampling.
template <TensorInput X>
result_of_t<X> repeat(const X& x, const repeat_pattern<>& pattern, const AxisLengths& lengths) {
  return detail::input_traits<X>::typed(
      detail::run(x, [&](const auto& in) { return detail::repeat(in, pattern.ref(), lengths); }));
}
template <TensorInput X, fixed_string... Names>
result_of_t<X> repeat(const X& x, const std::type_identity_t<repeat_pattern<given_lengths<Names...>>>& pattern,
                      axis_length<Names>... lengths) {
  const AxisLengths given = detail::to_axis_lengths(lengths...);
  return detail::input_traits<X>::typed(
      detail::run(x, [&](const auto& in) { return detail::repeat(in, pattern.ref(), given); }));
}

// ---- reduce with a named reduction -------------------------------------------------------------

/// einops.reduce with a named reduction. The result is an AnyTensor because numpy's result dtype
/// depends on the reduction: any/all give bool, sum/prod of integers give int64 (uint64 for
/// unsigned), min/max/mean keep the dtype, and nothing reduced keeps it too. `.as<T>()` (or
/// assigning to a Tensor<T>) types it.
template <TensorInput X>
AnyTensor reduce(const X& x, const reduce_pattern<>& pattern, ReductionName reduction, const AxisLengths& lengths) {
  return detail::run(x, [&](const auto& in) { return detail::reduce(in, pattern.ref(), reduction.name, lengths); });
}
template <TensorInput X, fixed_string... Names>
AnyTensor reduce(const X& x, const std::type_identity_t<reduce_pattern<given_lengths<Names...>>>& pattern,
                 ReductionName reduction, axis_length<Names>... lengths) {
  const AxisLengths given = detail::to_axis_lengths(lengths...);
  return detail::run(x, [&](const auto& in) { return detail::reduce(in, pattern.ref(), reduction.name, given); });
}

// ---- reduce with a user callable -------------------------------------------------------------

namespace detail {

template <class X>
concept typed_input = requires(const X& x) { TensorView<typename X::value_type>(x); };

}  // namespace detail

/// A user reduction: `f(std::span<const T>)` receives the elements of one reduced group (in the
/// input's order of the reduced axes) and returns one output element. When no axis is reduced,
/// each group holds a single element.
template <detail::typed_input X, class F>
  requires std::invocable<F&, std::span<const std::remove_const_t<typename X::value_type>>>
auto reduce(const X& x, const reduce_pattern<no_axis_lengths>& pattern, F&& f) {
  return detail::reduce_with(TensorView<typename X::value_type>(x), pattern.ref(), f, {});
}
template <detail::typed_input X, class F>
  requires std::invocable<F&, std::span<const std::remove_const_t<typename X::value_type>>>
auto reduce(const X& x, const reduce_pattern<>& pattern, F&& f, const AxisLengths& lengths) {
  return detail::reduce_with(TensorView<typename X::value_type>(x), pattern.ref(), f, lengths);
}

// ---- contiguous ----------------------------------------------------------------------------------

/// `x` in row-major contiguous memory, as torch's `.contiguous()`: `x` itself (sharing its memory)
/// when it already is, else a copy. For instance the result of a rearrange that returned a view.
template <TensorInput X>
  requires(!detail::list_input<X>)
result_of_t<X> contiguous(const X& x) {
  return detail::input_traits<X>::typed(detail::contiguous(detail::input_traits<X>::single(x)));
}

// ---- writing into a caller-provided tensor ------------------------------------------------------

/// The operations writing into `out` (no allocation): `out` must have the result's shape and
/// dtype, may have any strides, and must not overlap `x`.
template <TensorInput X, TensorInput Out>
void rearrange_into(const X& x, const Out& out, const rearrange_pattern<>& pattern, const AxisLengths& lengths = {}) {
  detail::rearrange_into(detail::input_traits<X>::single(x), detail::input_traits<Out>::single(out), pattern.ref(),
                         lengths);
}
template <TensorInput X, TensorInput Out>
void repeat_into(const X& x, const Out& out, const repeat_pattern<>& pattern, const AxisLengths& lengths = {}) {
  detail::repeat_into(detail::input_traits<X>::single(x), detail::input_traits<Out>::single(out), pattern.ref(),
                      lengths);
}
template <TensorInput X, TensorInput Out>
void reduce_into(const X& x, const Out& out, const reduce_pattern<>& pattern, ReductionName reduction,
                 const AxisLengths& lengths = {}) {
  detail::reduce_into(detail::input_traits<X>::single(x), detail::input_traits<Out>::single(out), pattern.ref(),
                      reduction.name, lengths);
}

}  // namespace einops
