// `einops explain`: how the library reads a pattern for one input shape, step by step, printed
// from the real Plan (einops::make_plan) and the walk the kernels run (detail::make_walk).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "einops/plan.hpp"

namespace einops::tool {

struct ExplainRequest {
  Operation operation = Operation::rearrange;
  std::optional<std::string> reduction;  // reduce only
  std::string pattern;
  Shape shape;
  AxisLengths lengths;
  DType dtype = DType::float32;  // for the cost in bytes
  bool list_input = false;       // shape[0] counts the stacked tensors
};

/// The explanation, several lines of text. Throws EinopsError (with a caret for syntax errors)
/// exactly as the operation itself would.
std::string explain(const ExplainRequest& request);

struct EinsumExplainRequest {
  std::string pattern;
  std::vector<Shape> shapes;  // one per operand
  DType dtype = DType::float32;
};

/// einsum's plan for these operand shapes: axes, each pairwise contraction and the kernel that
/// runs it (explain_einsum.cpp). Throws EinopsError as einsum would.
std::string explain_einsum(const EinsumExplainRequest& request);

}  // namespace einops::tool
