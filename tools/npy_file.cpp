#include "npy_file.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "atomic_file.hpp"
#include "einops/ops.hpp"
#include "tool_errors.hpp"
#include "mapped_file.hpp"
#include "npy_format.hpp"

namespace einops::tool {
namespace {

/// Fortran-order strides. Unsigned arithmetic, as detail::row_major_strides: an empty array's
/// other lengths may multiply past 2^63 (no element is ever read through those strides).
Shape column_major_strides(std::span<const std::int64_t> shape) {
  Shape strides(shape.size());
  std::uint64_t step = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    strides[i] = static_cast<std::int64_t>(step);
    step *= static_cast<std::uint64_t>(shape[i] > 0 ? shape[i] : 1);
  }
  return strides;
}

void swap_bytes(unsigned char* data, std::size_t bytes, std::size_t element) {
  for (std::size_t at = 0; at + element <= bytes; at += element) std::reverse(data + at, data + at + element);
}

bool bools_are_canonical(const unsigned char* data, std::size_t bytes) {
  return std::all_of(data, data + bytes, [](unsigned char b) { return b <= 1; });
}

NpyHeader read_header(const std::string& path, const MappedFile& file) {
  try {
    return parse_npy_header(file.bytes());
  } catch (const NpyFormatError& e) {
    throw FileError(path, e.what());
  }
}

}  // namespace

std::pair<Shape, DType> npy_shape(const std::string& path) {
  const NpyHeader header = read_header(path, *MappedFile::open(path));
  return {header.shape, header.dtype};
}

AnyTensor load_npy(const std::string& path) {
  const std::shared_ptr<const MappedFile> file = MappedFile::open(path);
  const NpyHeader header = read_header(path, *file);
  const Shape strides =
      header.fortran_order ? column_major_strides(header.shape) : detail::row_major_strides(header.shape);
  const std::size_t element = dtype_size(header.dtype);
  const unsigned char* data = file->bytes().data() + header.data_offset;
  const bool aligned = reinterpret_cast<std::uintptr_t>(data) % element == 0;
  const bool bools_ok = header.dtype != DType::boolean || bools_are_canonical(data, header.data_bytes);
  if (header.data_bytes > 0 && aligned && !header.big_endian && bools_ok) {
    // The tensor keeps the mapping alive; einops only reads its inputs.
    return AnyTensor(header.dtype, std::const_pointer_cast<MappedFile>(file), const_cast<unsigned char*>(data),
                     header.shape, strides);
  }
  const auto count = static_cast<std::int64_t>(header.data_bytes / element);
  const AnyTensor buffer(header.dtype, Shape{count});
  auto* target = static_cast<unsigned char*>(buffer.data());
  if (header.data_bytes > 0) std::memcpy(target, data, header.data_bytes);
  if (header.big_endian) swap_bytes(target, header.data_bytes, element);
  if (!bools_ok)  // numpy reads any non-zero byte as True; a C++ bool must hold 0 or 1
    for (std::size_t i = 0; i < header.data_bytes; ++i) target[i] = target[i] != 0;
  return AnyTensor(header.dtype, buffer.storage(), buffer.data(), header.shape, strides);
}

bool is_column_major_contiguous(const AnyTensor& x) {
  Shape shape(x.shape().rbegin(), x.shape().rend());
  Shape strides(x.strides().rbegin(), x.strides().rend());
  return detail::is_row_major_contiguous(shape, strides);
}

void save_npy(const std::string& path, const AnyTensor& x) {
  AnyTensor source = x;
  bool fortran = false;
  if (!x.is_contiguous()) {
    fortran = x.rank() > 1 && is_column_major_contiguous(x);
    if (!fortran) source = einops::contiguous(x);
  }
  const std::string header = format_npy_header(source.dtype(), fortran, source.shape());
  AtomicFile out(path);
  out.write(header.data(), header.size());
  out.write(source.data(), static_cast<std::size_t>(source.size()) * dtype_size(source.dtype()));
  out.commit();
}

}  // namespace einops::tool
