// Files as tensors, by extension: ".png" is a picture, anything else a .npy array.
#pragma once

#include <string>
#include <utility>

#include "einops/tensor.hpp"

namespace einops::tool {

bool is_png_path(const std::string& path);

/// Reads a .npy file (any name) or a .png picture. Throws FileError.
AnyTensor read_array(const std::string& path);

/// The shape and dtype read_array would give, from the file's header alone. Throws FileError.
std::pair<Shape, DType> array_shape(const std::string& path);

/// Writes `x` to `path`: a PNG when the name ends in ".png", else a .npy file. Throws FileError.
void write_array(const std::string& path, const AnyTensor& x);

}  // namespace einops::tool
