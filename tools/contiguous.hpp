// A row-major contiguous copy of a tensor, for writers that need plain rows of elements.
#pragma once

#include "einops/tensor.hpp"

namespace einops::tool {

/// `x` itself when it is row-major contiguous, else a row-major copy.
AnyTensor contiguous(const AnyTensor& x);

}  // namespace einops::tool
