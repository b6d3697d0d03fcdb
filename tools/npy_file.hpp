// .npy files as einops::AnyTensor: read memory-mapped (no copy for little-endian data), written
// atomically (a temporary file renamed into place).
#pragma once

#include <string>
#include <utility>

#include "einops/tensor.hpp"

namespace einops::tool {

/// Reads `path`. C-order and Fortran-order data become a tensor with the matching strides over
/// the mapped file; big-endian data (and the rare misaligned or non-0/1 bool data) is copied.
/// Throws FileError naming the path and the problem.
AnyTensor load_npy(const std::string& path);

/// The shape and dtype of a .npy file, from its header alone. Throws FileError.
std::pair<Shape, DType> npy_shape(const std::string& path);

/// Writes `x` as a little-endian .npy file: C order, or Fortran order when `x` is laid out
/// that way already (no copy in either case). Throws FileError; never leaves a partial file.
void save_npy(const std::string& path, const AnyTensor& x);

/// True when `x` walks its memory in column-major (Fortran) order without gaps.
bool is_column_major_contiguous(const AnyTensor& x);

}  // namespace einops::tool
