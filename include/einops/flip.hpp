// einops::flip: a view with one axis reversed (numpy.flip for one axis), the element order that
// einops' patterns cannot express (einops issue #85). The view steps that axis with a negative
// stride and moves no element; every operation and the fused conversion (convert.hpp) read it
// in place, so `b h w c -> b c h w` with the channels reversed (BGR -> RGB) is one pass:
//
//   einops::rearrange_into(einops::flip(images, 3), blob, "b h w c -> b c h w", ...);
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "einops/error.hpp"
#include "einops/tensor.hpp"

namespace einops {

/// `x` with axis `axis` reversed: element i of that axis is element length - 1 - i of x.
template <Element T>
TensorView<T> flip(const TensorView<T>& x, std::size_t axis) {
  if (axis >= x.rank())
    throw EinopsError("einops::flip: axis " + std::to_string(axis) + " of a tensor of rank " +
                      std::to_string(x.rank()));
  Shape shape(x.shape().begin(), x.shape().end());
  Shape strides(x.strides().begin(), x.strides().end());
  T* data = x.data();
  if (shape[axis] > 1) data += (shape[axis] - 1) * strides[axis];
  strides[axis] = -strides[axis];
  return TensorView<T>(data, std::move(shape), std::move(strides));
}

/// The same for a tensor: a view of its memory, valid while the tensor's storage lives.
template <Element T>
TensorView<T> flip(const Tensor<T>& x, std::size_t axis) {
  return flip(x.view(), axis);
}

}  // namespace einops
