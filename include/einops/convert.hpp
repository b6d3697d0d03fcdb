// rearrange and repeat that write another element type than they read, optionally through a
// per-element affine map, in one pass (docs/preprocess.md):
//
//   // uint8 b h w c -> normalised float b c h w, per channel, into a preallocated tensor
//   einops::rearrange_into(images, blob, "b h w c -> b c h w",
//                          einops::affine<"c">{.scale = {1 / 58.4f, 1 / 57.1f, 1 / 57.4f},
//                                              .offset = {-2.12f, -2.04f, -1.80f}});
//   // the same, allocating: the output element type first
//   einops::Tensor<float> y = einops::rearrange<float>(images, "b h w c -> b c h w", einops::affine<>{.scale = {1 /
//   255.f}});
//   // float b c h w back to uint8 b h w c (rounded to nearest even, saturated)
//   einops::rearrange_into(blob, images, "b c h w -> b h w c", einops::affine<>{.scale = {255.f}});
//
// Per element, in float32 with each operation rounded once: out = Out(float(in) * scale + offset),
// or Out((float(in) + offset) * scale) with .offset_first. scale and offset hold one value, or one
// per position of the axis named by the template argument (any output axis, in any position).
// Out is float32, float16, bfloat16 (nearest even), or uint8/int8: NaN gives 0, other values
// round to nearest even and saturate at the type's limits. Inputs: uint8 int8 uint16 int16
// float16 bfloat16 float32. The same bits on every SIMD target and for any thread count.
// A literal pattern is checked during compilation, the affine axis too.
//
// The _into forms without a map also convert: an `out` of another element type receives the
// converted elements.
#pragma once

#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "einops/ops.hpp"

namespace einops {

/// out = in * scale + offset (or (in + offset) * scale), scale and offset either one value each
/// or one value per position of the output axis `Axis`.
template <fixed_string Axis = "">
struct affine {
  std::vector<float> scale = {1.0f};
  std::vector<float> offset = {0.0f};
  bool offset_first = false;
  /// The axis's name; a run-time pattern may name it here instead of in the template argument.
  std::string_view axis = Axis.view();
};

namespace detail {

/// What the core reads of a conversion: the output element type and the map.
struct ConvertRef {
  std::span<const float> scale;  // empty: no arithmetic
  std::span<const float> offset;
  bool offset_first = false;
  std::string_view axis;
  /// Optional: the map's axis read in this order (output position k reads input position
  /// axis_order[k]); the OpenCV adapter's swap_rb.
  std::span<const int> axis_order = {};

  template <fixed_string Axis>
  ConvertRef(const affine<Axis>& map)  // NOLINT(google-explicit-constructor)
      : scale(map.scale), offset(map.offset), offset_first(map.offset_first), axis(map.axis) {}
  ConvertRef() = default;
};

EINOPS_API void rearrange_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern,
                               const ConvertRef& map, const AxisLengths& lengths);
EINOPS_API void repeat_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern, const ConvertRef& map,
                            const AxisLengths& lengths);
/// A list input (stacked on a new leading axis, as einops does) into `out`, read in place.
EINOPS_API void rearrange_into(std::span<const TensorRef> xs, const TensorRef& out, const PatternRef& pattern,
                               const ConvertRef& map, const AxisLengths& lengths);
EINOPS_API AnyTensor rearrange(const TensorRef& x, DType out, const PatternRef& pattern, const ConvertRef& map,
                               const AxisLengths& lengths);
EINOPS_API AnyTensor rearrange(std::span<const TensorRef> xs, DType out, const PatternRef& pattern,
                               const ConvertRef& map, const AxisLengths& lengths);
EINOPS_API AnyTensor repeat(const TensorRef& x, DType out, const PatternRef& pattern, const ConvertRef& map,
                            const AxisLengths& lengths);
EINOPS_API AnyTensor repeat(std::span<const TensorRef> xs, DType out, const PatternRef& pattern, const ConvertRef& map,
                            const AxisLengths& lengths);

/// Runs `core(single-or-list of TensorRef)`: a list is read in place, never stacked first.
template <class X, class Core>
auto run_converting(const X& x, Core&& core) {
  using traits = input_traits<X>;
  if constexpr (list_input<X>) {
    const std::vector<AnyTensor> list = traits::list(x);
    const std::vector<TensorRef> refs(list.begin(), list.end());
    return core(std::span<const TensorRef>(refs));
  } else {
    return core(traits::single(x));
  }
}

}  // namespace detail

/// rearrange into `out` (any element type the conversion takes) through `map`.
template <TensorInput X, TensorInput Out, fixed_string Axis>
  requires(!detail::list_input<Out>)
void rearrange_into(const X& x, const Out& out,
                    const std::type_identity_t<rearrange_pattern<affine_axis<Axis>>>& pattern, const affine<Axis>& map,
                    const AxisLengths& lengths = {}) {
  detail::rearrange_into(detail::input_traits<X>::single(x), detail::input_traits<Out>::single(out), pattern.ref(), map,
                         lengths);
}
/// repeat into `out` through `map`.
template <TensorInput X, TensorInput Out, fixed_string Axis>
  requires(!detail::list_input<Out>)
void repeat_into(const X& x, const Out& out, const std::type_identity_t<repeat_pattern<affine_axis<Axis>>>& pattern,
                 const affine<Axis>& map, const AxisLengths& lengths = {}) {
  detail::repeat_into(detail::input_traits<X>::single(x), detail::input_traits<Out>::single(out), pattern.ref(), map,
                      lengths);
}

/// rearrange to a new Tensor<T>, converted, optionally through `map`. A list input is read in place.
template <Element T, TensorInput X, fixed_string Axis = "">
Tensor<T> rearrange(const X& x, const std::type_identity_t<rearrange_pattern<affine_axis<Axis>>>& pattern,
                    const affine<Axis>& map = {}, const AxisLengths& lengths = {}) {
  return detail::run_converting(
             x, [&](const auto& in) { return detail::rearrange(in, dtype_v<T>, pattern.ref(), map, lengths); })
      .template as<T>();
}
/// repeat to a new Tensor<T>, converted, optionally through `map`.
template <Element T, TensorInput X, fixed_string Axis = "">
Tensor<T> repeat(const X& x, const std::type_identity_t<repeat_pattern<affine_axis<Axis>>>& pattern,
                 const affine<Axis>& map = {}, const AxisLengths& lengths = {}) {
  return detail::run_converting(
             x, [&](const auto& in) { return detail::repeat(in, dtype_v<T>, pattern.ref(), map, lengths); })
      .template as<T>();
}

}  // namespace einops
