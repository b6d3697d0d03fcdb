// The walks of a plan on given strides: the input's elementary axes as strides, the merged walk
// the kernels run, and the strides of a result that is a view of its input.
#include <optional>

#include "einops/detail/platform.hpp"
#include "einops/detail/plan_walk.hpp"
#include "einops/plan.hpp"

namespace einops::detail {
namespace {

/// a * b modulo 2^64. Strides of axes that are never walked (length 1, or in an empty tensor) may
/// not fit in int64; every stride a kernel uses does (the view's extent was checked), and it is exact.
std::int64_t wrapping_multiply(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

/// a * b into `out`; false when it overflows.
bool checked_multiply(std::int64_t a, std::int64_t b, std::int64_t& out) { return !checked_mul(a, b, out); }

/// The stride of each elementary axis, given the axes' dimensions and lengths and the strides of
/// the dimensions they compose: within a dimension, an axis steps over the axes after it.
std::array<std::int64_t, kMaxRank> axis_strides(std::span<const int> axis_dim, std::span<const std::int64_t> lengths,
                                                std::span<const std::int64_t> dim_strides) {
  std::array<std::int64_t, kMaxRank> out{};
  std::int64_t step = 0;
  int current_dim = -1;
  for (std::size_t i = axis_dim.size(); i-- > 0;) {
    const int dim = axis_dim[i];
    if (dim != current_dim) {
      current_dim = dim;
      step = dim_strides[static_cast<std::size_t>(dim)];
    }
    out[i] = step;
    step = wrapping_multiply(step, lengths[i]);
  }
  return out;
}

}  // namespace

std::array<std::int64_t, kMaxRank> input_axis_strides(const Plan& plan, std::span<const std::int64_t> input_strides) {
  return axis_strides(plan.input_axis_dim, plan.input_axis_lengths, input_strides);
}

std::array<std::int64_t, kMaxRank> output_axis_strides(const Plan& plan, std::span<const std::int64_t> output_strides) {
  return axis_strides(plan.output_axis_dim, plan.output_axis_lengths, output_strides);
}

Walk make_walk(const Plan& plan, std::span<const std::int64_t> input_strides,
               std::span<const std::int64_t> output_strides) {
  const std::array<std::int64_t, kMaxRank> axis_stride = input_axis_strides(plan, input_strides);
  const std::array<std::int64_t, kMaxRank> out_axis_stride =
      axis_strides(plan.output_axis_dim, plan.output_axis_lengths, output_strides);
  Walk walk;
  for (std::size_t i = 0; i < plan.output_axis_source.size(); ++i) {
    const int source = plan.output_axis_source[i];
    walk.push_output(plan.output_axis_lengths[i], source >= 0 ? axis_stride[static_cast<std::size_t>(source)] : 0,
                     out_axis_stride[i]);
  }
  for (int index : plan.reduced_axes)
    walk.push_reduced(plan.input_axis_lengths[static_cast<std::size_t>(index)],
                      axis_stride[static_cast<std::size_t>(index)]);
  walk.merge();
  return walk;
}

std::optional<Shape> view_strides(const Plan& plan, std::span<const std::int64_t> input_strides,
                                  ViewConflict* conflict) {
  if (!plan.is_pure_view_candidate()) return std::nullopt;
  if (plan.output_size == 0) return row_major_strides(plan.output_shape);
  const std::array<std::int64_t, kMaxRank> axis_stride = input_axis_strides(plan, input_strides);
  Shape strides(plan.output_shape.size(), 0);
  std::size_t i = plan.output_axis_source.size();
  for (std::size_t dim = plan.output_shape.size(); dim-- > 0;) {
    // Walk this dimension's axes from the innermost: each non-unit axis must continue the previous.
    bool have_inner = false;
    std::size_t inner = 0;  // the non-unit axis stepped over last
    std::int64_t expected = 0;
    std::int64_t stride = 1;
    const auto fail = [&](std::size_t outer) -> std::optional<Shape> {
      if (conflict != nullptr) *conflict = {static_cast<int>(outer), static_cast<int>(inner)};
      return std::nullopt;
    };
    while (i > 0 && plan.output_axis_dim[i - 1] == static_cast<int>(dim)) {
      --i;
      const std::int64_t length = plan.output_axis_lengths[i];
      if (length == 1) continue;
      const std::int64_t s = axis_stride[static_cast<std::size_t>(plan.output_axis_source[i])];
      if (!have_inner) {
        stride = s;
        have_inner = true;
      } else if (s != expected) {
        return fail(i);
      }
      inner = i;
      if (!checked_multiply(s, length, expected)) return fail(i);
    }
    strides[dim] = stride;
  }
  return strides;
}

}  // namespace einops::detail
