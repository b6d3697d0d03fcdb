// How an operation on an adapted tensor borrows its memory, which type its result has (the
// caller's family, or a built-in tensor), and what counts as one input (a tensor or a list).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "einops/backend/concepts.hpp"
#include "einops/ops.hpp"

namespace einops {

namespace detail {

template <class X>
TensorRefWithExtents borrow(const X& x) {
  if constexpr (TensorInput<X>) {
    const TensorRef ref = input_traits<X>::single(x);
    return TensorRefWithExtents(ref.dtype, ref.data, ref.shape, ref.strides);
  } else {
    return TensorRefWithExtents(strided_dtype(x), tensor_traits<X>::data(x), tensor_traits<X>::shape(x),
                                tensor_traits<X>::strides(x));
  }
}

/// Writable memory of `x` (a result just made, or the output of a *_into call).
template <class X>
TensorRefWithExtents borrow_writable(X& x) {
  if constexpr (TensorInput<std::remove_const_t<X>>) {
    return borrow(x);
  } else {
    using Traits = tensor_traits<std::remove_const_t<X>>;
    static_assert(WritableTensor<X>,
                  "einops: this tensor's memory is read-only (tensor_traits<X>::data gives a const pointer)");
    return TensorRefWithExtents(strided_dtype(x), Traits::data(x), Traits::shape(x), Traits::strides(x));
  }
}

// ---- which type a result has --------------------------------------------------------------------

/// True when the family of X makes results of element type U and rank `Rank`.
template <class X, class U, std::size_t Rank>
concept makes_results = requires(std::span<const std::int64_t> shape) {
  { tensor_traits<X>::template make<U, Rank>(shape) } -> WritableTensor;
};

/// True when the family of X, whose element type is known at run time, makes results of any
/// element type it can hold: `tensor_traits<X>::make(einops::DType, shape)`.
template <class X>
concept makes_runtime_results = requires(DType dtype, std::span<const std::int64_t> shape) {
  { tensor_traits<X>::make(dtype, shape) } -> WritableTensor;
};

/// Results in X's family: with rank `Rank` (dynamic_rank when unknown). A static-rank family
/// cannot hold a result of unknown rank, and a family without `make` makes none: both give
/// built-in tensors.
template <class X, class U, std::size_t Rank>
inline constexpr bool result_in_family =
    (Rank != dynamic_rank || static_rank_of<X>() == dynamic_rank) && makes_results<X, U, Rank>;

template <class X, class U, std::size_t Rank>
auto make_result(std::span<const std::int64_t> shape) {
  if constexpr (result_in_family<X, U, Rank>) return tensor_traits<X>::template make<U, Rank>(shape);
  else return Tensor<U>(Shape(shape.begin(), shape.end()));
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
    copy_into(y, borrow_writable(result));
    return result;
  }
}

/// Writable memory of a result just made for `shape` by a family whose element type is known at
/// run time. Such a family may store a result in another shape with the same elements (OpenCV
/// keeps rank 1 as n x 1, and `h w 1` as a single-channel matrix `h w`): that result must then
/// be row-major contiguous, and is written in row-major order.
template <class X>
TensorRefWithExtents result_memory(X& result, std::span<const std::int64_t> shape) {
  const TensorRefWithExtents memory = borrow_writable(result);
  if (std::ranges::equal(memory.shape, shape)) return memory;
  if (!is_row_major_contiguous(memory.shape, memory.strides) || element_count(memory.shape) != element_count(shape))
    throw EinopsError("einops: tensor_traits::make gave a result of shape " + format_shape(memory.shape) +
                      " for a result of shape " + format_shape(shape) +
                      "; a result of another shape must be row-major contiguous with as many elements");
  return TensorRefWithExtents(memory.dtype, memory.data, shape, row_major_strides(shape));
}

/// A new result of X's family, whose element type is known at run time: `make(dtype, shape)`.
/// `make` refuses an element type the family cannot hold with an EinopsError, which then names
/// the call.
template <class X>
auto make_runtime_result(DType dtype, std::span<const std::int64_t> shape, std::string_view operation,
                         std::string_view pattern) {
  try {
    return tensor_traits<X>::make(dtype, shape);
  } catch (const EinopsError& error) {
    throw_call_error(operation, pattern, "", error.what());
  }
}

/// A built-in result `y` as a result of X's family when X's element type is known at run time
/// (one copy; without `make`, `y` itself), checked against `Rank` and, when the caller named
/// one, the element type `requested`.
template <class X, std::size_t Rank>
auto runtime_result_from(const AnyTensor& y, std::optional<DType> requested, std::string_view operation,
                         std::string_view pattern) {
  expect_result_of(y, Rank, requested.value_or(y.dtype()), operation, pattern,
                   Rank != dynamic_rank ? kAskForRank : kAskForElement);
  if constexpr (!makes_runtime_results<X>) {
    return y;
  } else {
    auto result = make_runtime_result<X>(y.dtype(), y.shape(), operation, pattern);
    copy_into(y, result_memory(result, y.shape()));
    return result;
  }
}

/// `y` as a result of X's family, whether X's element type is a constant (`T`) or known at run time.
template <class X, std::size_t Rank>
auto family_result_from(const AnyTensor& y, std::string_view operation, std::string_view pattern) {
  if constexpr (runtime_typed_memory<X>) return runtime_result_from<X, Rank>(y, std::nullopt, operation, pattern);
  else return result_from<X, traits_value_t<X>, Rank>(y, operation, pattern);
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

}  // namespace einops
