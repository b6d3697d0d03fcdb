// The positional words after a pattern: input files and `name=length` axis lengths, in any order.
#pragma once

#include <string>
#include <vector>

#include "einops/plan.hpp"

namespace einops::tool {

struct Positionals {
  std::vector<std::string> files;
  AxisLengths lengths;  // in command-line order, as einops keeps keyword order
};

/// A word is an axis length when it reads NAME=INTEGER with no '/' or '.' in NAME (so a file
/// called "a=1" is still reachable as "./a=1"). Throws UsageError for NAME=something-else.
Positionals split_positionals(const std::vector<std::string>& words);

/// "2,3,4" (or "2x3x4", or "" for a scalar) as a shape. Throws UsageError.
Shape parse_shape_list(const std::string& text);

/// "0.5,2,-1.25" as numbers for `option` (the affine map's --scale and --offset). Throws UsageError.
std::vector<float> parse_number_list(const std::string& text, const std::string& option);

/// "[(2, 3), (), (4,)]": the packed shapes pack prints and unpack takes (-1 allowed once).
/// Throws UsageError.
std::vector<Shape> parse_shape_list_text(const std::string& text);

/// The inverse of parse_shape_list_text.
std::string format_shape_list(const std::vector<Shape>& shapes);

}  // namespace einops::tool
