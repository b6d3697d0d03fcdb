// Pattern + operand shapes -> EinsumPlan: the length of every label, which label each operand
// dimension indexes, the output, and the greedy order of pairwise contractions. All checks of
// shapes happen here, once; plans are cached by (pattern, element type, shapes) in a bounded cache
// (the element type decides some routes: route.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../call_context.hpp"
#include "einops/pattern.hpp"
#include "einops/tensor.hpp"
#include "route.hpp"
#include "term.hpp"

namespace einops::detail::einsum {

/// One pairwise contraction: terms `first` and `second` of the working list are removed and
/// their product over the labels `result` is appended, computed by the kernel `route` names.
struct Step {
  std::size_t first = 0;
  std::size_t second = 0;
  Labels result;
  Route route = Route::matrix_product;
};

struct EinsumPlan {
  Extents extent;                              // per label: names first, then the ellipsis dimensions
  std::vector<std::string> label_names;        // per label: its name, "...0", "...1" for the ellipsis dimensions
  std::vector<std::vector<int>> operand_dims;  // per operand dimension: its label, -1 for a length-1 one
  std::vector<Labels> operand_labels;          // distinct labels of each operand (length > 1)
  Labels output_labels;                        // per output dimension
  Shape output_shape;
  bool has_empty_label = false;  // a label of length 0: the result is all zeros
  std::vector<Step> steps;       // empty for one operand
};

/// Whether the plan is one streaming or small product of the two operands with nothing summed
/// away first: those kernels then read 16-bit floats in place, accumulate them in float32 and
/// round each output once.
bool reads_operands_in_place(const EinsumPlan& plan);

/// Builds (or finds) the plan; throws EinopsError through `context` for shapes that do not fit.
std::shared_ptr<const EinsumPlan> get_plan(const EinsumPattern& pattern, std::span<const AnyTensor> operands,
                                           const CallContext& context);

}  // namespace einops::detail::einsum
