// Messages of the EinopsErrors thrown by pack, unpack, parse_shape and einsum.
#include "operation_context.hpp"

#include "einops/error.hpp"
#include "error_context.hpp"

namespace einops::detail {
namespace {

std::string header(const OperationContext& context) {
  std::string message = "Error while processing " + std::string(context.operation) + " pattern \"" +
                        printable(context.pattern) + "\".\n";
  // pack and einsum take a list of tensors: an empty one leaves no shape to name.
  const bool takes_list = context.operation == "pack" || context.operation == "einsum";
  if (takes_list && context.inputs.empty()) {
    message.pop_back();
  } else if (!context.inputs.empty()) {
    message += context.inputs.size() == 1 ? " Input tensor shape: " : " Input tensor shapes: ";
    for (std::size_t i = 0; i < context.inputs.size(); ++i)
      message += (i ? ", " : "") + format_shape(context.inputs[i].shape());
    message += ".";
  } else {
    message += " Input tensor shape: " + format_shape(context.shape) + ".";
  }
  if (context.packed_shapes != nullptr) message += " Packed shapes: " + format_shapes(*context.packed_shapes) + ".";
  return message + "\n ";
}

}  // namespace

std::string format_shapes(std::span<const Shape> shapes) {
  std::string out = "[";
  for (std::size_t i = 0; i < shapes.size(); ++i) out += (i ? ", " : "") + format_shape(shapes[i]);
  return out + "]";
}

void OperationContext::fail(const std::string& reason) const { throw EinopsError(header(*this) + reason); }

void OperationContext::fail_syntax(const PatternError& error) const {
  fail(syntax_reason(pattern, error));
}

}  // namespace einops::detail
