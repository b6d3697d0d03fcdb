// The built-in executor, and the walk of a user reduction (reduce_groups); see execute.hpp.
#include "execute.hpp"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "einops/detail/kernels.hpp"
#include "einops/detail/plan_kernels.hpp"
#include "einops/detail/plan_walk.hpp"
#include "call_context.hpp"
#include "kernels/buffer_cache.hpp"
#include "kernels/element_words.hpp"
#include "odometer.hpp"

namespace einops::detail {
namespace {

bool moves_only(const Plan& plan) { return plan.reduced_axes.empty() || !plan.reduction; }

/// Out of line: a Walk is kilobytes, and the contiguous path should not even zero one.
[[gnu::noinline]] void execute_strided(const Plan& plan, const TensorRef& x, const TensorRef& out) {
  const Walk walk = make_walk(plan, x.strides, out.strides);
  if (moves_only(plan)) copy_strided(dtype_size(x.dtype), x.data, out.data, walk);
  else reduce_strided(x.dtype, *plan.reduction, x.data, out.data, walk);
}

/// reduce_groups on elements moved as opaque `Word`s: each group is gathered into one buffer.
template <class Word>
void gather_groups(const Walk& walk, const Word* in, GroupReducer reduce_group, void* reduction) {
  std::vector<Word> group(static_cast<std::size_t>(walk.reduced_count()));
  const int inner = walk.reduced_rank - 1;
  const std::int64_t group_run = inner >= 0 ? walk.reduced_extent[inner] : 1;
  const std::int64_t group_step = inner >= 0 ? walk.reduced_stride[inner] : 0;
  const auto reduce_at = [&](std::int64_t in_offset, std::int64_t out_offset) {
    std::size_t filled = 0;
    if (!group.empty()) {
      for_each_run(walk.reduced_rank, walk.reduced_extent, walk.reduced_stride, walk.reduced_stride,
                   [&](std::int64_t offset, std::int64_t) {
                     for (std::int64_t i = 0; i < group_run; ++i)
                       group[filled++] = in[in_offset + offset + i * group_step];
                   });
    }
    reduce_group(reduction, group.data(), filled, out_offset);
  };
  const int last = walk.rank - 1;
  const std::int64_t run = last >= 0 ? walk.extent[last] : 1;
  const std::int64_t in_step = last >= 0 ? walk.in_stride[last] : 0;
  const std::int64_t out_step = last >= 0 ? walk.out_stride[last] : 0;
  for_each_run(walk.rank, walk.extent, walk.in_stride, walk.out_stride,
               [&](std::int64_t in_offset, std::int64_t out_offset) {
                 for (std::int64_t i = 0; i < run; ++i) reduce_at(in_offset + i * in_step, out_offset + i * out_step);
               });
}

}  // namespace

void check_result_size(const Plan& plan, std::size_t element_size, std::span<const std::int64_t> input_shape,
                       const AxisLengths& lengths) {
  const std::string problem = allocation_problem(plan.output_shape, element_size);
  if (problem.empty()) return;
  const std::string label(plan.reduction ? reduction_name(*plan.reduction) : operation_name(plan.operation));
  const CallContext context{.operation = label, .pattern = plan.pattern, .shape = input_shape, .lengths = &lengths};
  context.fail("The result is too large: " + problem);
}

DType result_dtype(const Plan& plan, DType input) {
  if (moves_only(plan)) return input;
  return reduction_result_dtype(*plan.reduction, input);
}

void execute(const Plan& plan, const TensorRef& x, const TensorRef& out) {
  if (!x.is_contiguous() || !out.is_contiguous()) return execute_strided(plan, x, out);
  if (moves_only(plan))
    copy_strided(dtype_size(x.dtype), x.data, out.data, plan.kernels->contiguous_walk,
                 plan.kernels->contiguous_schedules);
  else reduce_strided(x.dtype, *plan.reduction, x.data, out.data, plan.kernels->contiguous_walk);
}

AnyTensor execute_new(const Plan& plan, const TensorRef& x, const AxisLengths& lengths) {
  if (auto strides = view_strides(plan, x.strides))
    return AnyTensor(x.dtype, x.storage != nullptr ? *x.storage : nullptr, x.data, plan.output_shape,
                     std::move(*strides));
  const DType dtype = result_dtype(plan, x.dtype);
  check_result_size(plan, dtype_size(dtype), x.shape, lengths);  // before allocating
  // The kernels write every element: no zero fill, and large buffers come from the reuse cache.
  AnyTensor out = new_result(dtype, plan.output_shape);
  execute(plan, x, out);
  return out;
}

void reduce_groups(const Plan& plan, const TensorRef& x, std::span<const std::int64_t> out_strides,
                   GroupReducer reduce_group, void* reduction) {
  // Output positions come from the merged walk; the groups walk the plan's reduced axes unmerged.
  Walk walk = make_walk(plan, x.strides, out_strides);
  const std::array<std::int64_t, kMaxRank> axis_strides = input_axis_strides(plan, x.strides);
  walk.reduced_rank = 0;
  for (int index : plan.reduced_axes)
    walk.push_reduced(plan.input_axis_lengths[static_cast<std::size_t>(index)],
                      axis_strides[static_cast<std::size_t>(index)]);
  if (walk.output_count() == 0) return;
  with_element_word(dtype_size(x.dtype), [&](auto word) {
    using Word = decltype(word);
    gather_groups(walk, static_cast<const Word*>(x.data), reduce_group, reduction);
  });
}

}  // namespace einops::detail
