// What makes a tensor type an einops backend: the tensor_traits specialisation, the concepts it
// satisfies (StridedTensor, WritableTensor, TensorOps), and a strided tensor seen as a built-in view.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>  // std::ranges::begin/end/size (<ranges> itself costs a user 0.5 s per file)
#include <span>
#include <type_traits>
#include <vector>

#include "einops/detail/adapter_call.hpp"
#include "einops/dtype.hpp"
#include "einops/tensor.hpp"

namespace einops {

/// Specialise for a tensor type to make every einops operation accept it (see einops/backend.hpp).
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

}  // namespace einops
