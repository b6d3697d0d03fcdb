// Plans: length inference and checks, output shape, reduced and added axes, permutation, and the
// axis-merging property of walks (merged execution equals a naive reference).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "einops/detail/plan_kernels.hpp"
#include "einops/detail/plan_walk.hpp"
#include <einops/detail/kernels.hpp>
#include <einops/einops.hpp>

#include "reference.hpp"

namespace {

using einops::AxisLengths;
using einops::EinopsError;
using einops::make_plan;
using einops::Operation;
using einops::Shape;
using einops_test::Kind;
using einops_test::Problem;

einops::Shared<const einops::Plan> plan_of(Operation op, std::string_view pattern, Shape shape,
                                           const AxisLengths& lengths = {},
                                           std::optional<std::string_view> reduction = std::nullopt) {
  if (op == Operation::reduce && !reduction) reduction = "sum";
  return make_plan(op, reduction, pattern, shape, lengths);
}

/// Expects make_plan to throw an EinopsError whose message contains `reason`.
void expect_plan_error(Operation op, std::string_view pattern, Shape shape, const AxisLengths& lengths,
                       const std::string& reason) {
  SCOPED_TRACE(std::string(pattern));
  try {
    (void)plan_of(op, pattern, std::move(shape), lengths);
    ADD_FAILURE() << "no error, expected: " << reason;
  } catch (const EinopsError& error) {
    EXPECT_NE(std::string(error.what()).find(reason), std::string::npos) << error.what();
  }
}

// ---- lengths ------------------------------------------------------------------------------------

TEST(Plan, InfersLengths) {
  const auto plan =
      plan_of(Operation::rearrange, "b (h h2) (w w2) c -> b (h2 w2 c) h w", {2, 6, 8, 3}, {{"h2", 2}, {"w2", 4}});
  EXPECT_EQ(plan->input_axis_names, (std::vector<std::string>{"b", "h", "h2", "w", "w2", "c"}));
  EXPECT_EQ(plan->input_axis_lengths, (Shape{2, 3, 2, 2, 4, 3}));
  EXPECT_EQ(plan->input_axis_dim, (std::vector<int>{0, 1, 1, 2, 2, 3}));
  EXPECT_EQ(plan->output_axis_names, (std::vector<std::string>{"b", "h2", "w2", "c", "h", "w"}));
  EXPECT_EQ(plan->output_axis_lengths, (Shape{2, 2, 4, 3, 3, 2}));
  EXPECT_EQ(plan->output_axis_dim, (std::vector<int>{0, 1, 1, 1, 2, 3}));
  EXPECT_EQ(plan->output_axis_source, (std::vector<int>{0, 2, 4, 5, 1, 3}));
  EXPECT_EQ(plan->permutation, (std::vector<int>{0, 2, 4, 5, 1, 3}));
  EXPECT_EQ(plan->output_shape, (Shape{2, 24, 3, 2}));
  EXPECT_EQ(plan->output_size, 2 * 24 * 3 * 2);
  EXPECT_TRUE(plan->reduced_axes.empty());
  EXPECT_FALSE(plan->has_added_axes());
  EXPECT_TRUE(plan->is_pure_view_candidate());
}

TEST(Plan, AnonymousAxesGiveLengths) {
  const auto plan = plan_of(Operation::reduce, "a (b 2) -> a b", {3, 8}, {}, "max");
  EXPECT_EQ(plan->input_axis_lengths, (Shape{3, 4, 2}));
  EXPECT_EQ(plan->reduced_axes, (std::vector<int>{2}));
  EXPECT_EQ(plan->output_shape, (Shape{3, 4}));
  EXPECT_EQ(plan->reduction, einops::Reduction::max);
}

TEST(Plan, GivenLengthsAreCheckedEvenWhenInferable) {
  EXPECT_NO_THROW((void)plan_of(Operation::rearrange, "a b -> b a", {2, 3}, {{"a", 2}}));
  expect_plan_error(Operation::rearrange, "a b -> b a", {2, 3}, {{"a", 3}}, "Shape mismatch, 2 != 3");
  expect_plan_error(Operation::rearrange, "(a b) -> a b", {6}, {{"a", 2}, {"b", 4}}, "Shape mismatch, 6 != 8");
  expect_plan_error(Operation::reduce, "(a 2) -> a", {6}, {{"a", 2}}, "Shape mismatch, 6 != 4");
}

TEST(Plan, AtMostOneUnknownPerGroup) {
  expect_plan_error(Operation::rearrange, "(a b) -> a b", {6}, {}, "Could not infer sizes for {'a', 'b'}");
  expect_plan_error(Operation::rearrange, "x (a b c) -> x a b c", {1, 24}, {{"b", 2}},
                    "Could not infer sizes for {'a', 'c'}");
  EXPECT_NO_THROW((void)plan_of(Operation::rearrange, "x (a b c) -> x a b c", {1, 24}, {{"b", 2}, {"c", 3}}));
}

TEST(Plan, Divisibility) {
  expect_plan_error(Operation::rearrange, "(a b) -> a b", {7}, {{"a", 2}},
                    "can't divide axis of length 7 in chunks of 2");
  expect_plan_error(Operation::rearrange, "(a b) -> a b", {0}, {{"a", 0}}, "division by zero");
  // Zero-length axes divide fine when the known part is not zero.
  const auto plan = plan_of(Operation::rearrange, "(a b) -> b a", {0}, {{"a", 2}});
  EXPECT_EQ(plan->output_shape, (Shape{0, 2}));
  EXPECT_EQ(plan->output_size, 0);
}

TEST(Plan, LengthErrors) {
  expect_plan_error(Operation::rearrange, "a b -> b a", {2, 3}, {{"z", 2}}, "Axis z is not used in transform");
  expect_plan_error(Operation::rearrange, "a b -> b a", {2, 3}, {{"a", 2}, {"a", 2}},
                    "Axis length is given twice: 'a'");
  expect_plan_error(Operation::rearrange, "(a b) -> b a", {4}, {{"a", -2}}, "negative length (-2)");
  expect_plan_error(Operation::rearrange, "a b -> b a", {2, 3}, {{"_a", 2}}, "('Invalid name for an axis', '_a')");
  expect_plan_error(Operation::rearrange, "a b -> b a", {2, -3}, {}, "negative length");
}

TEST(Plan, SideErrors) {
  expect_plan_error(Operation::rearrange, "a b -> a ...", {2, 3}, {},
                    "Ellipsis found in right side, but not left side");
  expect_plan_error(Operation::rearrange, "(a ...) -> a ...", {2, 3}, {},
                    "Ellipsis inside parenthesis in the left side");
  expect_plan_error(Operation::rearrange, "a b -> a b 2", {2, 3}, {}, "Non-unitary anonymous axes are not supported");
  expect_plan_error(Operation::rearrange, "a b -> a", {2, 3}, {}, "Identifiers only on one side of expression");
  expect_plan_error(Operation::repeat, "a b -> a", {2, 3}, {}, "Unexpected identifiers on the left side of repeat");
  expect_plan_error(Operation::repeat, "a -> a r", {2}, {}, "Specify sizes for new axes in repeat: {'r'}");
  expect_plan_error(Operation::reduce, "a -> a r", {2}, {}, "Unexpected identifiers on the right side of reduce");
  expect_plan_error(Operation::rearrange, "a b c -> a b c", {2, 3}, {}, "Wrong shape: expected 3 dims");
  expect_plan_error(Operation::rearrange, "a b ... -> a b ...", {2}, {}, "Wrong shape: expected >=2 dims");
}

TEST(Plan, MinMaxOfNothingRefused) {
  EXPECT_THROW((void)plan_of(Operation::reduce, "a b -> a", {2, 0}, {}, "max"), EinopsError);
  EXPECT_THROW((void)plan_of(Operation::reduce, "a b -> a", {2, 0}, {}, "min"), EinopsError);
  EXPECT_NO_THROW((void)plan_of(Operation::reduce, "a b -> a", {2, 0}, {}, "sum"));
}

// ---- structure ----------------------------------------------------------------------------------

TEST(Plan, ReducedAxesAndPermutation) {
  const auto plan = plan_of(Operation::reduce, "a b c d -> d a", {2, 3, 4, 5});
  EXPECT_EQ(plan->reduced_axes, (std::vector<int>{1, 2}));
  EXPECT_EQ(plan->permutation, (std::vector<int>{3, 0, 1, 2}));  // kept in output order, then reduced
  EXPECT_EQ(plan->reduced_count, 12);
  EXPECT_EQ(plan->output_shape, (Shape{5, 2}));
  EXPECT_FALSE(plan->is_pure_view_candidate());
}

TEST(Plan, AddedAxes) {
  const auto plan = plan_of(Operation::repeat, "h w -> h r (w 2)", {2, 4}, {{"r", 3}});
  EXPECT_EQ(plan->output_axis_source, (std::vector<int>{0, -1, 1, -1}));
  EXPECT_EQ(plan->output_axis_lengths, (Shape{2, 3, 4, 2}));
  EXPECT_EQ(plan->output_shape, (Shape{2, 3, 8}));
  EXPECT_TRUE(plan->has_added_axes());
  EXPECT_FALSE(plan->is_pure_view_candidate());
}

TEST(Plan, EllipsisExpands) {
  const auto plan = plan_of(Operation::rearrange, "b ... c -> c b ...", {2, 3, 4, 5});
  EXPECT_EQ(plan->input_axis_names, (std::vector<std::string>{"b", "...0", "...1", "c"}));
  EXPECT_EQ(plan->permutation, (std::vector<int>{3, 0, 1, 2}));
  EXPECT_EQ(plan->output_shape, (Shape{5, 2, 3, 4}));
  const auto inside = plan_of(Operation::rearrange, "b ... -> b (...)", {2, 3, 4});
  EXPECT_EQ(inside->output_shape, (Shape{2, 12}));
  const auto none = plan_of(Operation::rearrange, "b ... -> (b ...)", {7});
  EXPECT_EQ(none->output_shape, (Shape{7}));
}

TEST(Plan, UnitAxes) {
  const auto plan = plan_of(Operation::rearrange, "a 1 b -> () b 1 (a) (1)", {2, 1, 3});
  EXPECT_EQ(plan->output_shape, (Shape{1, 3, 1, 2, 1}));
  EXPECT_EQ(plan->input_axis_names, (std::vector<std::string>{"a", "b"}));
}

TEST(Plan, ReduceByRearrangeOrRepeatName) {
  const auto plan = plan_of(Operation::reduce, "a b -> b a", {2, 3}, {}, "rearrange");
  EXPECT_EQ(plan->operation, Operation::rearrange);
  EXPECT_FALSE(plan->reduction.has_value());
  const auto rep = plan_of(Operation::reduce, "a -> a r", {2}, {{"r", 2}}, "repeat");
  EXPECT_EQ(rep->operation, Operation::repeat);
  EXPECT_THROW((void)plan_of(Operation::reduce, "a -> a", {2}, {}, "avg"), EinopsError);
}

// ---- merged walks -------------------------------------------------------------------------------

TEST(PlanWalk, MergesAdjacentAxes) {
  const auto nhwc = plan_of(Operation::rearrange, "b c h w -> b h w c", {2, 3, 4, 5});
  ASSERT_EQ(nhwc->kernels->contiguous_walk.rank, 3);
  EXPECT_EQ(nhwc->kernels->contiguous_walk.extent[0], 2);
  EXPECT_EQ(nhwc->kernels->contiguous_walk.extent[1], 20);  // h and w walk memory as one dimension
  EXPECT_EQ(nhwc->kernels->contiguous_walk.extent[2], 3);
  EXPECT_EQ(nhwc->kernels->contiguous_walk.in_stride[1], 1);
  EXPECT_EQ(nhwc->kernels->contiguous_walk.out_stride[1], 3);

  EXPECT_EQ(plan_of(Operation::rearrange, "a b c -> a b c", {2, 3, 4})->kernels->contiguous_walk.rank, 1);
  EXPECT_EQ(plan_of(Operation::rearrange, "a b c -> (a b c)", {2, 3, 4})->kernels->contiguous_walk.rank, 1);
  EXPECT_EQ(plan_of(Operation::rearrange, "a b c -> c b a", {2, 3, 4})->kernels->contiguous_walk.rank, 3);
  EXPECT_EQ(plan_of(Operation::rearrange, "a 1 b -> a b", {2, 1, 3})->kernels->contiguous_walk.rank, 1);
  EXPECT_EQ(plan_of(Operation::rearrange, "a b c d -> (c d) (a b)", {2, 3, 4, 5})->kernels->contiguous_walk.rank, 2);

  const auto pool = plan_of(Operation::reduce, "b c h w -> b c", {2, 3, 4, 5});
  EXPECT_EQ(pool->kernels->contiguous_walk.rank, 1);
  EXPECT_EQ(pool->kernels->contiguous_walk.reduced_rank, 1);
  EXPECT_EQ(pool->kernels->contiguous_walk.reduced_extent[0], 20);

  const auto tile = plan_of(Operation::repeat, "h w -> h w r s", {2, 3}, {{"r", 3}, {"s", 2}});
  EXPECT_EQ(tile->kernels->contiguous_walk.rank, 2);  // (h w) and (r s)
  EXPECT_EQ(tile->kernels->contiguous_walk.in_stride[1], 0);
}

/// The rank a merged contiguous walk must have, computed from the problem alone: adjacent
/// non-unit output axes merge when both are added, or when the second is the next non-unit
/// input axis after the first.
int expected_rank(const Problem& p, int input_axes) {
  std::vector<int> axes;
  for (const auto& dim : p.output_dims)
    for (int axis : dim)
      if (p.axis_length[static_cast<std::size_t>(axis)] != 1) axes.push_back(axis);
  const auto next_input = [&](int axis) {
    for (int a = axis + 1; a < input_axes; ++a)
      if (p.axis_length[static_cast<std::size_t>(a)] != 1) return a;
    return -1;
  };
  int rank = static_cast<int>(axes.size());
  for (std::size_t i = 1; i < axes.size(); ++i) {
    const bool both_added = axes[i - 1] >= input_axes && axes[i] >= input_axes;
    const bool contiguous = axes[i - 1] < input_axes && axes[i] < input_axes && next_input(axes[i - 1]) == axes[i];
    if (both_added || contiguous) --rank;
  }
  return rank;
}

int count_input_axes(const Problem& p) {
  int n = 0;
  for (const auto& dim : p.input_dims) n += static_cast<int>(dim.size());
  return n;
}

std::vector<std::int64_t> test_values(std::int64_t count) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = (i * 37) % 101 - 50;
  return values;
}

/// Checks a plan's fields against the problem it was built from.
void check_plan_fields(const Problem& p, const einops::Plan& plan, Kind kind) {
  const int input_axes = count_input_axes(p);
  ASSERT_EQ(plan.input_axis_lengths.size(), static_cast<std::size_t>(input_axes));
  for (int a = 0; a < input_axes; ++a)
    EXPECT_EQ(plan.input_axis_lengths[static_cast<std::size_t>(a)], p.axis_length[static_cast<std::size_t>(a)]);
  EXPECT_EQ(plan.output_shape, p.output_shape());
  std::vector<int> sources;
  for (const auto& dim : p.output_dims)
    for (int axis : dim) sources.push_back(axis < input_axes ? axis : -1);
  EXPECT_EQ(plan.output_axis_source, sources);
  std::vector<int> reduced;
  for (int a = 0; a < input_axes; ++a)
    if (!p.in_output(a)) reduced.push_back(a);
  EXPECT_EQ(plan.reduced_axes, reduced);
  EXPECT_EQ(plan.has_added_axes(), kind == Kind::repeat);
}

TEST(PlanWalk, RandomMergedWalksMatchReference) {
  std::mt19937 rng(20240607);
  const Kind kinds[] = {Kind::rearrange, Kind::reduce, Kind::repeat};
  for (int iteration = 0; iteration < 600; ++iteration) {
    const Kind kind = kinds[iteration % 3];
    const Problem p = einops_test::random_problem(rng, kind);
    const std::string pattern = p.pattern();
    SCOPED_TRACE("iteration " + std::to_string(iteration) + ": " + pattern);
    const Operation op = kind == Kind::rearrange ? Operation::rearrange
                         : kind == Kind::reduce  ? Operation::reduce
                                                 : Operation::repeat;
    const Shape in_shape = p.input_shape();
    const auto plan = make_plan(op, op == Operation::reduce ? std::optional<std::string_view>("sum") : std::nullopt,
                                pattern, in_shape, p.lengths());
    check_plan_fields(p, *plan, kind);

    const einops::detail::Walk& walk = plan->kernels->contiguous_walk;
    EXPECT_EQ(walk.output_count(), plan->output_size);
    EXPECT_EQ(walk.reduced_count(), plan->reduced_count);
    const int input_axes = count_input_axes(p);
    EXPECT_EQ(walk.rank, expected_rank(p, input_axes));

    // Execute the merged walk directly with the kernels and compare with the reference.
    const auto input = test_values(einops_test::element_count(in_shape));
    const auto strides = einops::detail::row_major_strides(in_shape);
    std::vector<std::int64_t> out(static_cast<std::size_t>(plan->output_size) + 1, 12345);
    if (kind == Kind::reduce) {
      einops::detail::reduce_strided(einops::DType::int64, einops::Reduction::sum, input.data(), out.data(), walk);
      const auto expected = einops_test::reference_reduce(p, input.data(), strides, "sum");
      for (std::size_t i = 0; i < expected.size(); ++i)
        ASSERT_EQ(static_cast<double>(out[i]), expected[i]) << "element " << i;
    } else {
      einops::detail::copy_strided(sizeof(std::int64_t), input.data(), out.data(), walk);
      const auto expected = einops_test::reference_copy(p, input.data(), strides);
      for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(out[i], expected[i]) << "element " << i;
    }
    EXPECT_EQ(out.back(), 12345) << "wrote past the end";
  }
}

TEST(PlanWalk, RandomStridedWalksMatchReference) {
  // Same property through the public ops, with inputs laid out in random order, reversed and padded.
  std::mt19937 rng(777);
  const Kind kinds[] = {Kind::rearrange, Kind::reduce, Kind::repeat};
  for (int iteration = 0; iteration < 600; ++iteration) {
    const Kind kind = kinds[iteration % 3];
    const Problem p = einops_test::random_problem(rng, kind);
    const std::string pattern = p.pattern();
    SCOPED_TRACE("iteration " + std::to_string(iteration) + ": " + pattern);
    const Shape in_shape = p.input_shape();
    const einops_test::Layout layout = einops_test::random_layout(rng, in_shape);
    const auto buffer = test_values(layout.buffer_size);
    const einops::TensorView<const std::int64_t> x(buffer.data() + layout.origin, in_shape, layout.strides);
    if (kind == Kind::reduce) {
      const std::string reduction = iteration % 2 ? "max" : "sum";
      const auto result = einops::reduce(x, pattern, reduction, p.lengths()).as<std::int64_t>();
      ASSERT_EQ(Shape(result.shape().begin(), result.shape().end()), p.output_shape());
      const auto expected = einops_test::reference_reduce(p, x.data(), layout.strides, reduction);
      const auto actual = result.to_vector();
      for (std::size_t i = 0; i < expected.size(); ++i)
        ASSERT_EQ(static_cast<double>(actual[i]), expected[i]) << "element " << i;
    } else {
      const auto result = kind == Kind::rearrange ? einops::rearrange(x, pattern, p.lengths())
                                                  : einops::repeat(x, pattern, p.lengths());
      ASSERT_EQ(Shape(result.shape().begin(), result.shape().end()), p.output_shape());
      EXPECT_EQ(result.to_vector(), einops_test::reference_copy(p, x.data(), layout.strides));
    }
  }
}

TEST(PlanWalk, MakeWalkWithStrides) {
  // A transposed input: "a b -> b a" on a column-major buffer is a plain copy.
  const auto plan = plan_of(Operation::rearrange, "a b -> b a", {3, 4});
  const Shape in_strides{1, 3};
  const Shape out_strides{3, 1};
  const auto walk = einops::detail::make_walk(*plan, in_strides, out_strides);
  EXPECT_EQ(walk.rank, 1);
  EXPECT_EQ(walk.extent[0], 12);
  // view_strides: the same rearrange as a view of that input has row-major strides.
  const auto strides = einops::detail::view_strides(*plan, in_strides);
  ASSERT_TRUE(strides.has_value());
  EXPECT_EQ(*strides, (Shape{3, 1}));
  // Merging (b a) of a row-major input cannot be a view.
  const auto merged = plan_of(Operation::rearrange, "a b -> (b a)", {3, 4});
  EXPECT_FALSE(einops::detail::view_strides(*merged, std::vector<std::int64_t>{4, 1}).has_value());
  EXPECT_TRUE(einops::detail::view_strides(*merged, std::vector<std::int64_t>{1, 3}).has_value());
}

}  // namespace
