// Formatting of EinopsError messages: shapes, axis lengths, and the caret under a syntax error.
#include <string>

#include "einops/detail/platform.hpp"
#include "einops/error.hpp"
#include "einops/tensor.hpp"

namespace einops {
namespace detail {

std::string format_shape(std::span<const std::int64_t> shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) out += ",";
  return out + ")";
}

std::string input_shapes_line(std::span<const std::vector<std::int64_t>> shapes) {
  std::string line = shapes.size() == 1 ? "Input tensor shape: " : "Input tensor shapes: ";
  for (std::size_t i = 0; i < shapes.size(); ++i) line += (i ? ", " : "") + format_shape(shapes[i]);
  return line + ".";
}

std::string input_shape_line(std::span<const std::int64_t> shape) {
  const std::vector<std::int64_t> shapes[] = {{shape.begin(), shape.end()}};
  return input_shapes_line(shapes);
}

std::string printable(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  return out;
}

std::string caret_line(std::string_view pattern, std::size_t position) {
  // Count code points (not bytes) before the fault so the caret lines up in a terminal.
  std::size_t column = 0;
  for (std::size_t i = 0; i < position && i < pattern.size(); ++i)
    if ((static_cast<unsigned char>(pattern[i]) & 0xC0) != 0x80) ++column;
  return std::string(column, ' ') + "^";
}

std::int64_t checked_element_count(std::span<const std::int64_t> shape) {
  // The product of the non-zero lengths must fit, not only the element count: then no partial
  // product, in any order, overflows (sizes, row-major strides), even for an empty tensor.
  std::int64_t nonzero_product = 1;
  bool empty = false;
  for (std::int64_t length : shape) {
    if (length < 0) throw EinopsError("Tensor shape " + format_shape(shape) + " has a negative length");
    if (length == 0) empty = true;
    else if (detail::checked_mul(nonzero_product, length, nonzero_product))
      throw EinopsError("Tensor shape " + format_shape(shape) + " has more elements than int64 can count" +
                        (empty ? " (the product of its non-zero lengths)" : ""));
  }
  return empty ? 0 : nonzero_product;
}

std::string list_mismatch_reason(std::span<const std::int64_t> first_shape, std::string_view first_dtype,
                                 std::size_t index, std::span<const std::int64_t> shape, std::string_view dtype) {
  const auto described = [](std::span<const std::int64_t> lengths, std::string_view name) {
    std::string text = format_shape(lengths);
    if (!name.empty()) text.append(" ").append(name);
    return text;
  };
  std::string reason = "All input tensors must have the same shape and dtype: tensor 0 is " +
                       described(first_shape, first_dtype) + ", tensor " + std::to_string(index) + " is " +
                       described(shape, dtype);
  // Where they first differ: the rank, or the first dimension whose lengths differ.
  if (first_shape.size() != shape.size())
    return reason + " (rank " + std::to_string(first_shape.size()) + " != " + std::to_string(shape.size()) + ")";
  for (std::size_t dim = 0; dim < shape.size(); ++dim)
    if (first_shape[dim] != shape[dim])
      return reason + " (input dim " + std::to_string(dim) + ": " + std::to_string(first_shape[dim]) +
             " != " + std::to_string(shape[dim]) + ")";
  return reason;
}

std::string error_header(std::string_view operation, std::string_view pattern) {
  const bool own_pattern_kind = operation == "pack" || operation == "unpack" || operation == "parse_shape" ||
                                operation == "check_shape" || operation == "einsum";
  return "Error while processing " + std::string(operation) + (own_pattern_kind ? "" : "-reduction") + " pattern \"" +
         printable(pattern) + "\".";
}

void throw_dtype_mismatch(DType held, DType wanted) {
  throw EinopsError("AnyTensor::as: tensor holds " + std::string(dtype_name(held)) + ", not " +
                    std::string(dtype_name(wanted)));
}

void throw_view_rank_mismatch(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides) {
  throw EinopsError("TensorView: shape " + format_shape(shape) + " and strides " + format_shape(strides) +
                    " have different ranks");
}

void throw_call_error(std::string_view operation, std::string_view pattern, std::string_view inputs_line,
                      std::string_view reason) {
  std::string message = error_header(operation, pattern) + "\n ";
  if (!inputs_line.empty()) message.append(inputs_line).append("\n ");
  throw EinopsError(message.append(reason));
}

}  // namespace detail
}  // namespace einops
