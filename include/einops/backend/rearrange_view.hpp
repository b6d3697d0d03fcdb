// rearrange_view (einops/rearrange_view.hpp) on a strided tensor of another library (Eigen,
// xtensor, a user's StridedTensor): a built-in TensorView of the tensor's own memory, since those
// types cannot hold arbitrary strides (an Eigen::TensorMap is dense, an xt::xarray owns its
// memory). Writable when the tensor is (TensorView<T>), else a TensorView<const T>.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "einops/backend/concepts.hpp"
#include "einops/backend/results.hpp"
#include "einops/backend/static_rank.hpp"
#include "einops/rearrange_view.hpp"

namespace einops {
namespace detail {

template <class X>
concept adapted_strided = StridedTensor<std::remove_cvref_t<X>> && AdaptedTensor<std::remove_cvref_t<X>>;

/// The element type of the view: const when `x` gives only read access.
template <class X>
using view_element_t = std::remove_pointer_t<decltype(tensor_traits<std::remove_cvref_t<X>>::data(std::declval<X&>()))>;

template <class X>
TensorView<view_element_t<X>> adapted_rearrange_view(X& x, const PatternRef& pattern, const AxisLengths& lengths) {
  const TensorRefWithExtents in = borrow(x);
  ViewLayout layout = rearrange_view_layout(in.shape, in.strides, pattern, lengths);
  return TensorView<view_element_t<X>>(tensor_traits<std::remove_cvref_t<X>>::data(x), std::move(layout.shape),
                                       std::move(layout.strides));
}

}  // namespace detail

/// rearrange_view of a strided tensor of another library: a literal pattern is checked against the
/// tensor's static rank too, as rearrange's.
template <class X, fixed_string... Names>
  requires detail::adapted_strided<X> && std::is_lvalue_reference_v<X>  // a view of a temporary would dangle
TensorView<detail::view_element_t<X>> rearrange_view(
    X&& x,
    const detail::adapted_pattern<Operation::rearrange, std::remove_cvref_t<X>, dynamic_rank, given_lengths<Names...>>&
        pattern,
    axis_length<Names>... lengths) {
  return detail::adapted_rearrange_view(x, pattern.ref(), detail::to_axis_lengths(lengths...));
}
template <class X>
  requires detail::adapted_strided<X> && std::is_lvalue_reference_v<X>  // a view of a temporary would dangle
TensorView<detail::view_element_t<X>> rearrange_view(
    X&& x, const detail::adapted_pattern<Operation::rearrange, std::remove_cvref_t<X>, dynamic_rank>& pattern,
    const AxisLengths& lengths) {
  return detail::adapted_rearrange_view(x, pattern.ref(), lengths);
}

}  // namespace einops
