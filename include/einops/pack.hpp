// einops.pack and einops.unpack on the built-in tensor.
//
//   auto [packed, packed_shapes] = einops::pack({image, mask, extra}, "b h w *");
//   std::vector<einops::Tensor<float>> parts = einops::unpack(packed, packed_shapes, "b h w *");
//
// The pattern is einops' own mini-grammar: axis names separated by any whitespace, exactly one
// `*`; the named axes are matched by position (from the front and from the back) and must agree
// between the tensors, and whatever stands in place of `*` is flattened and concatenated.
// `packed_shapes` holds, per tensor, the shape that stood in place of `*` (empty for none).
#pragma once

#include <initializer_list>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "einops/dtype.hpp"
#include "einops/export.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/tensor.hpp"

namespace einops {

/// The result of pack: the packed tensor and, per input, the shape packed into `*`.
template <class TensorType>
struct Packed {
  TensorType tensor;
  std::vector<Shape> packed_shapes;
};

// ---- run-time typed core (AnyTensor) -----------------------------------------------------------

/// einops.pack: a new tensor holding every input. All inputs have one dtype.
EINOPS_API Packed<AnyTensor> pack(std::span<const AnyTensor> tensors, pack_pattern pattern);
inline Packed<AnyTensor> pack(std::initializer_list<AnyTensor> tensors, pack_pattern pattern) {
  return pack(std::span<const AnyTensor>(tensors.begin(), tensors.size()), pattern);
}

/// einops.unpack: one tensor per packed shape, each a view into `packed` (no copy). A packed
/// shape may hold one -1 in all (its length is inferred).
EINOPS_API std::vector<AnyTensor> unpack(const AnyTensor& packed, const std::vector<Shape>& packed_shapes,
                                         pack_pattern pattern);

// ---- typed overloads ---------------------------------------------------------------------------

template <Element T>
Packed<Tensor<T>> pack(std::span<const Tensor<T>> tensors, pack_pattern pattern) {
  const std::vector<AnyTensor> any(tensors.begin(), tensors.end());
  Packed<AnyTensor> packed = pack(std::span<const AnyTensor>(any), pattern);
  return {packed.tensor.template as<T>(), std::move(packed.packed_shapes)};
}
template <Element T>
Packed<Tensor<T>> pack(const std::vector<Tensor<T>>& tensors, pack_pattern pattern) {
  return pack(std::span<const Tensor<T>>(tensors), pattern);
}
template <Element T>
Packed<Tensor<T>> pack(std::initializer_list<Tensor<T>> tensors, pack_pattern pattern) {
  return pack(std::span<const Tensor<T>>(tensors.begin(), tensors.size()), pattern);
}

/// The parts share `packed`'s storage.
template <Element T>
std::vector<Tensor<T>> unpack(const Tensor<T>& packed, const std::vector<Shape>& packed_shapes, pack_pattern pattern) {
  const std::vector<AnyTensor> parts = unpack(AnyTensor(packed), packed_shapes, pattern);
  std::vector<Tensor<T>> typed;
  typed.reserve(parts.size());
  for (const AnyTensor& part : parts) typed.push_back(part.template as<T>());
  return typed;
}
/// The parts alias the view's memory, as the view does.
template <Element T>
std::vector<Tensor<std::remove_const_t<T>>> unpack(const TensorView<T>& packed, const std::vector<Shape>& packed_shapes,
                                                   pack_pattern pattern) {
  const std::vector<AnyTensor> parts = unpack(AnyTensor(packed), packed_shapes, pattern);
  std::vector<Tensor<std::remove_const_t<T>>> typed;
  typed.reserve(parts.size());
  for (const AnyTensor& part : parts) typed.push_back(part.template as<std::remove_const_t<T>>());
  return typed;
}

}  // namespace einops
