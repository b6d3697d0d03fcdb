// Any tensor type with einops: a `tensor_traits` specialisation, the concepts it satisfies, and
// every operation on such types. The Eigen and xtensor adapters (eigen.hpp, xtensor.hpp) are
// two such specialisations; docs/backends.md shows how to write one.
//
// Two ways in:
//  1. Expose memory (StridedTensor): `value_type`, `data(x)`, `shape(x)`, `strides(x)` (in
//     elements). The built-in kernels then read the memory in place (no copy on the way in) and
//     write the result straight into a tensor of the caller's type made by `make<U, Rank>(shape)`
//     (optional: without it, results are built-in tensors). An optional `rank` says the rank is
//     a compile-time constant, which lets a literal pattern be checked against it.
//  2. Bring your own ops (TensorOps): `shape`, `reshape`, `permute`, `reduce`, `broadcast` (and,
//     for pack/unpack/einsum, `concatenate`, `slice`, `einsum`). einops plans and checks the call
//     exactly as for the built-in tensor, then drives the library's ops (einops' own recipe):
//     gradients, devices and lazy evaluation of that library keep working.
//
// The result type of every operation:
//   einops::rearrange(x, pattern)            x's family when its rank is dynamic, else a built-in
//                                            einops::Tensor<T> (reduce: an AnyTensor)
//   einops::rearrange<M>(x, pattern)         x's family with rank M (checked: a literal at
//                                            compile time, a run-time string when run)
//   einops::rearrange<"b c h w -> b h w c">(x)  x's family, its rank computed at compile time
// reduce takes the result's element type as an optional second template argument
// (`reduce<M, std::int64_t>(...)`); it defaults to x's and must be numpy's result type.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <iterator>  // std::ranges::begin/end/size (<ranges> itself costs a user 0.5 s per file)
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "einops/detail/adapter_call.hpp"
#include "einops/dtype.hpp"
#include "einops/einsum.hpp"
#include "einops/fixed_string.hpp"
#include "einops/ops.hpp"
#include "einops/pack.hpp"
#include "einops/parse_shape.hpp"
#include "einops/pattern.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/pattern_checks.hpp"
#include "einops/tensor.hpp"

namespace einops {

/// Specialise for a tensor type to make every einops operation accept it (see the top of this file).
template <class X>
struct tensor_traits;

namespace detail {

template <class R>
concept integer_range = requires(const std::remove_cvref_t<R>& r) {
  std::ranges::size(r);
  requires std::integral<std::remove_cvref_t<decltype(*std::ranges::begin(r))>>;
};

template <class X>
using traits_value_t = std::remove_cv_t<typename tensor_traits<std::remove_cvref_t<X>>::value_type>;

}  // namespace detail

/// A tensor type whose memory einops may read in place: pointer, shape and strides in elements.
template <class X>
concept StridedTensor = requires(const X& x) {
  typename tensor_traits<X>::value_type;
  requires Element<detail::traits_value_t<X>>;
  { tensor_traits<X>::data(x) } -> std::convertible_to<const detail::traits_value_t<X>*>;
  { tensor_traits<X>::shape(x) } -> detail::integer_range;
  { tensor_traits<X>::strides(x) } -> detail::integer_range;
};

/// A strided tensor einops may write into (a result, or the output of a *_into call).
template <class X>
concept WritableTensor = StridedTensor<std::remove_cvref_t<X>> && requires(X& x) {
  { tensor_traits<std::remove_cvref_t<X>>::data(x) } -> std::convertible_to<detail::traits_value_t<X>*>;
};

/// A tensor type that brings its own reshape/permute/reduce/broadcast (axes and shapes as int64).
template <class X>
concept TensorOps = requires(const X& x, std::span<const std::int64_t> lengths, Reduction reduction) {
  { tensor_traits<X>::shape(x) } -> detail::integer_range;
  { tensor_traits<X>::reshape(x, lengths) } -> std::convertible_to<X>;
  { tensor_traits<X>::permute(x, lengths) } -> std::convertible_to<X>;
  { tensor_traits<X>::reduce(x, reduction, lengths) } -> std::convertible_to<X>;
  { tensor_traits<X>::broadcast(x, lengths) } -> std::convertible_to<X>;
};

namespace detail {

/// The library's own tensors (and lists of them), which ops.hpp serves.
template <class X>
struct is_builtin_input : std::false_type {};
template <class T>
struct is_builtin_input<Tensor<T>> : std::true_type {};
template <class T>
struct is_builtin_input<TensorView<T>> : std::true_type {};
template <>
struct is_builtin_input<AnyTensor> : std::true_type {};
template <class X>
struct is_builtin_input<std::vector<X>> : is_builtin_input<X> {};
template <>
struct is_builtin_input<std::span<const AnyTensor>> : std::true_type {};

}  // namespace detail

/// A tensor type of another library that einops operations accept.
template <class X>
concept AdaptedTensor = !detail::is_builtin_input<X>::value && (StridedTensor<X> || TensorOps<X>);

/// The rank of X when it is a compile-time constant (`tensor_traits<X>::rank`), else dynamic_rank.
template <class X>
constexpr std::size_t static_rank_of() {
  if constexpr (requires { tensor_traits<X>::rank; })
    return static_cast<std::size_t>(tensor_traits<X>::rank);
  else
    return dynamic_rank;
}

/// Any strided tensor as a built-in view of the same memory (no copy): mixes freely with the
/// built-in tensors, e.g. in a pack of tensors of different types.
template <StridedTensor X>
TensorView<const detail::traits_value_t<X>> view(const X& x) {
  using T = detail::traits_value_t<X>;
  const auto shape = tensor_traits<X>::shape(x);
  const auto strides = tensor_traits<X>::strides(x);
  return TensorView<const T>(tensor_traits<X>::data(x), Shape(std::ranges::begin(shape), std::ranges::end(shape)),
                             Shape(std::ranges::begin(strides), std::ranges::end(strides)));
}

namespace detail {

template <class X>
BorrowedTensor borrow(const X& x) {
  if constexpr (TensorInput<X>) {
    const TensorRef ref = input_traits<X>::single(x);
    return BorrowedTensor(ref.dtype, ref.data, ref.shape, ref.strides);
  } else {
    return BorrowedTensor(dtype_v<traits_value_t<X>>, tensor_traits<X>::data(x), tensor_traits<X>::shape(x),
                          tensor_traits<X>::strides(x));
  }
}

/// Writable memory of `x` (a result just made, or the output of a *_into call).
template <class X>
BorrowedTensor borrow_writable(X& x) {
  if constexpr (TensorInput<std::remove_const_t<X>>) {
    return borrow(x);
  } else {
    using Traits = tensor_traits<std::remove_const_t<X>>;
    static_assert(WritableTensor<X>, "einops: this tensor's memory is read-only (tensor_traits<X>::data gives a const pointer)");
    return BorrowedTensor(dtype_v<traits_value_t<X>>, Traits::data(x), Traits::shape(x), Traits::strides(x));
  }
}

// ---- which type a result has --------------------------------------------------------------------

/// True when the family of X makes results of element type U and rank `Rank`.
template <class X, class U, std::size_t Rank>
concept makes_results = requires(std::span<const std::int64_t> shape) {
  { tensor_traits<X>::template make<U, Rank>(shape) } -> WritableTensor;
};

/// Results in X's family: with rank `Rank` (dynamic_rank when unknown). A static-rank family
/// cannot hold a result of unknown rank, and a family without `make` makes none: both give
/// built-in tensors.
template <class X, class U, std::size_t Rank>
inline constexpr bool result_in_family =
    (Rank != dynamic_rank || static_rank_of<X>() == dynamic_rank) && makes_results<X, U, Rank>;

template <class X, class U, std::size_t Rank>
auto make_result(std::span<const std::int64_t> shape) {
  if constexpr (result_in_family<X, U, Rank>)
    return tensor_traits<X>::template make<U, Rank>(shape);
  else
    return Tensor<U>(Shape(shape.begin(), shape.end()));
}

/// What to write to get another result type, for messages.
inline constexpr std::string_view kAskForRank =
    "Name the result's rank, e.g. einops::rearrange<M>(x, pattern), or omit it to get a built-in tensor.";
inline constexpr std::string_view kAskForElement =
    "Name the result's element type, e.g. einops::reduce<M, std::int64_t>(x, pattern, reduction).";

/// A built-in result `y` as a result of X's family (one copy), checked against `Rank` and U.
template <class X, class U, std::size_t Rank>
auto result_from(const AnyTensor& y, std::string_view operation, std::string_view pattern) {
  expect_result_of(y, Rank, dtype_v<U>, operation, pattern, Rank != dynamic_rank ? kAskForRank : kAskForElement);
  if constexpr (!result_in_family<X, U, Rank>) {
    return y.as<U>();
  } else {
    auto result = make_result<X, U, Rank>(y.shape());
    copy_into(y, borrow_writable(result).ref());
    return result;
  }
}

// ---- inputs: one tensor, or a list stacked on a new leading axis ---------------------------------

template <class X>
struct adapted_input;
template <AdaptedTensor X>
struct adapted_input<X> {
  using tensor = X;
  static constexpr bool is_list = false;
  static constexpr std::size_t rank = static_rank_of<X>();
};
template <AdaptedTensor X>
struct adapted_input<std::vector<X>> {
  using tensor = X;
  static constexpr bool is_list = true;
  static constexpr std::size_t rank = static_rank_of<X>() == dynamic_rank ? dynamic_rank : static_rank_of<X>() + 1;
};

}  // namespace detail

/// What the operations on other libraries' tensors accept: an adapted tensor or a std::vector of them.
template <class X>
concept AdaptedInput = requires { typename detail::adapted_input<X>::tensor; };

namespace detail {

// ---- literal patterns checked against static ranks -------------------------------------------

// A rank mismatch is reported like every other fault of a literal, by reaching
// invalid_pattern<Reason>() (pattern_arg.hpp) during constant evaluation; here the reason text is
// composed during compilation so that it names both ranks.
constexpr std::size_t decimal_digits(std::size_t value) {
  std::size_t digits = 1;
  for (; value >= 10; value /= 10) ++digits;
  return digits;
}
constexpr void append_text(char* out, std::size_t& at, std::string_view text) {
  for (char c : text) out[at++] = c;
}
constexpr void append_decimal(char* out, std::size_t& at, std::size_t value) {
  const std::size_t digits = decimal_digits(value);
  for (std::size_t i = digits; i-- > 0; value /= 10) out[at + i] = static_cast<char>('0' + value % 10);
  at += digits;
}
/// "<Before><First><Middle><Second><After>" as a fixed_string.
template <fixed_string Before, std::size_t First, fixed_string Middle, std::size_t Second, fixed_string After>
constexpr auto rank_reason() {
  constexpr std::size_t size =
      Before.size() + decimal_digits(First) + Middle.size() + decimal_digits(Second) + After.size() + 1;
  char text[size]{};
  std::size_t at = 0;
  append_text(text, at, Before.view());
  append_decimal(text, at, First);
  append_text(text, at, Middle.view());
  append_decimal(text, at, Second);
  append_text(text, at, After.view());
  return fixed_string<size>(text);
}

void pattern_rank_out_of_range();

// Turn a rank known during constant evaluation into a template argument of the reason.
using input_rank_values = std::make_index_sequence<kMaxPatternAxes + 1>;
using output_rank_values = std::make_index_sequence<2 * kMaxPatternAxes + 1>;
template <std::size_t TensorRank, bool IsMinimum, std::size_t... PatternRank>
constexpr void report_input_rank(std::size_t pattern_rank, std::index_sequence<PatternRank...>) {
  if (pattern_rank >= sizeof...(PatternRank)) pattern_rank_out_of_range();
  ((pattern_rank == PatternRank
        ? (IsMinimum ? invalid_pattern<rank_reason<"Wrong shape: the tensor has rank ", TensorRank,
                                                   " but the left side of the pattern needs at least ", PatternRank,
                                                   " dimensions">()>()
                     : invalid_pattern<rank_reason<"Wrong shape: the tensor has rank ", TensorRank,
                                                   " but the left side of the pattern has ", PatternRank, " dimensions">()>())
        : void()),
   ...);
}
template <std::size_t RequestedRank, std::size_t... PatternRank>
constexpr void report_output_rank(std::size_t pattern_rank, std::index_sequence<PatternRank...>) {
  if (pattern_rank >= sizeof...(PatternRank)) pattern_rank_out_of_range();
  ((pattern_rank == PatternRank ? invalid_pattern<rank_reason<"The requested result rank is ", RequestedRank,
                                                              " but the pattern gives rank ", PatternRank, "">()>()
                                : void()),
   ...);
}

template <std::size_t InputRank, std::size_t OutputRank>
constexpr void check_static_ranks(std::string_view text) {
  if constexpr (InputRank != dynamic_rank || OutputRank != dynamic_rank) {
    const ParseResult<ArrowPattern> parsed = parse_arrow_pattern(text);
    if (!parsed.ok()) return;  // reported by the pattern's own checks
    const ArrowPattern& pattern = parsed.value;
    std::size_t produced = dynamic_rank;
    if constexpr (InputRank != dynamic_rank) {
      if (!accepts_input_rank(pattern, InputRank)) {
        if (pattern.left.has_ellipsis) report_input_rank<InputRank, true>(fixed_input_dims(pattern), input_rank_values{});
        else report_input_rank<InputRank, false>(fixed_input_dims(pattern), input_rank_values{});
        return;
      }
      produced = output_rank(pattern, InputRank);
    } else if (!pattern.right.has_ellipsis) {
      produced = pattern.right.groups.size();
    }
    if constexpr (OutputRank != dynamic_rank)
      if (produced != dynamic_rank && produced != OutputRank)
        report_output_rank<OutputRank>(produced, output_rank_values{});
  }
}

/// The pattern argument of an operation on an adapted tensor: a literal is checked by the
/// compiler as for the built-in tensor, and also against the input's static rank and the
/// requested output rank.
template <Operation Op, std::size_t InputRank, std::size_t OutputRank, class... Facts>
class ranked_pattern {
 public:
  template <std::size_t N>
  EINOPS_LITERAL_CONSTEVAL ranked_pattern(const char (&literal)[N])  // NOLINT(google-explicit-constructor)
      : pattern_(literal) {
#if EINOPS_COMPILE_TIME_PATTERNS
    const fixed_string<N> copy(literal);  // see arrow_pattern's literal constructor
    check_static_ranks<InputRank, OutputRank>(copy.view());
#endif
  }
  ranked_pattern(std::string_view text) : pattern_(text) {}          // NOLINT(google-explicit-constructor)
  ranked_pattern(const std::string& text) : pattern_(text) {}        // NOLINT(google-explicit-constructor)
  ranked_pattern(runtime_pattern pattern) : pattern_(pattern) {}     // NOLINT(google-explicit-constructor)

  PatternRef ref() const { return pattern_.ref(); }
  std::string_view text() const { return pattern_.text(); }

 private:
  arrow_pattern<Op, Facts...> pattern_;
};

template <Operation Op, class X, std::size_t OutputRank, class... Facts>
using adapted_pattern = std::type_identity_t<ranked_pattern<Op, adapted_input<X>::rank, OutputRank, Facts...>>;

/// The output rank of the template pattern P for an input of `InputRank`: a constant when the
/// input rank is one, or when the right side has no ellipsis; dynamic_rank otherwise (and when
/// the input rank does not fit, which the pattern's check reports).
template <fixed_string P, std::size_t InputRank>
constexpr std::size_t template_pattern_output_rank() {
  const ParseResult<ArrowPattern> parsed = read_text<P>([](std::string_view text) { return parse_arrow_pattern(text); });
  if (!parsed.ok()) return dynamic_rank;
  if (InputRank != dynamic_rank)
    return accepts_input_rank(parsed.value, InputRank) ? output_rank(parsed.value, InputRank) : dynamic_rank;
  return parsed.value.right.has_ellipsis ? dynamic_rank : parsed.value.right.groups.size();
}

// ---- running an operation ----------------------------------------------------------------------

/// A library's own ops, driven by einops' recipe.
template <class X>
X apply_ops(Operation operation, std::optional<std::string_view> reduction, const X& x, PatternRef pattern,
            const AxisLengths& lengths) {
  using Traits = tensor_traits<X>;
  const auto shape_range = Traits::shape(x);
  const Shape shape(std::ranges::begin(shape_range), std::ranges::end(shape_range));
  std::optional<DType> dtype;
  if constexpr (requires { requires Element<traits_value_t<X>>; }) dtype = dtype_v<traits_value_t<X>>;
  const OpsRecipe recipe = ops_recipe(operation, reduction, shape, dtype, pattern, lengths);
  X y = recipe.elementary_shape == shape ? x : X(Traits::reshape(x, recipe.elementary_shape));
  if (recipe.reduction) y = Traits::reduce(y, *recipe.reduction, recipe.reduced_axes);
  if (!recipe.permutation.empty()) y = Traits::permute(y, recipe.permutation);
  if (!recipe.broadcast_shape.empty()) {
    y = Traits::reshape(y, recipe.expanded_shape);
    y = Traits::broadcast(y, recipe.broadcast_shape);
  }
  if (recipe.output_shape != recipe.broadcast_shape || recipe.broadcast_shape.empty()) y = Traits::reshape(y, recipe.output_shape);
  return y;
}

/// A list for a library's own ops: each tensor gets a leading axis of 1, then one concatenation.
template <class X>
X stack_with_ops(const std::vector<X>& xs, std::string_view operation, std::string_view pattern) {
  using Traits = tensor_traits<X>;
  if (xs.empty())
    throw_call_error(operation, pattern, "", kEmptyListReason);
  std::vector<X> lifted;
  lifted.reserve(xs.size());
  for (const X& x : xs) {
    const auto shape_range = Traits::shape(x);
    Shape shape{1};
    shape.insert(shape.end(), std::ranges::begin(shape_range), std::ranges::end(shape_range));
    lifted.push_back(Traits::reshape(x, shape));
  }
  return Traits::concatenate(std::span<const X>(lifted), std::int64_t{0});
}

/// rearrange/reduce/repeat on an adapted input. The result has X's family when `Rank` is known
/// or X's rank is dynamic (element type U; void: X's), else it is built-in: an einops::Tensor,
/// or for reduce without an element type an AnyTensor holding numpy's result dtype.
template <Operation Op, std::size_t Rank, class U, class X>
auto run_adapted(std::optional<std::string_view> reduction, const X& x, PatternRef pattern,
                 const AxisLengths& lengths) {
  using Input = adapted_input<X>;
  using Tensor = typename Input::tensor;
  const std::string_view label = Op == Operation::reduce && reduction ? *reduction : operation_name(Op);
  if constexpr (!StridedTensor<Tensor>) {
    Tensor result = [&] {
      if constexpr (Input::is_list) {
        static_assert(requires(std::span<const Tensor> parts) { tensor_traits<Tensor>::concatenate(parts, std::int64_t{0}); },
                      "einops: a list input needs tensor_traits<X>::concatenate(std::span<const X>, axis)");
        return apply_ops(Op, reduction, stack_with_ops(x, label, pattern.text), pattern, lengths);
      } else {
        return apply_ops(Op, reduction, x, pattern, lengths);
      }
    }();
    if constexpr (Rank != dynamic_rank) {
      const auto shape = tensor_traits<Tensor>::shape(result);
      if (static_cast<std::size_t>(std::ranges::size(shape)) != Rank)
        fail_result_rank(label, pattern.text, Shape(std::ranges::begin(shape), std::ranges::end(shape)), Rank);
    }
    return result;
  } else {
    using Element = std::conditional_t<std::is_void_v<U>, traits_value_t<Tensor>, U>;
    constexpr bool in_family = result_in_family<Tensor, Element, Rank>;
    constexpr bool any_result = !in_family && Op == Operation::reduce && std::is_void_v<U> && Rank == dynamic_rank;
    const std::string_view ask = Rank != dynamic_rank ? kAskForRank : kAskForElement;
    if constexpr (Input::is_list) {
      std::vector<AnyTensor> views;
      views.reserve(x.size());
      for (const Tensor& item : x) views.push_back(view(item));
      const std::span<const AnyTensor> list(views);
      AnyTensor y;
      if constexpr (Op == Operation::rearrange) y = rearrange(list, pattern, lengths);
      else if constexpr (Op == Operation::repeat) y = repeat(list, pattern, lengths);
      else y = reduce(list, pattern, *reduction, lengths);
      if constexpr (any_result) return y;
      else return result_from<Tensor, Element, Rank>(y, label, pattern.text);
    } else {
      const BorrowedTensor in = borrow(x);
      const PlannedCall call(Op, reduction, in.ref(), pattern, lengths);
      if constexpr (any_result) {
        return call.result();  // as for the built-in tensor: a view of x when no element moves
      } else {
        call.expect_result(Rank, dtype_v<Element>, ask);
        if constexpr (!in_family) {
          return call.result().template as<Element>();
        } else {
          auto result = make_result<Tensor, Element, Rank>(call.output_shape());
          call.write_into(borrow_writable(result).ref());
          return result;
        }
      }
    }
  }
}

template <class X>
concept strided_single = StridedTensor<X> || (TensorInput<X> && !list_input<X>);

}  // namespace detail

// ---- rearrange ---------------------------------------------------------------------------------
// Each operation comes in three spellings (the result type: see the top of this file), each with
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

// ---- pack and unpack -----------------------------------------------------------------------------

namespace detail {

template <std::size_t Rank, class X>
auto run_pack(const std::vector<X>& xs, std::string_view pattern) {
  if constexpr (StridedTensor<X>) {
    using T = traits_value_t<X>;
    std::vector<AnyTensor> views;
    views.reserve(xs.size());
    for (const X& x : xs) views.push_back(view(x));
    Packed<AnyTensor> packed = pack(std::span<const AnyTensor>(views), pattern);
    auto tensor = result_from<X, T, Rank>(packed.tensor, "pack", pattern);
    return Packed<decltype(tensor)>{std::move(tensor), std::move(packed.packed_shapes)};
  } else {
    using Traits = tensor_traits<X>;
    std::vector<Shape> shapes;
    shapes.reserve(xs.size());
    for (const X& x : xs) {
      const auto shape = Traits::shape(x);
      shapes.emplace_back(std::ranges::begin(shape), std::ranges::end(shape));
    }
    OpsPackLayout layout = ops_pack_layout(shapes, pattern);
    std::vector<X> flattened;
    flattened.reserve(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) flattened.push_back(Traits::reshape(xs[i], layout.flattened_shapes[i]));
    X tensor = Traits::concatenate(std::span<const X>(flattened), static_cast<std::int64_t>(layout.axis));
    if constexpr (Rank != dynamic_rank) {
      const auto shape = Traits::shape(tensor);
      if (static_cast<std::size_t>(std::ranges::size(shape)) != Rank)
        fail_result_rank("pack", pattern, Shape(std::ranges::begin(shape), std::ranges::end(shape)), Rank);
    }
    return Packed<X>{std::move(tensor), std::move(layout.packed_shapes)};
  }
}

template <std::size_t Rank, class X>
auto run_unpack(const X& packed, const std::vector<Shape>& packed_shapes, std::string_view pattern) {
  if constexpr (StridedTensor<X>) {
    using T = traits_value_t<X>;
    const BorrowedTensor memory = borrow(packed);
    const std::vector<AnyTensor> parts = unpack(memory.alias(), packed_shapes, pattern);
    using Part = decltype(result_from<X, T, Rank>(parts.front(), "unpack", pattern));
    std::vector<Part> typed;
    typed.reserve(parts.size());
    // Built-in parts are views of x's memory (as einops' parts are views); parts of x's family are copies.
    for (const AnyTensor& part : parts) typed.push_back(result_from<X, T, Rank>(part, "unpack", pattern));
    return typed;
  } else {
    using Traits = tensor_traits<X>;
    const auto shape_range = Traits::shape(packed);
    const Shape shape(std::ranges::begin(shape_range), std::ranges::end(shape_range));
    const OpsUnpackLayout layout = ops_unpack_layout(shape, packed_shapes, pattern);
    std::vector<X> parts;
    parts.reserve(layout.parts.size());
    for (const OpsUnpackPart& part : layout.parts) {
      if (Rank != dynamic_rank && part.shape.size() != Rank) fail_result_rank("unpack", pattern, part.shape, Rank);
      parts.push_back(Traits::reshape(Traits::slice(packed, static_cast<std::int64_t>(layout.axis), part.begin, part.end),
                                      part.shape));
    }
    return parts;
  }
}

template <fixed_string P>
constexpr std::size_t pack_pattern_rank() {
  const ParseResult<PackPattern> parsed = read_text<P>([](std::string_view text) { return parse_pack_pattern(text); });
  return parsed.ok() ? parsed.value.before.size() + parsed.value.after.size() + 1 : dynamic_rank;
}

}  // namespace detail

/// einops.pack of adapted tensors of one type; see pack.hpp. A mix of types packs as built-in
/// views: `einops::pack({einops::view(a), einops::view(b)}, pattern)`.
template <AdaptedTensor X>
auto pack(const std::vector<X>& tensors, std::string_view pattern) {
  return detail::run_pack<dynamic_rank>(tensors, pattern);
}
template <std::size_t M, AdaptedTensor X>
auto pack(const std::vector<X>& tensors, std::string_view pattern) {
  return detail::run_pack<M>(tensors, pattern);
}
/// The packed tensor's rank is the pattern's axes plus one.
template <fixed_string P, AdaptedTensor X>
auto pack(const std::vector<X>& tensors) {
  static_assert(detail::pack_pattern_rank<P>() != dynamic_rank,
                "einops: the pack pattern does not parse (pass it as a run-time string to see why)");
  return detail::run_pack<detail::pack_pattern_rank<P>()>(tensors, P.view());
}

/// einops.unpack of an adapted tensor. Without M, the parts of a static-rank type are built-in
/// views of its memory (no copy); with M every part must have rank M.
template <AdaptedTensor X>
auto unpack(const X& packed, const std::vector<Shape>& packed_shapes, std::string_view pattern) {
  return detail::run_unpack<dynamic_rank>(packed, packed_shapes, pattern);
}
template <std::size_t M, AdaptedTensor X>
auto unpack(const X& packed, const std::vector<Shape>& packed_shapes, std::string_view pattern) {
  return detail::run_unpack<M>(packed, packed_shapes, pattern);
}

// ---- einsum ------------------------------------------------------------------------------------

namespace detail {

template <class X>
concept einsum_operand_of_any_kind = AdaptedTensor<X> || einsum_operand<X>::is_tensor;

/// The operands of einsum(args..., pattern): at least one adapted tensor; the first sets the
/// result's family.
template <class Tuple, std::size_t... I>
constexpr bool operands_are_tensors(std::index_sequence<I...>) {
  return (einsum_operand_of_any_kind<std::remove_cvref_t<std::tuple_element_t<I, Tuple>>> && ...);
}
template <class... Args>
concept AdaptedEinsumArguments =
    sizeof...(Args) >= 2 &&
    std::convertible_to<const std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>&, std::string_view> &&
    operands_are_tensors<std::tuple<Args...>>(std::make_index_sequence<sizeof...(Args) - 1>{}) &&
    (AdaptedTensor<std::remove_cvref_t<Args>> || ...);

template <class First, class... Rest>
struct first_adapted {
  using type = std::conditional_t<AdaptedTensor<First>, First, typename first_adapted<Rest...>::type>;
};
template <class Last>
struct first_adapted<Last> {
  using type = Last;
};

template <std::size_t Rank, class... Args>
auto run_einsum(const Args&... args) {
  const auto arguments = std::tuple<const Args&...>(args...);
  constexpr std::size_t count = sizeof...(Args) - 1;
  const std::string_view pattern(std::get<count>(arguments));
  using Family = typename first_adapted<std::remove_cvref_t<Args>...>::type;
  if constexpr (StridedTensor<Family>) {
    const auto operands = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<AnyTensor, count>{borrow(std::get<I>(arguments)).alias()...};
    }(std::make_index_sequence<count>{});
    const AnyTensor y = einsum(std::span<const AnyTensor>(operands), pattern);
    return result_from<Family, traits_value_t<Family>, Rank>(y, "einsum", pattern);
  } else {
    const auto operands = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::array<Family, count>{Family(std::get<I>(arguments))...};
    }(std::make_index_sequence<count>{});
    Family y = tensor_traits<Family>::einsum(compact_einsum_pattern(pattern), std::span<const Family>(operands));
    if constexpr (Rank != dynamic_rank) {
      const auto shape = tensor_traits<Family>::shape(y);
      if (static_cast<std::size_t>(std::ranges::size(shape)) != Rank)
        fail_result_rank("einsum", pattern, Shape(std::ranges::begin(shape), std::ranges::end(shape)), Rank);
    }
    return y;
  }
}

template <fixed_string P>
constexpr std::size_t einsum_output_rank() {
  const ParseResult<EinsumPattern> parsed = read_text<P>([](std::string_view text) { return parse_einsum_pattern(text); });
  if (!parsed.ok() || parsed.value.output.has_ellipsis) return dynamic_rank;
  return parsed.value.output.groups.size();
}

}  // namespace detail

/// einops.einsum(a, b, ..., pattern) where an operand is an adapted tensor: the result has the
/// family of the first one (for a static-rank family only with M, else a built-in tensor).
template <class... Args>
  requires detail::AdaptedEinsumArguments<Args...>
auto einsum(const Args&... args) {
  return detail::run_einsum<dynamic_rank>(args...);
}
template <std::size_t M, class... Args>
  requires detail::AdaptedEinsumArguments<Args...>
auto einsum(const Args&... args) {
  return detail::run_einsum<M>(args...);
}
/// The pattern as a template argument; without an ellipsis in the output its rank is known.
template <fixed_string P, AdaptedTensor... Xs>
  requires(sizeof...(Xs) > 0)
auto einsum(const Xs&... operands) {
  static_assert(read_text<P>([](std::string_view text) { return parse_einsum_pattern(text); }).ok(),
                "einops: the einsum pattern does not parse (pass it as a run-time string to see why)");
  return detail::run_einsum<detail::einsum_output_rank<P>()>(operands..., P.view());
}

// ---- parse_shape, and converting between types ------------------------------------------------------

/// einops.parse_shape on an adapted tensor.
template <AdaptedTensor X>
  requires(!requires(const X& x) {
    { x.shape() } -> std::convertible_to<std::span<const std::int64_t>>;
  })
ParsedShape parse_shape(const X& x, std::string_view pattern) {
  const auto shape = tensor_traits<X>::shape(x);
  const Shape lengths(std::ranges::begin(shape), std::ranges::end(shape));
  return parse_shape(std::span<const std::int64_t>(lengths), pattern);
}

/// A copy of `x` (any strided or built-in tensor) as a `Target`, e.g.
/// `einops::copy_to<Eigen::Tensor<float, 3>>(packed.tensor)`. Element types must agree.
template <class Target, class Source>
  requires StridedTensor<Target> && (StridedTensor<Source> || detail::strided_single<Source>)
Target copy_to(const Source& x) {
  using T = detail::traits_value_t<Target>;
  constexpr std::size_t rank = static_rank_of<Target>();
  static_assert(detail::makes_results<Target, T, rank> &&
                    std::is_same_v<decltype(tensor_traits<Target>::template make<T, rank>(std::declval<std::span<const std::int64_t>>())), Target>,
                "einops::copy_to: tensor_traits<Target>::make<value_type, rank> must make a Target");
  const detail::BorrowedTensor memory = detail::borrow(x);
  return detail::result_from<Target, T, rank>(memory.alias(), "copy_to", "");
}

}  // namespace einops
