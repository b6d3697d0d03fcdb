// check_shape: asserts a tensor's shape against one side of a pattern and returns the named
// lengths, so that one call both checks and binds (einops issue #168).
//
//   using namespace einops::literals;
//   const einops::ParsedShape s = einops::check_shape(x, "b t (h p) 3", "t"_ax = T, "p"_ax = 4);
//   s["h"];                                                  // inferred: dim 2 / 4
//   einops::check_shape(x, "b _ ... c", {{"c", 3}});         // lengths as AxisLengths
//
// The pattern is one side of an einops pattern: names, `_` for any length, anonymous lengths
// (`3`; `1` and `()` for length 1), compositions `(h p)` whose product must equal the dimension
// (one unknown axis per composition is inferred), and one `...` for any number of dimensions.
// A literal is checked by the compiler (with the names given as `"t"_ax = T`, and the rank of a
// static-rank input, see einops/backend/check_shape.hpp); a run-time string on first use.
//
// A shape that does not fit throws EinopsError naming every dimension that fails: einops'
// sentence, then the input dimension, the group as written, and the numbers, one per line:
//   Shape mismatch, 5 != 7 (input dim 1, group t)
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>

#include "einops/export.hpp"
#include "einops/ops.hpp"
#include "einops/parse_shape.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/plan.hpp"

namespace einops {
namespace detail {
/// The work of every check_shape overload, compiled once (src/check_shape.cpp).
EINOPS_API ParsedShape check_shape(std::span<const std::int64_t> shape, const PatternRef& pattern,
                                   const AxisLengths& lengths);
}  // namespace detail

/// check_shape on a shape.
inline ParsedShape check_shape(std::span<const std::int64_t> shape, const check_shape_pattern<>& pattern,
                               const AxisLengths& lengths) {
  return detail::check_shape(shape, pattern.ref(), lengths);
}
template <fixed_string... Names>
ParsedShape check_shape(std::span<const std::int64_t> shape,
                        const std::type_identity_t<check_shape_pattern<given_lengths<Names...>>>& pattern,
                        axis_length<Names>... lengths) {
  return detail::check_shape(shape, pattern.ref(), detail::to_axis_lengths(lengths...));
}

/// check_shape on any tensor of this library (Tensor, TensorView, AnyTensor).
template <class TensorLike>
  requires requires(const TensorLike& x) {
    { x.shape() } -> std::convertible_to<std::span<const std::int64_t>>;
  }
ParsedShape check_shape(const TensorLike& x, const check_shape_pattern<>& pattern, const AxisLengths& lengths) {
  return detail::check_shape(std::span<const std::int64_t>(x.shape()), pattern.ref(), lengths);
}
template <class TensorLike, fixed_string... Names>
  requires requires(const TensorLike& x) {
    { x.shape() } -> std::convertible_to<std::span<const std::int64_t>>;
  }
ParsedShape check_shape(const TensorLike& x,
                        const std::type_identity_t<check_shape_pattern<given_lengths<Names...>>>& pattern,
                        axis_length<Names>... lengths) {
  return detail::check_shape(std::span<const std::int64_t>(x.shape()), pattern.ref(),
                             detail::to_axis_lengths(lengths...));
}

}  // namespace einops
