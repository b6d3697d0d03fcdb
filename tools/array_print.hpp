// A tensor as text, the way numpy prints an array: nested brackets, aligned columns, and long
// axes summarised with "..." when the tensor is large.
#pragma once

#include <string>

#include "einops/tensor.hpp"

namespace einops::tool {

/// "shape (2, 3), int64" on the first line, then the elements.
std::string format_array(const AnyTensor& x);

}  // namespace einops::tool
