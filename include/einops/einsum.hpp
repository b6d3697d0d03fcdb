// einops.einsum on the built-in tensor: tensors first, the pattern last, axis names of any length.
//
//   auto c = einops::einsum(a, b, "batch i k, batch k j -> batch i j");
//   auto t = einops::einsum(m, "i i ->");                       // trace
//   auto y = einops::einsum(w, x, "out in, ... in -> ... out");  // ellipsis broadcasting
//
// Names may repeat within an operand (diagonals, traces), names missing from the output are
// summed, `_` is a name, and the ellipsis broadcasts as in numpy (as do axes of length 1).
// Operands are contracted pairwise in a greedy order, each pair as a (batched) matrix product
// through BLAS for float32/float64; every element type of the library works.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "einops/dtype.hpp"
#include "einops/export.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/tensor.hpp"

namespace einops {

// ---- run-time typed core (AnyTensor) -----------------------------------------------------------

/// einops.einsum over any number of operands (one or more) of one dtype; the result has that dtype.
EINOPS_API AnyTensor einsum(std::span<const AnyTensor> operands, einsum_pattern<> pattern);

/// The same, writing into a caller-provided tensor (no allocation for the result). `out` must
/// have the result's shape and dtype, may have any strides, and must not overlap an operand.
EINOPS_API void einsum_into(std::span<const AnyTensor> operands, const AnyTensor& out, einsum_pattern<> pattern);
inline void einsum_into(std::initializer_list<AnyTensor> operands, const AnyTensor& out, einsum_pattern<> pattern) {
  einsum_into(std::span<const AnyTensor>(operands.begin(), operands.size()), out, pattern);
}

namespace detail {

template <class X>
struct einsum_operand {
  static constexpr bool is_tensor = false;
  using element = void;
};
template <Element T>
struct einsum_operand<Tensor<T>> {
  static constexpr bool is_tensor = true;
  using element = T;
};
template <Element T>
struct einsum_operand<TensorView<T>> {
  static constexpr bool is_tensor = true;
  using element = std::remove_const_t<T>;
};
template <>
struct einsum_operand<AnyTensor> {
  static constexpr bool is_tensor = true;
  using element = void;  // known at run time only
};

/// The element type shared by all operands, or void (then the result is an AnyTensor).
template <class First, class... Rest>
struct einsum_element {
  using type = std::conditional_t<
      (std::is_same_v<typename einsum_operand<First>::element, typename einsum_operand<Rest>::element> && ...),
      typename einsum_operand<First>::element, void>;
};

/// The operands of einsum(args...): every argument but the last (the pattern).
template <class Index, class... Args>
struct einsum_operands;
template <std::size_t... Index, class... Args>
struct einsum_operands<std::index_sequence<Index...>, Args...> {
  template <std::size_t I>
  using at = std::remove_cvref_t<std::tuple_element_t<I, std::tuple<Args...>>>;
  static constexpr bool all_tensors = (einsum_operand<at<Index>>::is_tensor && ...);
  using element = typename einsum_element<at<Index>...>::type;
};
template <class... Args>
using einsum_operands_of = einsum_operands<std::make_index_sequence<sizeof...(Args) - 1>, Args...>;

template <class X>
concept EinsumOperand = einsum_operand<std::remove_cvref_t<X>>::is_tensor;

template <class... Args>
concept EinsumArguments =
    sizeof...(Args) >= 2 &&
    std::convertible_to<const std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>&, std::string_view> &&
    einsum_operands_of<Args...>::all_tensors;

/// A Tensor<T> when every operand holds T, else an AnyTensor.
template <class... Xs>
auto einsum_of(std::string_view pattern, const Xs&... operands) {
  const std::array<AnyTensor, sizeof...(Xs)> any{AnyTensor(operands)...};
  AnyTensor result = einsum(std::span<const AnyTensor>(any), einsum_pattern<>(pattern));
  using T = typename einsum_element<Xs...>::type;
  if constexpr (std::is_void_v<T>) return result;
  else return result.template as<T>();
}

template <class Tuple, std::size_t... Index>
auto einsum_call(const Tuple& args, std::index_sequence<Index...>) {
  return einsum_of(std::string_view(std::get<sizeof...(Index)>(args)), std::get<Index>(args)...);
}

}  // namespace detail

/// einops.einsum(a, ..., pattern) with one to four operands: a literal pattern is checked by the
/// compiler, the number of operands included. The result is a Tensor<T> when every operand
/// holds T, else an AnyTensor.
template <detail::EinsumOperand A>
auto einsum(const A& a, einsum_pattern<1> pattern) {
  return detail::einsum_of(pattern.text(), a);
}
template <detail::EinsumOperand A, detail::EinsumOperand B>
auto einsum(const A& a, const B& b, einsum_pattern<2> pattern) {
  return detail::einsum_of(pattern.text(), a, b);
}
template <detail::EinsumOperand A, detail::EinsumOperand B, detail::EinsumOperand C>
auto einsum(const A& a, const B& b, const C& c, einsum_pattern<3> pattern) {
  return detail::einsum_of(pattern.text(), a, b, c);
}
template <detail::EinsumOperand A, detail::EinsumOperand B, detail::EinsumOperand C, detail::EinsumOperand D>
auto einsum(const A& a, const B& b, const C& c, const D& d, einsum_pattern<4> pattern) {
  return detail::einsum_of(pattern.text(), a, b, c, d);
}
/// Five operands and more: the pattern (a string) is checked at run time.
template <class... Args>
  requires detail::EinsumArguments<Args...> && (sizeof...(Args) > 5)
auto einsum(const Args&... args) {
  return detail::einsum_call(std::tuple<const Args&...>(args...), std::make_index_sequence<sizeof...(Args) - 1>{});
}

/// A run-time number of operands of one type.
template <Element T>
Tensor<T> einsum(const std::vector<Tensor<T>>& operands, einsum_pattern<> pattern) {
  const std::vector<AnyTensor> any(operands.begin(), operands.end());
  return einsum(std::span<const AnyTensor>(any), pattern).template as<T>();
}

}  // namespace einops
