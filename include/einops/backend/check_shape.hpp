// check_shape on an adapted tensor (Eigen, xtensor, LibTorch, a type of your own): a literal
// pattern is also checked against the tensor's static rank, during compilation.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "einops/backend/concepts.hpp"
#include "einops/backend/static_rank.hpp"
#include "einops/check_shape.hpp"

namespace einops {
namespace detail {

/// check_shape's grammar, and a static input rank (`Rank`; dynamic_rank: none) that a literal
/// must fit: the diagnostic names both ranks.
template <std::size_t Rank>
struct ranked_check_shape_grammar {
  template <class... Facts>
  static constexpr void check_literal(std::string_view text) {
    if constexpr (Rank != dynamic_rank) check_shape_grammar::check_literal<Facts..., static_rank<Rank>>(text);
    else check_shape_grammar::check_literal<Facts...>(text);
  }
};
template <class X, class... Facts>
using adapted_check_shape_pattern =
    std::type_identity_t<pattern_arg<ranked_check_shape_grammar<static_rank_of<X>()>, Facts...>>;

template <class X>
ParsedShape check_adapted_shape(const X& x, const PatternRef& pattern, const AxisLengths& lengths) {
  const OpsShape shape(x);
  return check_shape(shape.lengths(), pattern, lengths);
}

}  // namespace detail

/// check_shape on an adapted tensor (see einops/check_shape.hpp).
template <AdaptedTensor X>
  requires(!requires(const X& x) {
    { x.shape() } -> std::convertible_to<std::span<const std::int64_t>>;
  })
ParsedShape check_shape(const X& x, const detail::adapted_check_shape_pattern<X>& pattern, const AxisLengths& lengths) {
  return detail::check_adapted_shape(x, pattern.ref(), lengths);
}
template <AdaptedTensor X, fixed_string... Names>
  requires(!requires(const X& x) {
    { x.shape() } -> std::convertible_to<std::span<const std::int64_t>>;
  })
ParsedShape check_shape(const X& x, const detail::adapted_check_shape_pattern<X, given_lengths<Names...>>& pattern,
                        axis_length<Names>... lengths) {
  return detail::check_adapted_shape(x, pattern.ref(), detail::to_axis_lengths(lengths...));
}

}  // namespace einops
