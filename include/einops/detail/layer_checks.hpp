// The shape-free checks einops makes when a layer (Rearrange, Reduce, EinMix's inner rearranges,
// CheckShape) is constructed, shared by every framework's layers. Defined in src/layer_checks.cpp.
#pragma once

#include <string>
#include <string_view>

#include "einops/export.hpp"
#include "einops/pattern.hpp"
#include "einops/plan.hpp"

namespace einops::detail {

/// Throws EinopsError ("Error while constructing <layer>('<pattern>')." and the reason, with a
/// caret under a fault in the pattern) unless the pattern parses, its identifiers suit
/// `operation`, and the axis lengths name axes of the pattern.
EINOPS_API void check_layer_pattern(std::string_view layer, Operation operation, const std::string& pattern,
                                    const AxisLengths& lengths);

/// The same for a CheckShape layer: the pattern parses as one side of a pattern (check_shape's
/// language) and the axis lengths name its axes.
EINOPS_API void check_shape_layer_pattern(const std::string& pattern, const AxisLengths& lengths);

}  // namespace einops::detail
