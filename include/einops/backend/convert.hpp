// parse_shape on an adapted tensor, and copies between tensor types (copy_to).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

#include "einops/backend/results.hpp"
#include "einops/parse_shape.hpp"

namespace einops {

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

namespace detail {

/// copy_to for a Target whose element type is a constant: x's must be the same.
template <class Target, class Source>
Target copy_to_typed(const Source& x) {
  using T = traits_value_t<Target>;
  constexpr std::size_t rank = static_rank_of<Target>();
  static_assert(makes_results<Target, T, rank> && std::is_same_v<decltype(tensor_traits<Target>::template make<T, rank>(
                                                                     std::declval<std::span<const std::int64_t>>())),
                                                                 Target>,
                "einops::copy_to: tensor_traits<Target>::make<value_type, rank> must make a Target");
  const TensorRefWithExtents memory = borrow(x);
  return result_from<Target, T, rank>(alias(memory), "copy_to", "");
}

}  // namespace detail

/// A copy of `x` (any strided or built-in tensor) as a `Target`, e.g.
/// `einops::copy_to<Eigen::Tensor<float, 3>>(packed.tensor)`. Element types must agree; a Target
/// whose element type is known at run time (cv::Mat) takes x's.
template <class Target, class Source>
  requires StridedTensor<Target> && (StridedTensor<Source> || detail::strided_single<Source>)
Target copy_to(const Source& x) {
  if constexpr (detail::runtime_typed_memory<Target>) {
    static_assert(detail::makes_runtime_results<Target>,
                  "einops::copy_to: tensor_traits<Target>::make(einops::DType, shape) must make a Target");
    const detail::TensorRefWithExtents memory = detail::borrow(x);
    return Target(
        detail::runtime_result_from<Target, dynamic_rank>(detail::alias(memory), std::nullopt, "copy_to", ""));
  } else {
    return detail::copy_to_typed<Target>(x);
  }
}

}  // namespace einops
