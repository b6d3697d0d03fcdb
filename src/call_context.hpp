// What an EinopsError about one call names: the operation, the pattern, the input shape(s), the
// given axis lengths and, for unpack, the packed shapes. Every public operation builds one and
// hands it to the code that may fail; its messages start with einops' header (error_header).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "einops/pattern.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"

namespace einops::detail {

struct CallContext {
  std::string_view operation;  // "rearrange", "repeat", a reduction ("sum", ...), "pack", "unpack",
                               // "parse_shape", "einsum"
  std::string_view pattern;
  std::span<const AnyTensor> inputs = {};             // pack and einsum: every input
  std::span<const std::int64_t> shape = {};           // the one input's shape (of a list: the first tensor's)
  const AxisLengths* lengths = nullptr;               // the axis lengths given, named as einops' "Additional info"
  bool list_input = false;                            // rearrange, reduce, repeat of a list of tensors
  const std::vector<Shape>* packed_shapes = nullptr;  // unpack

  /// Throws EinopsError: einops' header, the inputs, then the reason.
  [[noreturn]] void fail(const std::string& reason) const;
  /// Throws EinopsError for a fault in the pattern: einops' sentence (which names the offending
  /// text where einops' does), then the pattern and a caret under the fault.
  [[noreturn]] void fail_syntax(const PatternError& error) const;
};

/// einops' sentence for a refused axis-length name: "Axis s is not used in transform", "('Invalid
/// name for an axis', 'x_')" (einops prints the arguments of its exception), else the reason and
/// the name.
std::string length_name_sentence(const PatternError& error, std::string_view name);

/// einops refuses the mean of a non-floating tensor: throws, naming the call, when `plan` takes a
/// floating-only reduction (ReductionTraits) over at least one axis of an input of `dtype`.
void check_reduction_dtype(const Plan& plan, DType dtype, std::span<const std::int64_t> shape,
                           const AxisLengths& lengths);

/// "[(2,), (-1, 3)]": packed shapes as einops prints a list of shapes.
std::string format_shapes(std::span<const Shape> shapes);

}  // namespace einops::detail
