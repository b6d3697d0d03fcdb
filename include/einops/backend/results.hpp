// How an operation on an adapted tensor borrows its memory, which type its result has (the
// caller's family, or a built-in tensor), and what counts as one input (a tensor or a list).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "einops/backend/concepts.hpp"
#include "einops/ops.hpp"

namespace einops {

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

}  // namespace einops
