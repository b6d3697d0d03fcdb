#include "contiguous.hpp"

#include "einops/ops.hpp"

namespace einops::tool {

AnyTensor contiguous(const AnyTensor& x) {
  if (x.is_contiguous()) return x;
  AnyTensor copy(x.dtype(), Shape(x.shape().begin(), x.shape().end()));
  rearrange_into(x, copy, "... -> ...");  // the library's strided copy kernel
  return copy;
}

}  // namespace einops::tool
