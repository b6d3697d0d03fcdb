// The messages of EinopsErrors about a call (call_context.hpp).
#include "call_context.hpp"

#include <algorithm>

#include "einops/error.hpp"

namespace einops::detail {
namespace {

/// pack and einsum take a list of tensors: an empty one leaves no shape to name.
bool takes_tensor_list(std::string_view operation) { return operation == "pack" || operation == "einsum"; }

/// The line after the header: the input shape(s), the packed shapes, the given lengths.
std::string inputs_line(const CallContext& context) {
  std::string line;
  if (!context.inputs.empty()) {
    line = context.inputs.size() == 1 ? "Input tensor shape: " : "Input tensor shapes: ";
    for (std::size_t i = 0; i < context.inputs.size(); ++i)
      line += (i ? ", " : "") + format_shape(context.inputs[i].shape());
    line += ".";
  } else if (!takes_tensor_list(context.operation)) {
    line = context.list_input ? "Input is a list of tensors; the first has shape " : "Input tensor shape: ";
    line += format_shape(context.shape) + ".";
  }
  if (context.packed_shapes != nullptr) line += " Packed shapes: " + format_shapes(*context.packed_shapes) + ".";
  if (context.lengths != nullptr && !context.lengths->empty()) {
    line += " Additional info: {";
    bool first = true;
    for (const auto& [name, length] : context.lengths->entries()) {
      line += (first ? "" : ", ") + name + ": " + std::to_string(length);
      first = false;
    }
    line += "}.";
  }
  return line;
}

}  // namespace

std::string format_shapes(std::span<const Shape> shapes) {
  std::string out = "[";
  for (std::size_t i = 0; i < shapes.size(); ++i) out += (i ? ", " : "") + format_shape(shapes[i]);
  return out + "]";
}

void check_mean_dtype(const Plan& plan, DType dtype, std::span<const std::int64_t> shape, const AxisLengths& lengths) {
  if (plan.reduction != Reduction::mean || plan.reduced_axes.empty() || is_floating(dtype)) return;
  const CallContext context{.operation = "mean", .pattern = plan.pattern, .shape = shape, .lengths = &lengths};
  context.fail("reduce_mean is not available for non-floating tensors (dtype " + std::string(dtype_name(dtype)) + ")");
}

void CallContext::fail(const std::string& reason) const {
  throw_call_error(operation, pattern, inputs_line(*this), reason);
}

void CallContext::fail_syntax(const PatternError& error) const {
  std::string reason = error.reason;
  if (error.length > 0)
    reason += ": '" + printable(pattern.substr(std::min(error.position, pattern.size()), error.length)) + "'";
  reason += "\n   " + printable(pattern) + "\n   " + caret_line(pattern, error.position);
  fail(reason);
}

}  // namespace einops::detail
