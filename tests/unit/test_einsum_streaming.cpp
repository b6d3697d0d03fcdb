// einsum's streaming contractions (src/einsum/route.hpp, stream.hpp): which contractions a plan
// sends to the streaming kernel, results against a naive reference on lengths around vector and
// block edges with padded, strided, reversed and broadcast (zero-stride) operands and outputs for
// every element type (the floating ones on every SIMD target), and bit-identical results for 1,
// 2, 3 and 8 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "einops/detail/einsum_description.hpp"
#include "einops/detail/kernels.hpp"
#include "einops/einsum.hpp"
#include "einops/threads.hpp"
#include "einsum/einsum_plan.hpp"
#include "einsum/route.hpp"
#include "call_context.hpp"
#include "operation_patterns.hpp"

using einops::AnyTensor;
using einops::Shape;
using einops::detail::einsum::Route;

namespace {

// ---- the route each plan records ----------------------------------------------------------------

/// The route of the one contraction step in the plan of `pattern` for float32 operands of `shapes`.
Route route_of(std::string_view pattern, const std::vector<Shape>& shapes) {
  std::vector<AnyTensor> operands;
  for (const Shape& shape : shapes) operands.emplace_back(einops::DType::float32, shape);
  const einops::detail::CallContext context{"einsum", pattern, operands};
  const auto parsed = einops::detail::einsum_pattern(pattern, context);
  const auto plan = einops::detail::einsum::get_plan(*parsed, operands, context);
  EXPECT_EQ(plan->steps.size(), 1u) << pattern;
  return plan->steps.empty() ? Route::matrix_product : plan->steps.front().route;
}

TEST(EinsumRoute, NoFreeAxisOnASideStreams) {
  EXPECT_EQ(route_of("b n d, b n d -> b n", {{32, 64, 256}, {32, 64, 256}}), Route::streaming);
  EXPECT_EQ(route_of("b h i d, b h i d -> b h i", {{4, 8, 64, 64}, {4, 8, 64, 64}}), Route::streaming);
  EXPECT_EQ(route_of("... d, ... d -> ...", {{4, 5, 6}, {4, 5, 6}}), Route::streaming);
  EXPECT_EQ(route_of("b n d, d -> b n", {{32, 64, 256}, {256}}), Route::streaming);        // matrix-vector
  EXPECT_EQ(route_of("d, b n d -> b n", {{256}, {32, 64, 256}}), Route::streaming);        // vector-matrix
  EXPECT_EQ(route_of("b n d, b d -> b n", {{32, 64, 256}, {32, 256}}), Route::streaming);  // batched
  EXPECT_EQ(route_of("b n d, b n d -> b n d", {{32, 64, 256}, {32, 64, 256}}), Route::streaming);
  EXPECT_EQ(route_of("b n d, d -> b n d", {{32, 64, 256}, {256}}), Route::streaming);
  EXPECT_EQ(route_of("n d, n d -> d", {{4096, 256}, {4096, 256}}), Route::streaming);  // summed over a batch axis
  EXPECT_EQ(route_of("i, i ->", {{1000}, {1000}}), Route::streaming);
}

TEST(EinsumRoute, MatrixProductsStayMatrixProducts) {
  EXPECT_EQ(route_of("b i k, b k j -> b i j", {{32, 256, 256}, {32, 256, 256}}), Route::matrix_product);
  EXPECT_EQ(route_of("b h q d, b h k d -> b h q k", {{8, 8, 512, 64}, {8, 8, 512, 64}}), Route::matrix_product);
  EXPECT_NE(route_of("i, j -> i j", {{64}, {64}}), Route::streaming);  // nothing summed: an outer product
}

TEST(EinsumRoute, ShortFreeAxesOnBothSidesFollowTheCostRule) {
  // m·n <= kStreamMaxReuse·(m + n) with k >= kStreamMinDepth streams ...
  EXPECT_EQ(route_of("b q d, b k d -> b q k", {{64, 2, 128}, {64, 2, 128}}), Route::streaming);
  EXPECT_EQ(route_of("b q d, b k d -> b q k", {{64, 4, 128}, {64, 4, 128}}), Route::streaming);
  EXPECT_EQ(route_of("b q d, b k d -> b q k", {{64, 2, 64}, {64, 1000, 64}}), Route::streaming);
  // ... longer free axes or short sums are products (test_einsum_small.cpp: which kernel).
  EXPECT_NE(route_of("b q d, b k d -> b q k", {{64, 5, 128}, {64, 5, 128}}), Route::streaming);
  EXPECT_EQ(route_of("b q d, b k d -> b q k", {{64, 3, 1000}, {64, 1000, 1000}}), Route::matrix_product);
  EXPECT_NE(route_of("b q d, b k d -> b q k", {{64, 2, 63}, {64, 2, 63}}), Route::streaming);
}

// ---- the plan in words (einops explain) -----------------------------------------------------------

TEST(EinsumDescription, NamesEachStepsRouteAndKernel) {
  using einops::detail::describe_einsum;
  const std::vector<Shape> rows = {{32, 64, 256}, {32, 64, 256}};
  const auto dots = describe_einsum("b n d, b n d -> b n", rows, einops::DType::float32);
  ASSERT_EQ(dots.steps.size(), 1u);
  EXPECT_EQ(dots.steps[0].first, "operand 0 (b n d)");
  EXPECT_EQ(dots.steps[0].result, "the output (b n)");
  EXPECT_EQ(dots.steps[0].kernel.rfind("streaming: a SIMD dot product", 0), 0u) << dots.steps[0].kernel;
  EXPECT_EQ(dots.axes.size(), 3u);
  EXPECT_EQ(dots.output_shape, (Shape{32, 64}));
  EXPECT_TRUE(dots.note.empty());

  const std::vector<Shape> matrices = {{8, 64, 64}, {8, 64, 64}};
  const auto product = describe_einsum("b i k, b k j -> b i j", matrices, einops::DType::float32);
  ASSERT_EQ(product.steps.size(), 1u);
  EXPECT_EQ(product.steps[0].kernel.rfind("matrix product: 8 x [64 x 64] . [64 x 64]", 0), 0u)
      << product.steps[0].kernel;

  // Elementwise: the lanes kernel; float16 is read in place.
  const auto elementwise = describe_einsum("b n d, b n d -> b n d", rows, einops::DType::float16);
  EXPECT_NE(elementwise.steps[0].kernel.find("side by side in SIMD lanes"), std::string::npos)
      << elementwise.steps[0].kernel;
  EXPECT_NE(elementwise.note.find("read in place"), std::string::npos) << elementwise.note;

  // Three operands: two steps, the first writing an intermediate product.
  const std::vector<Shape> chain = {{50, 3}, {3, 60}, {60, 2}};
  const auto three = describe_einsum("i j, j k, k l -> i l", chain, einops::DType::float64);
  ASSERT_EQ(three.steps.size(), 2u);
  EXPECT_EQ(three.steps[0].result.rfind("product 1 (", 0), 0u) << three.steps[0].result;
  // The second step contracts the intermediate with the remaining operand, in either order.
  EXPECT_NE((three.steps[1].first + three.steps[1].second).find("product 1"), std::string::npos)
      << three.steps[1].first << " / " << three.steps[1].second;
}

TEST(EinsumDescription, FailsAsEinsumFails) {
  const std::vector<Shape> shapes = {{2, 3, 4}, {2, 3, 5}};
  EXPECT_THROW(einops::detail::describe_einsum("b n d, b n d -> b n", shapes, einops::DType::float32),
               einops::EinopsError);
}

// ---- operands in any layout -----------------------------------------------------------------------

enum class Layout { contiguous, padded, every_other, reversed, broadcast, count };

/// Values whose products and sums are exact in every floating type (multiples of 1/4 up to 2:
/// sums stay exact in float32 up to 2^20 terms); integers that wrap in products.
template <class T>
T small_value(std::mt19937& rng) {
  const int k = std::uniform_int_distribution<int>(-8, 8)(rng);
  if constexpr (std::is_same_v<T, bool>) return k % 2 != 0;
  else if constexpr (einops::is_floating_element_v<T>) return static_cast<T>(static_cast<float>(k) / 4);
  else return static_cast<T>(k * 13);
}

/// A tensor of `shape` seen through strides of `layout` (one dimension, chosen at random, is the
/// one that is doubled, reversed or broadcast); the buffer holds exactly the reachable elements.
template <class T>
struct Operand {
  std::unique_ptr<T[]> buffer;
  std::int64_t origin = 0;  // the element of index (0, ..., 0)
  Shape shape, strides;

  Operand(const Shape& shape_, Layout layout, std::mt19937& rng) : shape(shape_), strides(shape_.size()) {
    const int rank = static_cast<int>(shape.size());
    const int special = rank > 0 ? std::uniform_int_distribution<int>(0, rank - 1)(rng) : -1;
    std::int64_t next = 1;
    for (int d = rank - 1; d >= 0; --d) {
      const auto i = static_cast<std::size_t>(d);
      if (layout == Layout::broadcast && d == special) continue;  // stride 0
      const std::int64_t step = layout == Layout::every_other && d == special ? 2 : 1;
      strides[i] = next * step;
      next = strides[i] * shape[i] + (layout == Layout::padded ? 1 : 0);
    }
    std::int64_t extent = 1;
    for (int d = 0; d < rank; ++d) {
      const auto i = static_cast<std::size_t>(d);
      if (layout == Layout::reversed && d == special) {
        strides[i] = -strides[i];
        origin += (shape[i] - 1) * -strides[i];
      }
      extent += (shape[i] - 1) * (strides[i] < 0 ? -strides[i] : strides[i]);
    }
    buffer = std::make_unique<T[]>(static_cast<std::size_t>(extent));
    for (std::int64_t i = 0; i < extent; ++i) buffer[static_cast<std::size_t>(i)] = small_value<T>(rng);
  }
  einops::TensorView<T> view() { return einops::TensorView<T>(buffer.get() + origin, shape, strides); }
};

/// numpy's accumulators, exact for the values of small_value: double for floats, wrap-around
/// uint64 for integers, a count of true products for bool.
template <class T>
using Exact = std::conditional_t<einops::is_floating_element_v<T>, double, std::uint64_t>;

template <class T>
T rounded(Exact<T> sum) {
  if constexpr (std::is_same_v<T, bool>) return sum != 0;
  else if constexpr (einops::is_floating_element_v<T>)
    return static_cast<T>(static_cast<float>(sum));  // exact in float
  else return static_cast<T>(sum);
}

template <class T>
bool same_value(T x, T y) {
  if constexpr (einops::is_floating_element_v<T>) return static_cast<double>(x) == static_cast<double>(y);
  else return x == y;
}

/// One two-operand contraction written with one-letter names: "xyd,xd->xy".
struct Spec {
  std::string a, b, out;
  std::string pattern() const {
    const auto spaced = [](const std::string& names) {
      std::string text;
      for (char name : names) text.append(text.empty() ? "" : " ").append(1, name);
      return text;
    };
    return spaced(a) + ", " + spaced(b) + " -> " + spaced(out);
  }
};

/// Dot products along a shared axis, matrix-vector products, elementwise and broadcast products,
/// products summed over batch axes, and short free axes on both sides with a long sum.
const std::vector<Spec> kSpecs = {
    {"xyd", "xyd", "xy"}, {"xyzd", "xyzd", "xyz"}, {"xd", "d", "x"},     {"d", "xd", "x"},      {"xyd", "xd", "xy"},
    {"d", "d", ""},       {"xde", "xde", "x"},     {"dx", "dx", "x"},    {"xyd", "xyd", "xyd"}, {"xyd", "d", "xyd"},
    {"xyd", "xy", "xyd"}, {"xy", "xy", "yx"},      {"xyd", "yd", "dxy"}, {"nd", "nd", "d"},     {"bnd", "bnd", "bd"},
    {"bnd", "bn", "bd"},  {"bid", "bjd", "bij"},   {"bid", "bjd", "jbi"}};

/// Lengths around SIMD vector widths (2..16 lanes), the kernels' unrolled groups and blocks, and
/// lanes mode's buffer of kRowStreamLanes accumulators (2061: two whole buffers and a tail).
const std::vector<std::int64_t> kEdgeLengths = {1,  2,  3,  4,  5,  7,  8,   9,   15,  16,   17,
                                                31, 32, 33, 63, 64, 65, 127, 129, 257, 1031, 2061};

/// Random lengths for the names of `spec`, at most `budget` index combinations in all (the
/// reference visits each); the free names of the cost-rule specs short.
std::vector<std::int64_t> pick_lengths(const Spec& spec, std::mt19937& rng, double budget) {
  for (;;) {
    std::vector<std::int64_t> length(128, 1);
    double combinations = 1;
    for (char name : spec.a + spec.b) {
      auto& l = length[static_cast<std::size_t>(name)];
      if (l != 1) continue;
      const std::size_t edge = std::uniform_int_distribution<std::size_t>(0, kEdgeLengths.size() - 1)(rng);
      l = name == 'i' || name == 'j' ? std::uniform_int_distribution<std::int64_t>(1, 5)(rng) : kEdgeLengths[edge];
      combinations *= static_cast<double>(l);
    }
    if (combinations <= budget) return length;
  }
}

Shape shape_of(const std::string& names, const std::vector<std::int64_t>& length) {
  Shape shape;
  for (char name : names) shape.push_back(length[static_cast<std::size_t>(name)]);
  return shape;
}

/// `trials` random problems per spec: lengths, operand layouts, and einsum or einsum_into a
/// strided output; every output element must equal the reference.
template <class T>
void streaming_matches_reference(unsigned seed, int trials) {
  std::mt19937 rng(seed);
  const auto pick_layout = [&] {
    return static_cast<Layout>(std::uniform_int_distribution<int>(0, static_cast<int>(Layout::count) - 1)(rng));
  };
  for (const Spec& spec : kSpecs) {
    for (int trial = 0; trial < trials; ++trial) {
      const auto length = pick_lengths(spec, rng, 1 << 17);
      Operand<T> a(shape_of(spec.a, length), pick_layout(), rng), b(shape_of(spec.b, length), pick_layout(), rng);
      const Layout out_layout = pick_layout();
      Operand<T> out(shape_of(spec.out, length), out_layout == Layout::broadcast ? Layout::contiguous : out_layout,
                     rng);
      const bool into = std::uniform_int_distribution<int>(0, 2)(rng) == 0;
      const std::string pattern = spec.pattern();
      const std::string what = pattern + " on " + einops::detail::format_shape(a.shape) + " and " +
                               einops::detail::format_shape(b.shape) + (into ? " into a strided output" : "");
      const AnyTensor operands[] = {a.view(), b.view()};
      AnyTensor result;
      if (into) {
        einops::einsum_into(operands, out.view(), pattern);
        result = out.view();
      } else {
        result = einops::einsum(std::span<const AnyTensor>(operands), pattern);
      }
      ASSERT_EQ(Shape(result.shape().begin(), result.shape().end()), out.shape) << what;

      // The reference: every combination of the names, summed into the output's.
      std::string names;
      for (char name : spec.a + spec.b)
        if (names.find(name) == std::string::npos) names.push_back(name);
      std::vector<Exact<T>> want(static_cast<std::size_t>(einops::detail::checked_element_count(out.shape)));
      std::vector<std::int64_t> index(128, 0);
      const auto value_of = [&](const Operand<T>& op, const std::string& of) {
        std::int64_t offset = op.origin;
        for (std::size_t d = 0; d < of.size(); ++d) offset += index[static_cast<std::size_t>(of[d])] * op.strides[d];
        return static_cast<Exact<T>>(op.buffer[static_cast<std::size_t>(offset)]);
      };
      for (;;) {
        std::int64_t flat = 0;
        for (char name : spec.out)
          flat = flat * length[static_cast<std::size_t>(name)] + index[static_cast<std::size_t>(name)];
        want[static_cast<std::size_t>(flat)] += static_cast<Exact<T>>(value_of(a, spec.a) * value_of(b, spec.b));
        std::size_t d = names.size();
        for (; d-- > 0;) {
          auto& i = index[static_cast<std::size_t>(names[d])];
          if (++i < length[static_cast<std::size_t>(names[d])]) break;
          i = 0;
        }
        if (d == static_cast<std::size_t>(-1)) break;
      }
      const einops::Tensor<T> got = result.as<T>();
      std::vector<std::int64_t> at(spec.out.size(), 0);
      for (std::size_t flat = 0; flat < want.size(); ++flat) {
        std::size_t rest = flat;
        for (std::size_t d = at.size(); d-- > 0;) {
          at[d] = static_cast<std::int64_t>(rest % static_cast<std::size_t>(out.shape[d]));
          rest /= static_cast<std::size_t>(out.shape[d]);
        }
        const T value = got.at(std::span<const std::int64_t>(at));
        ASSERT_TRUE(same_value(value, rounded<T>(want[flat])))
            << what << " at output " << flat << ": " << +static_cast<double>(value) << " vs "
            << +static_cast<double>(rounded<T>(want[flat]));
      }
    }
  }
}

/// Runs `check` once with each instruction set this CPU and build have (the SIMD kernels are
/// compiled per set; a fault in one shows only where that set runs), then restores the choice.
template <class Check>
void on_every_simd_target(Check&& check) {
  for (const std::string& target : einops::detail::simd_targets()) {
    SCOPED_TRACE("SIMD target " + target);
    einops::detail::force_simd_target(target);
    check();
    einops::detail::force_simd_target("");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(EinsumStreaming, Float32MatchesReference) {
  on_every_simd_target([] { streaming_matches_reference<float>(1, 6); });
}
TEST(EinsumStreaming, Float64MatchesReference) {
  on_every_simd_target([] { streaming_matches_reference<double>(2, 6); });
}
TEST(EinsumStreaming, Float16MatchesReference) {
  on_every_simd_target([] { streaming_matches_reference<einops::float16>(3, 4); });
}
TEST(EinsumStreaming, Bfloat16MatchesReference) {
  on_every_simd_target([] { streaming_matches_reference<einops::bfloat16>(4, 4); });
}
TEST(EinsumStreaming, Int32MatchesReference) { streaming_matches_reference<std::int32_t>(5, 3); }
TEST(EinsumStreaming, Int8WrapsAsNumpy) { streaming_matches_reference<std::int8_t>(6, 3); }
TEST(EinsumStreaming, Uint16MatchesReference) { streaming_matches_reference<std::uint16_t>(7, 2); }
TEST(EinsumStreaming, Int64MatchesReference) { streaming_matches_reference<std::int64_t>(8, 2); }
TEST(EinsumStreaming, BoolMatchesReference) { streaming_matches_reference<bool>(9, 2); }

// ---- one result for any thread count -------------------------------------------------------------

/// Restores the thread count a test changed.
struct ThreadCountGuard {
  int saved = einops::get_num_threads();
  ~ThreadCountGuard() { einops::set_num_threads(saved); }
};

/// Operands of random reals (sums are rounded, so the summation order shows in the last bits),
/// each problem large enough for the thread pool; results compared bit for bit.
template <class T>
void identical_for_any_thread_count() {
  const ThreadCountGuard guard;
  const std::vector<std::pair<std::string, std::vector<Shape>>> problems = {
      {"b n d, b n d -> b n", {{16, 512, 129}, {16, 512, 129}}},
      {"b h i d, b h i d -> b h i", {{4, 8, 256, 64}, {4, 8, 256, 64}}},
      {"b n d, d -> b n", {{16, 512, 257}, {257}}},
      {"b n d, b n d -> b n d", {{16, 256, 130}, {16, 256, 130}}},
      {"n d, n d -> d", {{4099, 65}, {4099, 65}}},
      {"b n d, b n d -> b d", {{8, 1000, 70}, {8, 1000, 70}}},
      {"d, d ->", {{1 << 20}, {1 << 20}}},
  };
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (const auto& [pattern, shapes] : problems) {
    std::vector<AnyTensor> operands;
    for (const Shape& shape : shapes) {
      einops::Tensor<T> t(shape);
      for (std::int64_t i = 0; i < t.size(); ++i) t.data()[i] = static_cast<T>(uniform(rng));
      operands.emplace_back(t);
    }
    einops::set_num_threads(1);
    const AnyTensor one = einops::einsum(std::span<const AnyTensor>(operands), pattern);
    const auto bytes = static_cast<std::size_t>(one.size()) * sizeof(T);
    for (int threads : {2, 3, 8}) {
      einops::set_num_threads(threads);
      const AnyTensor many = einops::einsum(std::span<const AnyTensor>(operands), pattern);
      ASSERT_EQ(many.size(), one.size());
      EXPECT_EQ(std::memcmp(many.data(), one.data(), bytes), 0) << pattern << " with " << threads << " threads";
    }
  }
}

TEST(EinsumStreaming, Float32IdenticalForAnyThreadCount) { identical_for_any_thread_count<float>(); }
TEST(EinsumStreaming, Float64IdenticalForAnyThreadCount) { identical_for_any_thread_count<double>(); }
TEST(EinsumStreaming, Float16IdenticalForAnyThreadCount) { identical_for_any_thread_count<einops::float16>(); }

}  // namespace
