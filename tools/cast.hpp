// Element-type conversion of a whole tensor, for writing a result in a chosen dtype.
#pragma once

#include <optional>
#include <string_view>

#include "einops/tensor.hpp"

namespace einops::tool {

/// The dtype called `name` ("float32", "uint8", "bool", ...), or nullopt. Only dtypes a .npy
/// file can hold are named (numpy has no bfloat16).
std::optional<DType> dtype_from_name(std::string_view name);

/// `x` converted to `target` like numpy's astype, with every conversion defined: to bool is
/// "not zero"; floats to integers truncate toward zero, saturate at the target's range and
/// turn NaN into 0; integers to narrower integers wrap. Returns `x` itself when nothing changes.
AnyTensor cast(const AnyTensor& x, DType target);

}  // namespace einops::tool
