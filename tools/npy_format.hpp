// The NumPy .npy format (versions 1.0, 2.0, 3.0): the preamble and the header dictionary.
//
// Pure functions over bytes, so that every malformed header can be tested (and fuzzed) without
// files. https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "einops/dtype.hpp"
#include "einops/tensor.hpp"

namespace einops::tool {

/// A malformed or unsupported .npy file; the message says what is wrong (not which file).
class NpyFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Largest header this tool reads: numpy writes a few hundred bytes; a length field claiming
/// more is a corrupt file, not a reason to read megabytes.
inline constexpr std::size_t kMaxNpyHeaderBytes = 1 << 20;

struct NpyHeader {
  int major_version = 1;
  DType dtype = DType::float64;
  bool big_endian = false;
  bool fortran_order = false;
  Shape shape;
  std::size_t data_offset = 0;  // where the elements start
  std::size_t data_bytes = 0;   // element count times element size, checked for overflow
};

/// Reads the preamble and header at the start of `file` and checks that `file` holds all the
/// data the header promises. Throws NpyFormatError.
NpyHeader parse_npy_header(std::span<const unsigned char> file);

/// The preamble and header numpy would write for a little-endian array: version 1.0, padded so
/// that the data starts at a multiple of 64 bytes.
std::string format_npy_header(DType dtype, bool fortran_order, std::span<const std::int64_t> shape);

/// numpy's descr string for `dtype`, little-endian: "<f8", "|u1", "|b1".
std::string npy_descr(DType dtype);

}  // namespace einops::tool
