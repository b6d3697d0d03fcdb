#include <string>
#include <vector>

#include "einops/detail/einsum_description.hpp"
#include "einops/detail/platform.hpp"
#include "explain.hpp"
#include "text_table.hpp"

namespace einops::tool {

std::string explain_einsum(const EinsumExplainRequest& request) {
  const detail::EinsumDescription description = detail::describe_einsum(request.pattern, request.shapes, request.dtype);
  std::string out = "einsum \"" + request.pattern + "\"\n";
  Table operands;
  for (std::size_t k = 0; k < request.shapes.size(); ++k)
    operands.row({"operand " + std::to_string(k), detail::format_shape(request.shapes[k]),
                  std::string(dtype_name(request.dtype))});
  out += "inputs:\n" + operands.text();

  out += "\n1. Axes and their lengths\n";
  Table axes;
  for (const auto& [name, length] : description.axes) axes.row({name, std::to_string(length)});
  out += axes.text();

  out += "\n2. Contractions, in order\n";
  if (description.steps.empty()) out += "   operand 0 " + description.single_operand + "\n";
  for (std::size_t s = 0; s < description.steps.size(); ++s) {
    const detail::EinsumStepDescription& step = description.steps[s];
    out += "   " + std::to_string(s + 1) + ". " + step.first + " x " + step.second + " -> " + step.result + "\n";
    out += "      kernel: " + step.kernel + "\n";
  }
  if (!description.note.empty()) out += "   " + description.note + "\n";

  out += "\n3. Output: shape " + detail::format_shape(description.output_shape) + ", " +
         std::string(dtype_name(request.dtype)) + "\n";
  return out;
}

}  // namespace einops::tool
