// The walks of a plan: how a plan's axes meet the strides of an actual input and output. For the
// executor, the tools and the tests; not included by the public headers, so that a user's
// translation unit does not compile the kernels' walk.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "einops/detail/walk.hpp"
#include "einops/export.hpp"
#include "einops/plan.hpp"

namespace einops::detail {

/// The walk of `plan` for an input with the given strides (in elements) into an output with the
/// given strides, with adjacent axes merged. No heap allocation.
EINOPS_API Walk make_walk(const Plan& plan, std::span<const std::int64_t> input_strides,
                          std::span<const std::int64_t> output_strides);

/// The stride (in elements) of each input axis of `plan` for an input with `input_strides`.
EINOPS_API std::array<std::int64_t, kMaxRank> input_axis_strides(const Plan& plan,
                                                                 std::span<const std::int64_t> input_strides);
/// The stride (in elements) of each output axis of `plan` for an output with `output_strides`.
EINOPS_API std::array<std::int64_t, kMaxRank> output_axis_strides(const Plan& plan,
                                                                  std::span<const std::int64_t> output_strides);

/// Two output axes of a plan (indices into output_axis_names) that one output dimension merges
/// but whose strides in the input do not continue each other: the reason a view is impossible.
struct ViewConflict {
  int outer = -1;
  int inner = -1;
};

/// Strides of the output when it can be a view of an input with `input_strides`, else nullopt
/// (then `conflict`, when given, names the axes that cannot be merged).
EINOPS_API std::optional<Shape> view_strides(const Plan& plan, std::span<const std::int64_t> input_strides,
                                             ViewConflict* conflict = nullptr);

}  // namespace einops::detail
