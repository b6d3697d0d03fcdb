// Formatting of EinopsError messages: shapes, axis lengths, and the caret under a syntax error.
#include <string>

#include "einops/detail/platform.hpp"
#include "einops/error.hpp"
#include "einops/tensor.hpp"
#include "error_context.hpp"

namespace einops {
namespace detail {

std::string format_shape(std::span<const std::int64_t> shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) out += ",";
  return out + ")";
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

namespace {

std::string header(const ErrorContext& context) {
  std::string message = "Error while processing " + context.operation_label + "-reduction pattern \"" +
                        std::string(context.pattern) + "\".\n";
  message += context.list_input ? " Input is a list of tensors; the first has shape " : " Input tensor shape: ";
  message += format_shape(context.shape) + ".";
  if (!context.lengths.empty()) {
    message += " Additional info: {";
    bool first = true;
    for (const auto& [name, length] : context.lengths.entries()) {
      message += (first ? "" : ", ") + name + ": " + std::to_string(length);
      first = false;
    }
    message += "}.";
  }
  return message + "\n ";
}

}  // namespace

std::string syntax_reason(std::string_view pattern, const PatternError& error) {
  std::string reason = error.reason;
  if (error.length > 0)
    reason += ": '" + printable(pattern.substr(std::min(error.position, pattern.size()), error.length)) + "'";
  reason += "\n   " + printable(pattern) + "\n   " + caret_line(pattern, error.position);
  return reason;
}

void ErrorContext::fail(const std::string& reason) const { throw EinopsError(header(*this) + reason); }

void ErrorContext::fail_syntax(const PatternError& error) const {
  fail(syntax_reason(pattern, error));
}

}  // namespace detail

AnyTensor::AnyTensor(DType dtype, Shape shape) : dtype_(dtype), shape_(std::move(shape)) {
  const std::int64_t count = detail::checked_allocation_count(shape_, dtype_size(dtype));
  const std::size_t bytes = static_cast<std::size_t>(count > 0 ? count : 1) * dtype_size(dtype);
  storage_ = detail::allocate_buffer(bytes, true);  // zero-filled like Tensor<T>
  data_ = storage_.get();
  strides_ = detail::row_major_strides(shape_);
}

}  // namespace einops
