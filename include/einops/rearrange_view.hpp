// rearrange_view: a rearrange that promises a view (einops #296's `view=True`). The result shares
// the input's memory for every pattern strides can express (splits, permutations, unit axes, and
// merges of axes whose strides continue each other); where only a copy could give the result, it
// throws EinopsError naming the axes that cannot be merged. It never copies.
//
//   einops::Tensor<float> x = einops::Tensor<float>::arange({2, 3, 4});
//   auto y = einops::rearrange_view(x, "b h w -> b (h w)");   // y.data() == x.data()
//   auto t = einops::rearrange_view(x, "b h w -> w h b");     // strides permuted, no copy
//   einops::rearrange_view(t, "w h b -> (w h) b");            // throws: w and h do not merge
//
// The pattern is checked as rearrange's (a literal by the compiler). The result type follows the
// input: a Tensor<T> shares (and keeps alive) the input's storage, a TensorView<T> views the same
// caller memory, an AnyTensor stays an AnyTensor. Writes through the result reach the input.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include "einops/export.hpp"
#include "einops/ops.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"

namespace einops {
namespace detail {

/// The shape and strides (in elements) of rearrange's result as a view of its input.
struct ViewLayout {
  Shape shape;
  Shape strides;
};

/// rearrange of a tensor of `shape` and `strides` as a view of its memory: every check of
/// rearrange, then the result's layout; throws EinopsError naming the axes that would need a copy.
EINOPS_API ViewLayout rearrange_view_layout(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                            const PatternRef& pattern, const AxisLengths& lengths);

/// rearrange_view on the borrowed input: an AnyTensor over the same memory (and storage).
EINOPS_API AnyTensor rearrange_view(const TensorRef& x, const PatternRef& pattern, const AxisLengths& lengths);

/// The result type of rearrange_view for each built-in input: the input's own kind.
template <class X>
struct view_result;
template <Element T>
struct view_result<Tensor<T>> {
  using type = Tensor<T>;
  static type typed(AnyTensor y) { return std::move(y).as<T>(); }
};
template <Element T>
struct view_result<TensorView<T>> {
  using type = TensorView<T>;
  static type typed(const AnyTensor& y) {
    return TensorView<T>(static_cast<T*>(y.data()), Shape(y.shape().begin(), y.shape().end()),
                         Shape(y.strides().begin(), y.strides().end()));
  }
};
template <>
struct view_result<AnyTensor> {
  using type = AnyTensor;
  static type typed(AnyTensor y) { return y; }
};

template <class X>
concept viewable_input = requires { typename view_result<X>::type; };

}  // namespace detail

/// einops.rearrange that returns a view of x's memory or throws EinopsError; it never copies.
template <detail::viewable_input X>
typename detail::view_result<X>::type rearrange_view(const X& x, const rearrange_pattern<>& pattern,
                                                     const AxisLengths& lengths) {
  return detail::view_result<X>::typed(detail::rearrange_view(detail::TensorRef(x), pattern.ref(), lengths));
}
template <detail::viewable_input X, fixed_string... Names>
typename detail::view_result<X>::type rearrange_view(
    const X& x, const std::type_identity_t<rearrange_pattern<given_lengths<Names...>>>& pattern,
    axis_length<Names>... lengths) {
  const AxisLengths given = detail::to_axis_lengths(lengths...);
  return detail::view_result<X>::typed(detail::rearrange_view(detail::TensorRef(x), pattern.ref(), given));
}

}  // namespace einops
