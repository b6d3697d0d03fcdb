// PNG pictures as einops::AnyTensor (libpng's simplified API): read as `h w c` uint8, written
// from `h w` or `h w c` (c = 1, 2, 3, 4) uint8, bool, integers in [0, 255] or floats in [0, 1].
#pragma once

#include <optional>
#include <string>

#include "einops/tensor.hpp"

namespace einops::tool {

/// Reads `path` as (height, width, channels) uint8: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA (palette
/// images are expanded, 16-bit samples reduced to 8). Throws FileError.
AnyTensor load_png(const std::string& path);

/// The shape (height, width, channels) load_png would give, from the PNG header alone.
Shape png_shape(const std::string& path);

/// Why `x` cannot be written as a PNG (its shape or dtype), or nullopt when it can.
std::optional<std::string> png_shape_problem(const AnyTensor& x);

/// Writes `x` as an 8-bit PNG: floats are scaled by 255 and rounded (halves away from zero).
/// Throws FileError when the shape or the values do not fit a PNG; never leaves a partial file.
void save_png(const std::string& path, const AnyTensor& x);

}  // namespace einops::tool
